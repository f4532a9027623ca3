// The tree-sitter runtime as the readers use it: the grammars' ABI checked against the runtime, and a parse
// bounded by a CPU-time budget.
#pragma once

#include <cstddef>
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

/// The CPU time a parse of `bytes` bytes may use: 5 s + 2 s per MB, far above the normal cost (several MB/s). Error
/// recovery is superlinear on some broken input (thousands of lines that each hold an error); the budget stops it.
/// Builds without optimisation or with AddressSanitizer run the tree-sitter runtime ten to thirty times slower, so
/// their budget is ten times larger: a valid file must parse in every build the tests run.
std::uint64_t parse_budget_ns(std::size_t bytes);

/// Parses `text` with `parser` (its language set), stopping once the calling thread has used `budget_ns` of CPU
/// time for it. Null when the budget ran out. CPU time, not wall time: a busy machine must not make a valid file
/// fail. `text` must be shorter than 4 GiB (tree-sitter addresses bytes with uint32_t).
TSTree* parse_with_budget(TSParser* parser, std::string_view text, std::uint64_t budget_ns);

}  // namespace lint::parse
