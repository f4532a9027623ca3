// libFuzzer harness: launch commands in a shell script (tree-sitter-bash and the word expansion over it).
#include "lint/parse/shell_reader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const lint::source::SourceFile file("launch.sh", lint::fuzz::as_text(data, size));
  std::vector<lint::parse::ParseError> errors;
  const auto commands = lint::parse::find_launch_commands(file, /*makefile=*/false, &errors);
  for (const auto& c : commands) {
    if (!c.region.valid() || c.region.end_byte > size) __builtin_trap();
  }
  return 0;
}
