#include "tests/support/fixture_support.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace lint::testing {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> codes_after(const std::string& line, std::size_t pos) {
  std::vector<std::string> out;
  std::string cur;
  for (std::size_t i = pos; i <= line.size(); ++i) {
    const char c = i < line.size() ? line[i] : ' ';
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      cur += c;
    } else {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
      if (c != ' ' && c != ',' && c != '\t') break;
    }
  }
  return out;
}

void read_file_expectations(const fs::path& file, const std::string& rel, Expectations& out) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  std::uint32_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    for (const char* marker : {"expect-next-line:", "expect-file:", "expect:", "fixture-select:"}) {
      const auto at = line.find(marker);
      if (at == std::string::npos) continue;
      // The marker must be in a comment: '#' (YAML, TOML, Python, shell) somewhere before it.
      if (line.rfind('#', at) == std::string::npos) continue;
      const std::string m = marker;
      const auto codes = codes_after(line, at + m.size());
      for (const std::string& code : codes) {
        if (m == "fixture-select:") out.extra_select.push_back(code);
        else if (m == "expect-file:") out.findings.insert({rel, 0, code});
        else if (m == "expect-next-line:") out.findings.insert({rel, n + 1, code});
        else out.findings.insert({rel, n, code});
      }
      break;
    }
  }
  fs::path sidecar = file;
  sidecar += ".expect";
  std::ifstream side(sidecar);
  while (std::getline(side, line)) {
    std::istringstream ss(line);
    std::uint32_t ln = 0;
    std::string code;
    if (line.starts_with("select ")) {
      while (ss >> code) {
        if (code != "select") out.extra_select.push_back(code);
      }
      continue;
    }
    if (ss >> ln >> code) out.findings.insert({rel, ln, code});
  }
}

}  // namespace

Expectations read_expectations(const fs::path& case_path) {
  Expectations out;
  if (fs::is_directory(case_path)) {
    for (const auto& e : fs::recursive_directory_iterator(case_path)) {
      if (!e.is_regular_file() || e.path().extension() == ".expect") continue;
      read_file_expectations(e.path(), e.path().lexically_relative(case_path).generic_string(), out);
    }
  } else {
    read_file_expectations(case_path, case_path.filename().generic_string(), out);
  }
  return out;
}

std::multiset<Finding> lint_case(const fs::path& case_path, const std::vector<std::string>& codes,
                                 std::vector<rule::Diagnostic>* raw) {
  driver::RunOptions opts;
  opts.paths = {case_path.generic_string()};
  opts.selection.select = codes;
  opts.jobs = 1;
  opts.keep_launches = false;  // as `launchlint check` runs: the launches streamed, launch configs' trees read again
  const driver::RunResult result = driver::run(rules::rule_table(), opts);
  std::multiset<Finding> out;
  const fs::path root = fs::is_directory(case_path) ? case_path : case_path.parent_path();
  for (const rule::Diagnostic& d : result.diagnostics) {
    out.insert({fs::path(d.path).lexically_relative(root).generic_string(), d.region.begin.line, d.code});
  }
  if (raw != nullptr) *raw = result.diagnostics;
  return out;
}

std::string describe(const std::multiset<Finding>& findings) {
  std::string s;
  for (const auto& [file, line, code] : findings) s += "  " + file + ":" + std::to_string(line) + " " + code + "\n";
  return s.empty() ? "  (none)\n" : s;
}

fs::path snapshot_path(std::string_view slug, std::string_view case_name) {
  return fs::path(LAUNCHLINT_SOURCE_DIR) / "tests" / "snapshots" / std::string(slug) /
         (std::string(case_name) + ".snap");
}

namespace {

std::string location(const fs::path& root, const std::string& path, const source::Region& r) {
  std::string rel = fs::path(path).lexically_relative(root).generic_string();
  if (rel.empty()) rel = path;
  if (!r.valid()) return rel;
  return rel + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column) + "-" +
         std::to_string(r.end.line) + ":" + std::to_string(r.end.column);
}

/// One line per message: newlines are written as `\n` so that a snapshot line is always one diagnostic. Paths
/// inside the message are written relative to the case, as locations are, so a snapshot does not depend on
/// where the checkout lives.
std::string one_line(std::string_view text, const fs::path& root) {
  const std::string prefix = root.generic_string() + "/";
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, prefix.size(), prefix) == 0) {
      i += prefix.size() - 1;
      continue;
    }
    if (text[i] == '\n') out += "\\n";
    else out += text[i];
  }
  return out;
}

}  // namespace

std::string render_snapshot(const fs::path& case_path, std::string_view case_label,
                            const std::vector<std::string>& codes, std::vector<rule::Diagnostic> diagnostics) {
  const fs::path root = fs::is_directory(case_path) ? case_path : case_path.parent_path();
  std::stable_sort(diagnostics.begin(), diagnostics.end());
  std::string out = "# " + std::string(case_label) + " --select ";
  for (std::size_t i = 0; i < codes.size(); ++i) out += (i == 0 ? "" : ",") + codes[i];
  out += "\n";
  for (const rule::Diagnostic& d : diagnostics) {
    out += location(root, d.path, d.region) + ": " + d.code + " [" + std::string(rule::to_string(d.severity)) + "] " +
           one_line(d.message, root);
    if (d.suppressed) out += " (suppressed)";
    out += "\n";
    for (const rule::RelatedLocation& rel : d.related) {
      out += "  = " + location(root, rel.path, rel.region) + ": " + one_line(rel.message, root) + "\n";
    }
  }
  if (diagnostics.empty()) out += "(no findings)\n";
  return out;
}

bool update_golden() {
  const char* v = std::getenv("UPDATE_GOLDEN");
  return v != nullptr && std::string_view(v) == "1";
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace lint::testing
