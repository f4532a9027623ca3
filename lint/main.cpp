// launchlint: the command line and the composition root (the only place that knows rules/registry.hpp).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "lint/config/project_config.hpp"
#include "lint/driver/driver.hpp"
#include "lint/memory/budget.hpp"
#include "lint/memory/report.hpp"
#include "lint/report/explain.hpp"
#include "lint/report/reporter.hpp"
#include "rules/registry.hpp"

namespace {

namespace fs = std::filesystem;
using lint::rule::Severity;

constexpr int kExitClean = 0;
constexpr int kExitFindings = 1;
constexpr int kExitError = 2;

const char* const kHelp = R"(launchlint: a static linter for ML training launch configurations

Usage:
  launchlint [OPTIONS] [PATHS...]        lint files and directories (default: .)
  launchlint explain [OPTIONS] PATHS...  print the effective configuration of each launch
                                         (--memory: the per-GPU memory estimate instead)
  launchlint rule CODE                   print a rule's documentation
  launchlint rule --all [--format json]  print every rule
  launchlint - --stdin-filename PATH     lint standard input as PATH

Options:
  --format FMT          text (default), concise, json, sarif, github, junit; repeat with --output for several
  --output FILE         write the preceding --format to FILE instead of standard output
  --select CODES        enable only these codes or prefixes (comma-separated; ALL for every rule)
  --ignore CODES        disable these codes or prefixes
  --extend-select CODES enable these in addition to the selection
  --severity CODE=LEVEL override a rule's severity (error, warning, info)
  --fail-on LEVEL       exit 1 when a finding at or above LEVEL exists: error, warning (default), info, never
  --exit-zero           exit 0 even with findings
  --config FILE         read settings from FILE instead of discovering launchlint.toml / pyproject.toml
  --isolated            ignore every configuration file
  --statistics          print the number of findings per rule instead of the findings
  --show-suppressed     include suppressed findings (marked) in the output
  --quiet               print findings only (no summary line)
  --color WHEN          auto (default), always, never; NO_COLOR disables colour
  --jobs N              files read in parallel (default: all cores)
  --stdin-filename PATH the name of standard input's file (with -)
  --no-gitignore        do not honour .gitignore files
  --gpu-memory SIZE     memory of one GPU (e.g. 80GiB) for MEM001; overrides gpu-memory in launchlint.toml
  --version             print the version
  -h, --help            print this help

Exit status: 0 no findings at or above the --fail-on level, 1 findings, 2 usage or configuration error.
)";

std::vector<std::string> split_codes(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s + ",") {
    if (c == ',' || c == ' ') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

struct Output {
  lint::report::Format format = lint::report::Format::Text;
  std::string path;  // empty: stdout
};

struct Cli {
  std::string command = "check";
  std::vector<std::string> paths;
  std::vector<Output> outputs;
  std::optional<std::vector<std::string>> select;
  std::vector<std::string> ignore;
  std::vector<std::string> extend_select;
  std::map<std::string, Severity> severity;
  std::string fail_on;
  bool exit_zero = false;
  std::string config;
  bool isolated = false;
  bool statistics = false;
  bool show_suppressed = false;
  bool quiet = false;
  std::string color = "auto";
  unsigned jobs = 0;
  std::string stdin_filename;
  bool gitignore = true;
  bool all_rules = false;
  bool format_json = false;
  bool memory = false;  // explain --memory
};

int usage_error(const std::string& msg) {
  std::cerr << "launchlint: error: " << msg << "\nRun 'launchlint --help' for usage.\n";
  return kExitError;
}

bool known_code_or_prefix(const lint::rule::RuleTable& table, const std::string& code) {
  if (code == "ALL") return true;
  for (const auto& r : table) {
    if (r.code.starts_with(code)) return true;
  }
  return false;
}

int print_rule(const lint::rule::RuleTable& table, const Cli& cli) {
  if (cli.all_rules) {
    if (cli.format_json) {
      std::cout << "[";
      for (std::size_t i = 0; i < table.size(); ++i) {
        const auto& r = table[i];
        std::cout << (i ? ",\n " : "\n ") << "{\"code\": \"" << r.code << "\", \"slug\": \"" << r.slug
                  << "\", \"area\": \"" << r.area << "\", \"severity\": \"" << lint::rule::to_string(r.default_severity)
                  << "\", \"summary\": \"" << lint::report::json_escape(r.summary()) << "\", \"doc\": \""
                  << lint::report::json_escape(r.doc) << "\"}";
      }
      std::cout << "\n]\n";
    } else {
      for (const auto& r : table) {
        std::cout << r.code << "  " << r.slug << "  [" << lint::rule::to_string(r.default_severity) << "]  "
                  << r.summary() << "\n";
      }
    }
    return kExitClean;
  }
  if (cli.paths.empty()) return usage_error("rule needs a CODE or --all");
  int rc = kExitClean;
  for (const std::string& code : cli.paths) {
    bool found = false;
    for (const auto& r : table) {
      if (r.code == code || r.slug == code) {
        std::cout << r.doc;
        if (!r.doc.ends_with("\n")) std::cout << "\n";
        found = true;
      }
    }
    if (!found) {
      std::cerr << "launchlint: error: unknown rule '" << code << "'\n";
      rc = kExitError;
    }
  }
  return rc;
}

/// Where the project config search starts: the first path's folder (the working directory by default).
fs::path config_search_start(const std::vector<std::string>& paths) {
  if (paths.empty()) return fs::path(".");
  const fs::path first(paths.front());
  if (fs::is_directory(first)) return first;
  return first.has_parent_path() ? first.parent_path() : fs::path(".");
}

bool use_color(const std::string& when, const std::string& output_path) {
  if (when == "always") return true;
  if (when == "never") return false;
  if (const char* nc = std::getenv("NO_COLOR"); nc != nullptr && *nc != '\0') return false;
  return output_path.empty() && isatty(STDOUT_FILENO) != 0;
}

}  // namespace

int main(int argc, char** argv) {
  const lint::rule::RuleTable& table = lint::rules::rule_table();
  Cli cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  bool reading_stdin = false;
  std::size_t i = 0;
  if (!args.empty() && (args[0] == "explain" || args[0] == "rule" || args[0] == "check")) {
    cli.command = args[0];
    i = 1;
  }
  auto need = [&]() -> std::optional<std::string> {
    if (i + 1 >= args.size()) return std::nullopt;
    return args[++i];
  };
  for (; i < args.size(); ++i) {
    std::string a = args[i];
    std::string inline_value;
    bool has_inline = false;
    if (a.starts_with("--") && a.find('=') != std::string::npos && a != "--severity") {
      inline_value = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
      has_inline = true;
    }
    auto value = [&]() -> std::optional<std::string> {
      if (has_inline) return inline_value;
      return need();
    };
    if (a == "-h" || a == "--help") {
      std::cout << kHelp;
      return kExitClean;
    }
    if (a == "--version") {
      std::cout << "launchlint " << LAUNCHLINT_VERSION << "\n";
      return kExitClean;
    }
    if (a == "--format") {
      auto v = value();
      if (!v) return usage_error("--format needs a value");
      if (cli.command == "rule") {
        cli.format_json = *v == "json";
        continue;
      }
      auto f = lint::report::parse_format(*v);
      if (!f && !(cli.command == "explain" && (*v == "json" || *v == "text")))
        return usage_error("unknown format '" + *v + "' (text, concise, json, sarif, github, junit)");
      if (cli.command == "explain") cli.format_json = *v == "json";
      cli.outputs.push_back(Output{f.value_or(lint::report::Format::Text), ""});
    } else if (a == "--output" || a == "-o") {
      auto v = value();
      if (!v) return usage_error("--output needs a file");
      if (cli.outputs.empty()) cli.outputs.push_back(Output{});
      cli.outputs.back().path = *v;
    } else if (a == "--select") {
      auto v = value();
      if (!v) return usage_error("--select needs codes");
      cli.select = split_codes(*v);
    } else if (a == "--ignore") {
      auto v = value();
      if (!v) return usage_error("--ignore needs codes");
      for (auto& c : split_codes(*v)) cli.ignore.push_back(c);
    } else if (a == "--extend-select") {
      auto v = value();
      if (!v) return usage_error("--extend-select needs codes");
      for (auto& c : split_codes(*v)) cli.extend_select.push_back(c);
    } else if (a == "--severity") {
      auto v = need();
      if (!v || v->find('=') == std::string::npos) return usage_error("--severity needs CODE=LEVEL");
      auto sev = lint::rule::parse_severity(v->substr(v->find('=') + 1));
      if (!sev) return usage_error("--severity level must be error, warning or info");
      cli.severity[v->substr(0, v->find('='))] = *sev;
    } else if (a == "--fail-on") {
      auto v = value();
      if (!v || (*v != "error" && *v != "warning" && *v != "info" && *v != "never"))
        return usage_error("--fail-on must be error, warning, info or never");
      cli.fail_on = *v;
    } else if (a == "--exit-zero") {
      cli.exit_zero = true;
    } else if (a == "--config") {
      auto v = value();
      if (!v) return usage_error("--config needs a file");
      cli.config = *v;
    } else if (a == "--isolated") {
      cli.isolated = true;
    } else if (a == "--statistics") {
      cli.statistics = true;
    } else if (a == "--show-suppressed") {
      cli.show_suppressed = true;
    } else if (a == "--memory") {
      cli.memory = true;
    } else if (a == "--gpu-memory") {
      auto v = value();
      auto bytes = v ? lint::memory::parse_memory_size(*v) : std::nullopt;
      if (!bytes) return usage_error("--gpu-memory needs a size such as 80GiB");
      lint::memory::set_gpu_memory_override(bytes);
    } else if (a == "--quiet" || a == "-q") {
      cli.quiet = true;
    } else if (a == "--color") {
      auto v = value();
      if (!v || (*v != "auto" && *v != "always" && *v != "never")) return usage_error("--color must be auto, always or never");
      cli.color = *v;
    } else if (a == "--jobs" || a == "-j") {
      auto v = value();
      if (!v) return usage_error("--jobs needs a number");
      try {
        cli.jobs = static_cast<unsigned>(std::stoul(*v));
      } catch (...) {
        return usage_error("--jobs needs a number");
      }
    } else if (a == "--stdin-filename") {
      auto v = value();
      if (!v) return usage_error("--stdin-filename needs a path");
      cli.stdin_filename = *v;
    } else if (a == "--no-gitignore") {
      cli.gitignore = false;
    } else if (a == "--all") {
      cli.all_rules = true;
    } else if (a == "-") {
      reading_stdin = true;
    } else if (a.starts_with("-") && a.size() > 1) {
      return usage_error("unknown option '" + a + "'");
    } else {
      cli.paths.push_back(a);
    }
  }

  if (cli.command == "rule") return print_rule(table, cli);

  for (const auto* list : {&cli.ignore, &cli.extend_select}) {
    for (const auto& c : *list) {
      if (!known_code_or_prefix(table, c)) return usage_error("unknown rule code or prefix '" + c + "'");
    }
  }
  if (cli.select) {
    for (const auto& c : *cli.select) {
      if (!known_code_or_prefix(table, c)) return usage_error("unknown rule code or prefix '" + c + "'");
    }
  }

  lint::driver::RunOptions opts;
  std::optional<lint::config::ProjectConfig> project;
  if (!cli.isolated) {
    std::string error;
    if (!cli.config.empty()) {
      project = lint::config::load_config(cli.config, error);
      if (!project && error.empty()) error = cli.config + ": no [tool.launchlint] table";
    } else {
      project = lint::config::discover_config(config_search_start(cli.paths).string(), error);
    }
    if (!error.empty()) {
      std::cerr << "launchlint: configuration error: " << error << "\n";
      return kExitError;
    }
  }
  std::string fail_on = "warning";
  if (project) {
    if (project->gpu_memory && !lint::memory::parse_memory_size(*project->gpu_memory)) {
      std::cerr << "launchlint: configuration error: " << project->path << ": gpu-memory '" << *project->gpu_memory
                << "' is not a size such as \"80GiB\"\n";
      return kExitError;
    }
    if (project->select) opts.selection.select = *project->select;
    opts.selection.ignore = project->ignore;
    opts.selection.extend_select = project->extend_select;
    opts.selection.severity = project->severity;
    for (const auto& g : project->exclude) {
      opts.exclude.push_back(g);
      if (project->base_dir != "." && !project->base_dir.empty()) opts.exclude.push_back(project->base_dir + "/" + g);
    }
    opts.per_file_ignores = project->per_file_ignores;
    opts.declared_launches = project->launches;
    if (project->fail_on) fail_on = *project->fail_on;
    for (const auto* list : {&opts.selection.ignore, &opts.selection.extend_select}) {
      for (const auto& c : *list) {
        if (!known_code_or_prefix(table, c)) {
          std::cerr << "launchlint: configuration error: " << project->path << ": unknown rule code or prefix '" << c
                    << "'\n";
          return kExitError;
        }
      }
    }
  }
  if (cli.select) opts.selection.select = *cli.select;
  for (auto& c : cli.ignore) opts.selection.ignore.push_back(c);
  for (auto& c : cli.extend_select) opts.selection.extend_select.push_back(c);
  for (auto& [k, v] : cli.severity) opts.selection.severity[k] = v;
  if (!cli.fail_on.empty()) fail_on = cli.fail_on;
  opts.jobs = cli.jobs;
  opts.show_suppressed = cli.show_suppressed;
  opts.respect_gitignore = cli.gitignore;
  if (reading_stdin) {
    opts.read_stdin = true;
    std::stringstream ss;
    ss << std::cin.rdbuf();
    opts.stdin_text = ss.str();
    if (!cli.stdin_filename.empty()) opts.stdin_filename = cli.stdin_filename;
  } else if (!cli.paths.empty()) {
    opts.paths = cli.paths;
  }

  lint::driver::RunResult result = lint::driver::run(table, opts);

  if (cli.command == "explain") {
    std::vector<const lint::model::Launch*> launches;
    for (const auto& l : result.launches) launches.push_back(&l);
    std::string out_path = cli.outputs.empty() ? "" : cli.outputs.back().path;
    std::ofstream file;
    if (!out_path.empty()) file.open(out_path);
    std::ostream& out = out_path.empty() ? std::cout : file;
    if (cli.memory) cli.format_json ? lint::memory::write_memory_json(out, launches) : lint::memory::write_memory_text(out, launches);
    else if (cli.format_json) lint::report::write_explain_json(out, launches);
    else lint::report::write_explain_text(out, launches, use_color(cli.color, out_path));
    return kExitClean;
  }

  std::string srcroot = fs::current_path().generic_string();
  if (!srcroot.ends_with("/")) srcroot += "/";
  if (cli.outputs.empty()) cli.outputs.push_back(Output{});
  for (const Output& o : cli.outputs) {
    lint::report::ReportInput in;
    in.diagnostics = &result.diagnostics;
    in.rules = &table;
    in.sources = &result.sources;
    in.srcroot = srcroot;
    in.color = use_color(cli.color, o.path);
    in.files_checked = result.files_checked;
    std::ofstream file;
    if (!o.path.empty()) {
      file.open(o.path, std::ios::binary);
      if (!file) {
        std::cerr << "launchlint: error: cannot write " << o.path << "\n";
        return kExitError;
      }
    }
    std::ostream& out = o.path.empty() ? std::cout : file;
    if (cli.statistics && o.format == lint::report::Format::Text) {
      std::map<std::string, std::size_t> counts;
      for (const auto& d : result.diagnostics) ++counts[d.code];
      for (const auto& r : table) {
        auto it = counts.find(std::string(r.code));
        if (it != counts.end()) out << it->second << "\t" << r.code << "\t" << r.slug << "\n";
      }
      continue;
    }
    if (cli.quiet && (o.format == lint::report::Format::Text || o.format == lint::report::Format::Concise)) {
      std::ostringstream buf;
      lint::report::write(o.format, buf, in);
      // drop the trailing summary line
      std::string s = buf.str();
      const auto pos = s.rfind("\n\n");
      if (pos != std::string::npos) s = s.substr(0, pos + 1);
      else if (s.starts_with("All checks passed")) s.clear();
      out << s;
    } else {
      lint::report::write(o.format, out, in);
    }
  }

  if (cli.exit_zero || fail_on == "never") return kExitClean;
  const Severity threshold = fail_on == "error" ? Severity::Error : fail_on == "info" ? Severity::Info : Severity::Warning;
  for (const auto& d : result.diagnostics) {
    if (!d.suppressed && d.severity >= threshold) return kExitFindings;
  }
  return kExitClean;
}
