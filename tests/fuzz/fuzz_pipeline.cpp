// libFuzzer harness: the whole pipeline on a multi-file project (discovery, every reader, binding launches across
// files, every rule, suppressions) and every report format. Files are separated by `----- NAME` lines
// (tests/fuzz/fuzz_support.hpp). The run is made twice, streaming its launches (as `check` does) and keeping them
// (as `explain` does): the findings must be the same.
#include <sstream>

#include "lint/driver/driver.hpp"
#include "lint/report/reporter.hpp"
#include "rules/registry.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "tests/fuzz/fuzz_tempdir.hpp"

namespace {

/// Every member of every finding that a report shows.
std::string findings_of(const lint::driver::RunResult& r) {
  std::ostringstream out;
  for (const lint::rule::Diagnostic& d : r.diagnostics) {
    out << d.path << ':' << d.region.begin.line << ':' << d.region.begin.column << '-' << d.region.end.line << ':'
        << d.region.end.column << ' ' << d.code << ' ' << static_cast<int>(d.severity) << ' ' << d.message << " ["
        << d.setting << "]" << (d.suppressed ? " suppressed" : "") << (d.fix ? " fix" : "");
    for (const auto& rel : d.related) out << " | " << rel.path << ':' << rel.region.begin.line << ' ' << rel.message;
    out << '\n';
  }
  return out.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path dir = lint::fuzz::fresh_dir();
  for (const auto& [name, text] : lint::fuzz::split_files(lint::fuzz::as_text(data, size))) {
    lint::fuzz::write_file(dir / name, text);
  }
  lint::driver::RunOptions options;
  options.paths = {dir.string()};
  options.jobs = 1;
  options.show_suppressed = size % 2 == 1;
  // The CLI's run streams: launch configs' trees and scripts' Python facts are given back once their per-file rules
  // ran and read again (unpacked) for their launches. `explain` keeps everything. Both run, and must agree.
  options.keep_launches = false;
  const lint::driver::RunResult result = lint::driver::run(lint::rules::rule_table(), options);
  options.keep_launches = true;
  if (findings_of(lint::driver::run(lint::rules::rule_table(), options)) != findings_of(result)) __builtin_trap();
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
