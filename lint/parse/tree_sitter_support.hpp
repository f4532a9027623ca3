// The tree-sitter runtime as the readers use it: the grammars' ABI checked against the runtime, and a parse
// bounded by a CPU-time budget and a memory budget.
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

/// The memory the tree-sitter runtime may hold for one parse of `bytes` bytes: 256 MiB + 16 bytes per byte. A
/// syntax tree costs tens of bytes per byte of ordinary code, but over two hundred for a long run of one-character
/// tokens in one statement (a 24 MB Python list literal took 5 GB and aborted when an allocation failed).
std::size_t parse_memory_budget(std::size_t bytes);

/// Why parse_with_budget returned no tree.
enum class ParseStop : std::uint8_t { None, Time, Memory };

/// Parses `text` with `parser` (its language set), stopping once the calling thread has used `budget_ns` of CPU
/// time for it, or once the runtime holds more than parse_memory_budget(text.size()) bytes more than when it began
/// (counted by the allocator this file gives the runtime, per thread). Null when a budget ran out; `stop` (when
/// given) says which. CPU time, not wall time: a busy machine must not make a valid file fail. `text` must be
/// shorter than 4 GiB (tree-sitter addresses bytes with uint32_t).
TSTree* parse_with_budget(TSParser* parser, std::string_view text, std::uint64_t budget_ns, ParseStop* stop = nullptr);

/// parse_with_budget with a memory budget of `memory_bytes` (for tests).
TSTree* parse_with_budgets(TSParser* parser, std::string_view text, std::uint64_t budget_ns, std::size_t memory_bytes,
                           ParseStop* stop);

/// The message of a parse stopped by its budget: "parsing stopped after N s of CPU time" or "... at N MiB of memory".
std::string parse_stop_message(ParseStop stop, std::uint64_t budget_ns, std::size_t bytes);

}  // namespace lint::parse
