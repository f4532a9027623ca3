// Facts extracted from one Python file: calls with their resolved arguments, attribute assignments, imports.
// Nothing is executed: values are resolved from literals, enum attributes, module constants, simple local
// assignments, dict literals / dict(...) calls and `**` of those; anything else is Unknown.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lint/model/value.hpp"
#include "lint/parse/python_reader.hpp"
#include "lint/source/source_file.hpp"

namespace lint::model {

struct PyArg {
  std::string name;                 ///< keyword name; empty for a positional argument
  std::size_t position = 0;         ///< index among positional arguments
  Value value;                      ///< resolved value (Unknown when not static)
  source::Region region;            ///< the whole argument (`name=value`)
  source::Region name_region;       ///< the keyword (or the value for positionals)
  bool from_unpacked_dict = false;  ///< came from `**{...}` / `**local_dict`
};

struct PyCall {
  std::string callee;     ///< qualified name through imports (`torch.distributed.fsdp.FullyShardedDataParallel`),
                          ///< else the dotted text as written (`model.gradient_checkpointing_enable`)
  std::string name;       ///< last component of `callee` (`FullyShardedDataParallel`)
  std::string receiver;   ///< for method calls, the dotted receiver text (`model`, `self.model`); empty otherwise
  source::Region region;  ///< the whole call
  source::Region callee_region;
  std::vector<PyArg> args;
  bool has_unresolved_unpacking = false;  ///< a `*args` / `**kwargs` whose content is unknown
  std::string function;                   ///< enclosing function's name (empty at module level)
  std::size_t order = 0;                  ///< byte offset, for "before/after" questions in one function

  [[nodiscard]] const PyArg* keyword(std::string_view key) const;  ///< last occurrence
  [[nodiscard]] const PyArg* positional(std::size_t index) const;
};

/// `target.attr = value` where target is a dotted name, e.g. `accelerator.state.fsdp_plugin.auto_wrap_policy = p`.
struct PyAttributeAssignment {
  std::string target;     ///< full dotted text of the assigned attribute
  std::string attribute;  ///< last component
  Value value;
  source::Region region;
  std::string function;
};

/// `class Name(Base, ...):` at any level of the file, with the names its own body annotates (`name: type = ...`,
/// the fields of a dataclass). Nothing of a base class defined elsewhere is known.
struct PyClass {
  std::string name;
  std::vector<std::string> bases;       ///< qualified through imports, else as written (`TrainingArguments`)
  std::vector<std::string> decorators;  ///< qualified names, arguments dropped (`dataclasses.dataclass`)
  std::vector<std::string> fields;      ///< annotated names of the class body, in order
  /// For each of `fields`, its default when that is a truth value written out (`fp16: bool = True`,
  /// `bf16: bool = field(default=False, ...)`, `dataclasses.field(default=True)`): 1 or 0; -1 for anything else.
  std::vector<std::int8_t> field_truths;
  source::Region region;  ///< the `class` line's name
};

struct PythonFacts {
  std::vector<PyCall> calls;     ///< in source order
  std::vector<PyClass> classes;  ///< in source order
  std::vector<PyAttributeAssignment> attribute_assignments;
  std::map<std::string, std::string> imports;  ///< local name -> qualified name
  /// Qualified names of `imports` called by a call that `calls` leaves out (keep_only_read: nothing reads its
  /// name, callee or arguments), sorted: with `calls`, what tells whether an imported module is called at all.
  std::vector<std::string> called_imports;
  std::vector<parse::ParseError> syntax_errors;

  /// Whether a call calls the imported `qualified` name or something under it (`qualified.x`).
  [[nodiscard]] bool calls_into(std::string_view qualified) const;

  /// Calls whose resolved short name is `name` (after import aliases).
  [[nodiscard]] std::vector<const PyCall*> calls_named(std::string_view name) const;
};

/// Extracts facts from an already parsed tree.
PythonFacts extract_python_facts(const source::SourceFile& file, const parse::PythonTree& tree);

/// From this size on, read_python_facts reads a file in pieces (docs/limits.md "Huge files").
constexpr std::size_t kPythonPiecesFrom = 1024 * 1024;
/// About how much text one piece holds: its tree is about 35 times that.
constexpr std::size_t kPythonPieceBytes = 64 * 1024;

/// Parses `file` and extracts its facts: a file of kPythonPiecesFrom bytes or more is read in pieces of
/// kPythonPieceBytes (parse::PythonPieces), so that only one piece's tree is in memory at a time; the facts are
/// those of the whole file's tree. A file that cannot be read in pieces (a syntax error in it) is parsed whole.
PythonFacts read_python_facts(const source::SourceFile& file);

/// The facts of `file` read in pieces of about `piece_bytes`, whatever its size; nothing when it has to be parsed
/// whole (a syntax error, a CPython limit, a result that depends on the order of resolution).
std::optional<PythonFacts> read_python_facts_in_pieces(const source::SourceFile& file, std::size_t piece_bytes);

}  // namespace lint::model
