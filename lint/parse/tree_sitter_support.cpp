#include "lint/parse/tree_sitter_support.hpp"

#include <tree_sitter/api.h>

#include <algorithm>
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

struct StringInput {
  std::string_view text;
  std::uint64_t deadline_ns = 0;
  std::uint32_t progress_calls = 0;

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
    if (self->progress_calls++ % kProgressCallsPerClockRead != 0) return false;
    return thread_cpu_ns() > self->deadline_ns;
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

TSTree* parse_with_budget(TSParser* parser, std::string_view text, std::uint64_t budget_ns) {
  StringInput input{text, thread_cpu_ns() + budget_ns};
  TSParseOptions options{};
  options.payload = &input;
  options.progress_callback = &StringInput::past_deadline;
  return ts_parser_parse_with_options(parser, nullptr, TSInput{&input, &StringInput::read, TSInputEncodingUTF8, nullptr},
                                      options);
}

}  // namespace lint::parse
