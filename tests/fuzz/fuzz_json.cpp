// libFuzzer harness: the JSON reader.
#include "lint/parse/readers.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const lint::source::SourceFile file("fuzz.json", lint::fuzz::as_text(data, size));
  const lint::parse::ConfigDocument doc = lint::parse::read_json(file);
  for (const auto& e : doc.errors) {
    if (!e.region.valid() || e.region.end_byte > size) __builtin_trap();
  }
  return 0;
}
