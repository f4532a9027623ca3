#include "lint/parse/tree_sitter_support.hpp"

#include <malloc.h>
#include <tree_sitter/api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace lint::parse {

namespace {

struct Grammar {
  const char* name;
  const TSLanguage* (*language)();
};

constexpr Grammar kGrammars[] = {{"tree-sitter-python", &tree_sitter_python}, {"tree-sitter-bash", &tree_sitter_bash}};

/// How many of the runtime's progress calls (one per hundred parse operations) pass between two reads of the
/// thread's CPU clock. CLOCK_THREAD_CPUTIME_ID is a system call, never the vDSO: read on every progress call it cost
/// ~1.6 us each, 35,000 times on the `mono 1` benchmark (~4% of a run's CPU time, none of it visible in instruction
/// counts). Every 16th call is still about once per millisecond of parsing, against a budget of seconds.
constexpr std::uint32_t kProgressCallsPerClockRead = 16;

/// The bytes the tree-sitter runtime holds, as this thread's allocations and frees through it count them (a tree
/// freed on another thread counts there: only the growth during one parse, on one thread, is read).
thread_local std::int64_t t_runtime_bytes = 0;

/// The runtime's allocator: the C library's, counted. Failure aborts, as the runtime's default allocator does (the
/// memory budget stops a parse long before). malloc_usable_size is what both glibc and jemalloc keep per block.
[[noreturn]] void out_of_memory(std::size_t n) {
  std::fprintf(stderr, "launchlint: tree-sitter failed to allocate %zu bytes\n", n);
  std::abort();
}
void* counted_malloc(std::size_t n) {
  void* p = std::malloc(n);
  if (p == nullptr && n != 0) out_of_memory(n);
  t_runtime_bytes += static_cast<std::int64_t>(malloc_usable_size(p));
  return p;
}
void* counted_calloc(std::size_t count, std::size_t n) {
  void* p = std::calloc(count, n);
  if (p == nullptr && count != 0 && n != 0) out_of_memory(count * n);
  t_runtime_bytes += static_cast<std::int64_t>(malloc_usable_size(p));
  return p;
}
void* counted_realloc(void* old, std::size_t n) {
  const auto before = static_cast<std::int64_t>(malloc_usable_size(old));
  void* p = std::realloc(old, n);
  if (p == nullptr && n != 0) out_of_memory(n);
  t_runtime_bytes += static_cast<std::int64_t>(malloc_usable_size(p)) - before;
  return p;
}
void counted_free(void* p) {
  t_runtime_bytes -= static_cast<std::int64_t>(malloc_usable_size(p));
  std::free(p);
}

/// Installed before main runs, so that every block the runtime frees was allocated through it.
const bool kAllocatorInstalled = [] {
  ts_set_allocator(&counted_malloc, &counted_calloc, &counted_realloc, &counted_free);
  return true;
}();

struct StringInput {
  std::string_view text;
  std::uint64_t deadline_ns = 0;
  std::int64_t bytes_limit = 0;  ///< t_runtime_bytes beyond which the parse stops
  std::uint32_t progress_calls = 0;
  ParseStop stop = ParseStop::None;

  static const char* read(void* payload, std::uint32_t byte, TSPoint /*position*/, std::uint32_t* bytes_read) {
    const auto* self = static_cast<const StringInput*>(payload);
    if (byte >= self->text.size()) {
      *bytes_read = 0;
      return "";
    }
    *bytes_read = static_cast<std::uint32_t>(self->text.size() - byte);
    return self->text.data() + byte;
  }

  /// Called by the runtime every hundred or so parse operations; true stops the parse.
  static bool past_deadline(TSParseState* state) {
    auto* self = static_cast<StringInput*>(state->payload);
    if (t_runtime_bytes > self->bytes_limit) {
      self->stop = ParseStop::Memory;
      return true;
    }
    if (self->progress_calls++ % kProgressCallsPerClockRead != 0) return false;
    if (thread_cpu_ns() <= self->deadline_ns) return false;
    self->stop = ParseStop::Time;
    return true;
  }
};

#if defined(__SANITIZE_ADDRESS__) || !defined(__OPTIMIZE__)
constexpr std::uint64_t kBuildSlowdown = 10;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr std::uint64_t kBuildSlowdown = 10;
#else
constexpr std::uint64_t kBuildSlowdown = 1;
#endif
#else
constexpr std::uint64_t kBuildSlowdown = 1;
#endif

}  // namespace

std::uint64_t parse_budget_ns(std::size_t bytes) {
  constexpr std::uint64_t kBase = 5'000'000'000;         // 5 s
  constexpr std::uint64_t kPerMegabyte = 2'000'000'000;  // + 2 s per MB
  return kBuildSlowdown * (kBase + kPerMegabyte * (bytes / (1024 * 1024)));
}

std::vector<std::string> grammar_abi_problems() {
  std::vector<std::string> problems;
  for (const Grammar& g : kGrammars) {
    const std::uint32_t abi = ts_language_abi_version(g.language());
    if (abi < TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION || abi > TREE_SITTER_LANGUAGE_VERSION) {
      problems.push_back(std::string("the ") + g.name + " grammar has ABI version " + std::to_string(abi) +
                         ", which the tree-sitter runtime (ABI " +
                         std::to_string(TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION) + " to " +
                         std::to_string(TREE_SITTER_LANGUAGE_VERSION) + ") cannot load: a build defect");
    }
  }
  return problems;
}

std::uint64_t thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1'000'000'000U + static_cast<std::uint64_t>(t.tv_nsec);
}

std::size_t parse_memory_budget(std::size_t bytes) {
  return (std::size_t{256} << 20) + 16 * bytes;
}

TSTree* parse_with_budget(TSParser* parser, std::string_view text, std::uint64_t budget_ns, ParseStop* stop) {
  return parse_with_budgets(parser, text, budget_ns, parse_memory_budget(text.size()), stop);
}

TSTree* parse_with_budgets(TSParser* parser, std::string_view text, std::uint64_t budget_ns, std::size_t memory_bytes,
                           ParseStop* stop) {
  (void)kAllocatorInstalled;
  StringInput input{text, thread_cpu_ns() + budget_ns, t_runtime_bytes + static_cast<std::int64_t>(memory_bytes)};
  TSParseOptions options{};
  options.payload = &input;
  options.progress_callback = &StringInput::past_deadline;
  TSTree* tree = ts_parser_parse_with_options(
      parser, nullptr, TSInput{&input, &StringInput::read, TSInputEncodingUTF8, nullptr}, options);
  if (stop != nullptr) *stop = tree == nullptr ? input.stop : ParseStop::None;
  return tree;
}

std::string parse_stop_message(ParseStop stop, std::uint64_t budget_ns, std::size_t bytes) {
  if (stop == ParseStop::Memory)
    return "parsing stopped at " + std::to_string(parse_memory_budget(bytes) >> 20) + " MiB of memory";
  return "parsing stopped after " + std::to_string(budget_ns / 1'000'000'000) + " s of CPU time";
}

}  // namespace lint::parse
