// libFuzzer harness: launch command lines, as a Makefile recipe (the recipe reader blanks what is not a recipe)
// and as a one-line script (launcher flags, wrappers, variables).
#include "lint/parse/shell_reader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

void check(const lint::source::SourceFile& file, bool makefile) {
  const auto commands = lint::parse::find_launch_commands(file, makefile);
  for (const auto& c : commands) {
    if (!c.region.valid() || c.region.end_byte > file.text().size()) __builtin_trap();
    for (const auto& f : c.flags) {
      if (f.region.end_byte > file.text().size()) __builtin_trap();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = lint::fuzz::as_text(data, size);
  check(lint::source::SourceFile("Makefile", "train:\n\t" + text), true);
  check(lint::source::SourceFile("cmd.sh", "accelerate launch " + text.substr(0, text.find('\n'))), false);
  return 0;
}
