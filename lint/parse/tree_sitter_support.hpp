// The tree-sitter runtime as the readers use it: the grammars' ABI checked against the runtime, and a parse
// bounded by a CPU-time budget.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct TSParser;
struct TSTree;
struct TSLanguage;

extern "C" const TSLanguage* tree_sitter_python(void);
extern "C" const TSLanguage* tree_sitter_bash(void);

namespace lint::parse {

/// One message per grammar whose ABI version the linked runtime cannot load (empty when both load). Checked at
/// start-up: a mismatch is a build defect, reported as an error instead of silently yielding no facts.
std::vector<std::string> grammar_abi_problems();

/// The CPU time of the calling thread, in nanoseconds.
std::uint64_t thread_cpu_ns();

/// Parses `text` with `parser` (its language set), stopping once the calling thread has used `budget_ns` of CPU
/// time for it. Null when the budget ran out. CPU time, not wall time: a busy machine must not make a valid file
/// fail. `text` must be shorter than 4 GiB (tree-sitter addresses bytes with uint32_t).
TSTree* parse_with_budget(TSParser* parser, std::string_view text, std::uint64_t budget_ns);

}  // namespace lint::parse
