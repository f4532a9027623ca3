// libFuzzer harness: the Python reader (tree-sitter-python) and fact extraction over its tree.
#include "lint/model/python_facts.hpp"
#include "lint/parse/python_reader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const lint::source::SourceFile file("train.py", lint::fuzz::as_text(data, size));
  const lint::parse::PythonTree tree = lint::parse::PythonTree::parse(file);
  const lint::model::PythonFacts facts = lint::model::extract_python_facts(file, tree);
  for (const auto& e : facts.syntax_errors) {
    if (!e.region.valid() || e.region.end_byte > size) __builtin_trap();
  }
  return 0;
}
