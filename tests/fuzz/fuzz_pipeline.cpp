// libFuzzer harness: the whole pipeline on a multi-file project (discovery, every reader, binding launches across
// files, every rule, suppressions) and every report format. Files are separated by `----- NAME` lines
// (tests/fuzz/fuzz_support.hpp).
#include <sstream>

#include "lint/driver/driver.hpp"
#include "lint/report/reporter.hpp"
#include "rules/registry.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "tests/fuzz/fuzz_tempdir.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path dir = lint::fuzz::fresh_dir();
  for (const auto& [name, text] : lint::fuzz::split_files(lint::fuzz::as_text(data, size))) {
    lint::fuzz::write_file(dir / name, text);
  }
  lint::driver::RunOptions options;
  options.paths = {dir.string()};
  options.jobs = 1;
  options.show_suppressed = size % 2 == 1;
  const lint::driver::RunResult result = lint::driver::run(lint::rules::rule_table(), options);
  lint::report::ReportInput in;
  in.diagnostics = &result.diagnostics;
  in.rules = &lint::rules::rule_table();
  in.sources = &result.sources;
  in.srcroot = dir.string() + "/";
  in.files_checked = result.files_checked;
  for (auto format : {lint::report::Format::Text, lint::report::Format::Concise, lint::report::Format::Json,
                      lint::report::Format::Sarif, lint::report::Format::Github, lint::report::Format::Junit}) {
    std::ostringstream out;
    lint::report::write(format, out, in);
  }
  return 0;
}
