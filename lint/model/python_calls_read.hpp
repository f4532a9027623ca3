// The Python calls and attribute assignments that launchlint reads: a huge Python file keeps only those in its facts
// (docs/limits.md "Huge files"). Whatever reads a call of PythonFacts by another name, callee or keyword (a rule,
// the binder, the memory model, a launch's settings) must be covered here: the rule fixtures are run a second time
// with every Python file read as a huge one (tests/rule_fixtures_test.cpp), and must give the same findings.
#pragma once

#include <cstddef>
#include <string_view>

#include "lint/model/python_facts.hpp"

namespace lint::model {

/// Whether something reads this call: its name (`from_pretrained`, `TrainingArguments`, a name ending in `Trainer`
/// or `Config`, ...), its callee's module (`trl`, `deepspeed`, `torch.optim`, ...), a `peft_config=` keyword
/// (kReadKeyword), or, for a lazy-config `dict(type=..., ...)`, the callable it builds (lazy_config_type).
bool python_call_read(const PyCall& c);

/// python_call_read by the name and callee alone, before the arguments are known.
bool python_call_read_by_name(const PyCall& c);
/// The same for a call's `name` (the last component of `callee`) and `callee`, before its PyCall is built.
bool python_call_read_by_name(std::string_view name, std::string_view callee);

/// The keyword argument that makes any call read (`get_peft_model`-like helpers that take `peft_config=`).
inline constexpr std::string_view kReadKeyword = "peft_config";

/// Whether something reads this attribute assignment (`accelerator.state.fsdp_plugin.x = ...`,
/// `model.gradient_checkpointing = ...`).
bool python_attribute_assignment_read(const PyAttributeAssignment& a);

/// From this size on (0, every file, unless a test changed it), read_python_facts keeps of the calls only those
/// python_call_read accepts, and of the others only which imports they call (PythonFacts::called_imports: what "is
/// X called at all" asks, the binder's imports); of the attribute assignments, those python_attribute_assignment_read
/// accepts.
/// A repository's thousands of model and utility files then cost a few hundred bytes of facts each
/// (docs/limits.md "Memory").
std::size_t python_read_calls_only_from();

/// For tests: keep only what is read in every file of `bytes` or more (SIZE_MAX: keep every call with its
/// arguments). Returns the previous value.
std::size_t set_python_read_calls_only_from(std::size_t bytes);

}  // namespace lint::model
