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

struct StringInput {
  std::string_view text;
  std::uint64_t deadline_ns = 0;

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
    return thread_cpu_ns() > static_cast<const StringInput*>(state->payload)->deadline_ns;
  }
};

}  // namespace

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
