// launchlint: the command line and the composition root (the only place that knows rules/registry.hpp).
// Arguments are parsed by CLI11; every misuse ends with exit status 2 and a message that says what to do.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lint/config/project_config.hpp"
#include "lint/config/project_root.hpp"
#include "lint/config/suggest.hpp"
#include "lint/driver/cache.hpp"
#include "lint/driver/driver.hpp"
#include "lint/fix/cli.hpp"
#include "lint/memory/budget.hpp"
#include "lint/memory/report.hpp"
#include "lint/parse/tree_sitter_support.hpp"
#include "lint/report/explain.hpp"
#include "lint/report/output_file.hpp"
#include "lint/report/reporter.hpp"
#include "lint/server/server.hpp"
#include "lint/source/read_file.hpp"
#include "rules/registry.hpp"

#ifndef LAUNCHLINT_DOCS_URL
#define LAUNCHLINT_DOCS_URL ""
#endif

namespace {

namespace fs = std::filesystem;
using lint::config::did_you_mean;
using lint::config::shown_value;
using lint::report::Format;
using lint::rule::Severity;

constexpr int kExitClean = 0;
constexpr int kExitFindings = 1;
constexpr int kExitError = 2;

const std::vector<std::string> kFailOn = {"error", "warning", "info", "never"};
const std::vector<std::string> kLevels = {"error", "warning", "info"};
const std::vector<std::string> kColor = {"auto", "always", "never"};
const std::vector<std::string> kCommands = {"check", "explain", "rule", "server"};

const char* const kFooter = R"(Examples:
  launchlint .                                  lint the project in the working directory
  launchlint --format sarif -o out.sarif .      SARIF for GitHub code scanning (also gitlab, github, junit)
  launchlint explain examples/7b-lora-shard-grad-op
  launchlint rule FSDP001                       a rule's page; `rule --all` lists every rule
  launchlint - --stdin-filename accelerate.yaml < accelerate.yaml

Environment: LAUNCHLINT_DOCS_URL, where the rule pages are published (SARIF helpUri, JSON url; none by default).
Colour: --color, then FORCE_COLOR / CLICOLOR_FORCE (set, not 0), NO_COLOR, TERM=dumb, then whether stdout is a
terminal.
Exit status: 0 no findings at or above the --fail-on level, 1 findings, 2 usage, configuration or write error.)";

/// A usage error: the message on stderr, exit status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

struct Cli {
  std::string command = "check";
  std::vector<std::string> paths;
  std::vector<std::pair<std::string, std::string>> outputs;  // (format name, file or "")
  bool select_given = false;
  std::vector<std::string> select;
  std::vector<std::string> ignore;
  std::vector<std::string> extend_select;
  std::vector<std::string> severity;
  std::string fail_on;
  bool exit_zero = false;
  std::string config;
  bool isolated = false;
  std::vector<std::string> allow_outside;  ///< files or folders outside the project that launches may read
  bool statistics = false;
  bool show_suppressed = false;
  bool quiet = false;
  std::string color = "auto";
  unsigned jobs = 0;
  std::string stdin_filename;
  bool stdin_filename_given = false;
  bool gitignore = true;
  bool force_exclude = false;
  bool all_rules = false;
  bool read_stdin = false;
  bool memory = false;                       ///< explain --memory
  lint::fix::CliFlags fix;                   ///< --fix, --unsafe-fixes, --diff, --show-fixes (lint/fix/cli.hpp)
  std::string gpu_memory;                    ///< --gpu-memory SIZE (MEM001)
  bool no_cache = false;                     ///< --no-cache
  std::string cache_dir;                     ///< --cache-dir DIR
  std::vector<std::string> target_versions;  ///< --target-version PKG=VER
  std::size_t first_after_dashes = 0;        ///< paths from this index on followed `--` (never a command)
};

/// Rule codes and prefixes, case-insensitively: "fsdp001" is FSDP001. Throws UsageError for an unknown one.
class Codes {
 public:
  explicit Codes(const lint::rule::RuleTable& table) : table_(table) {
    for (const auto& r : table) words_.emplace_back(r.code);
  }

  [[nodiscard]] std::string canonical(const std::string& code, const std::string& where) const {
    const std::string u = upper(code);
    if (u == "ALL") return u;
    if (!u.empty()) {
      for (const auto& r : table_) {
        if (r.code.starts_with(u)) return u;
      }
    }
    throw UsageError(where + "unknown rule code or prefix '" + shown_value(code) + "'" + did_you_mean(code, words_) +
                     "; `launchlint rule --all` lists them");
  }

  [[nodiscard]] std::vector<std::string> canonical(const std::vector<std::string>& codes,
                                                   const std::string& where) const {
    std::vector<std::string> out;
    for (const auto& c : codes) out.push_back(canonical(c, where));
    return out;
  }

  /// The rules `word` names: a code (any case) or a slug.
  [[nodiscard]] std::vector<const lint::rule::RuleInfo*> find(const std::string& word) const {
    std::vector<const lint::rule::RuleInfo*> out;
    for (const auto& r : table_) {
      if (r.code == upper(word) || r.slug == word) out.push_back(&r);
    }
    return out;
  }

  [[nodiscard]] std::vector<std::string> words_and_slugs() const {
    std::vector<std::string> out = words_;
    for (const auto& r : table_) out.emplace_back(r.slug);
    return out;
  }

 private:
  const lint::rule::RuleTable& table_;
  std::vector<std::string> words_;
};

std::vector<std::string> split_codes(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const std::string& v : values) {
    std::string cur;
    for (char c : v + ",") {
      if (c == ',' || c == ' ') {
        if (!cur.empty()) out.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
  }
  return out;
}

std::string one_of(const std::string& what, const std::string& value, const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return value;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  throw UsageError(what + " must be one of " + list + ", not '" + shown_value(value) + "'" +
                   did_you_mean(value, allowed));
}

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0';
}

/// --color, then FORCE_COLOR / CLICOLOR_FORCE (force-color.org, bixense.com/clicolors), NO_COLOR (no-color.org),
/// TERM=dumb, then whether standard output is a terminal.
bool use_color(const std::string& when, const std::string& output_path) {
  if (when == "always") return true;
  if (when == "never") return false;
  for (const char* force : {"FORCE_COLOR", "CLICOLOR_FORCE"}) {
    if (env_set(force) && std::string(std::getenv(force)) != "0") return true;
  }
  if (env_set("NO_COLOR")) return false;
  if (const char* term = std::getenv("TERM"); term != nullptr && std::string(term) == "dumb") return false;
  return output_path.empty() && isatty(STDOUT_FILENO) != 0;
}

/// Parses the command line. Throws UsageError; returns an exit status when the parser already answered (help,
/// version).
std::optional<int> parse(int argc, char** argv, Cli& cli) {
  CLI::App app("launchlint: a static linter for ML training launch configurations", "launchlint");
  app.allow_extras();
  app.footer(kFooter);
  app.set_version_flag("--version", std::string("launchlint ") + LAUNCHLINT_VERSION, "print the version");
  app.set_help_flag("-h,--help", "print this help");
  std::vector<std::string> formats;
  std::vector<std::string> outputs;
  auto* format_opt = app.add_option("--format", formats,
                                    "text (default), concise, json, sarif, github, gitlab, junit; with --output "
                                    "after each, several at once")
                         ->type_name("FMT")
                         ->allow_extra_args(false);
  auto* output_opt = app.add_option("-o,--output", outputs, "write the preceding --format to FILE")
                         ->type_name("FILE")
                         ->allow_extra_args(false);
  auto* select_opt = app.add_option("--select", cli.select, "enable only these codes or prefixes (ALL: every rule)")
                         ->type_name("CODES")
                         ->allow_extra_args(false);
  app.add_option("--ignore", cli.ignore, "disable these codes or prefixes")
      ->type_name("CODES")
      ->allow_extra_args(false);
  app.add_option("--extend-select", cli.extend_select, "enable these in addition to the selection")
      ->type_name("CODES")
      ->allow_extra_args(false);
  app.add_option("--severity", cli.severity, "override a rule's severity (error, warning, info)")
      ->type_name("CODE=LEVEL")
      ->allow_extra_args(false);
  app.add_option("--fail-on", cli.fail_on, "exit 1 for a finding at or above: error, warning (default), info, never")
      ->type_name("LEVEL");
  app.add_flag("--exit-zero", cli.exit_zero, "exit 0 even with findings");
  app.add_option("--config", cli.config, "read settings from FILE instead of launchlint.toml / pyproject.toml")
      ->type_name("FILE");
  app.add_flag("--isolated", cli.isolated, "ignore every configuration file");
  app.add_option("--allow-outside", cli.allow_outside,
                 "let launches read PATH (a file or folder) outside the linted roots and their repository")
      ->type_name("PATH")
      ->allow_extra_args(false);
  app.add_flag("--statistics", cli.statistics, "print the number of findings per rule (text or json)");
  app.add_flag("--show-suppressed", cli.show_suppressed, "include suppressed findings (marked)");
  app.add_flag("-q,--quiet", cli.quiet, "print findings only (no summary line)");
  app.add_option("--color", cli.color, "auto (default), always, never")->type_name("WHEN");
  app.add_option("-j,--jobs", cli.jobs, "files read in parallel (default: all cores)")->type_name("N");
  auto* stdin_name =
      app.add_option("--stdin-filename", cli.stdin_filename, "the name of standard input's file (with -)")
          ->type_name("PATH");
  bool no_gitignore = false;
  app.add_flag("--no-gitignore", no_gitignore, "do not honour .gitignore files");
  app.add_option("--gpu-memory", cli.gpu_memory,
                 "memory of one GPU (e.g. 80GiB) for MEM001; overrides gpu-memory in launchlint.toml")
      ->type_name("SIZE");
  app.add_flag("--no-cache", cli.no_cache, "neither read nor write the result cache (.launchlint_cache/)");
  app.add_option("--cache-dir", cli.cache_dir,
                 "keep the result cache in DIR (default: .launchlint_cache at the project root)")
      ->type_name("DIR");
  app.add_option("--target-version", cli.target_versions,
                 "assume this version of a library (torch=2.4, transformers=\">=4.46,<4.50\"); beats target-versions "
                 "in launchlint.toml and the project's pins")
      ->type_name("PKG=VER")
      ->allow_extra_args(false);
  app.add_flag("--fix", cli.fix.fix, "apply safe fixes and write the files (atomically)");
  app.add_flag("--unsafe-fixes", cli.fix.unsafe, "with --fix or --diff, apply unsafe fixes too");
  app.add_flag("--diff", cli.fix.diff, "print what --fix would change as a unified diff; change nothing");
  app.add_flag("--show-fixes", cli.fix.show_fixes, "list the fixes applied or available after the findings");
  app.add_flag("--force-exclude", cli.force_exclude,
               "apply exclude / extend-exclude to files named on the command line too (pre-commit)");
  std::vector<std::string> top_paths;
  app.add_option("paths", top_paths, "files and directories to lint (default: .; -: standard input)")
      ->type_name("PATH");

  auto* check = app.add_subcommand("check", "lint files and directories (the default)")->fallthrough();
  std::vector<std::string> check_paths;
  check->add_option("paths", check_paths, "files and directories")->type_name("PATH");
  auto* explain = app.add_subcommand("explain", "print the effective configuration of each launch")->fallthrough();
  std::vector<std::string> explain_paths;
  explain->add_option("paths", explain_paths, "files and directories")->type_name("PATH");
  explain->add_flag("--memory", cli.memory, "print the per-GPU memory estimate of each launch instead");
  auto* rule = app.add_subcommand("rule", "print a rule's documentation")->fallthrough();
  std::vector<std::string> codes;
  rule->add_option("codes", codes, "rule codes (any case) or slugs")->type_name("CODE");
  rule->add_flag("--all", cli.all_rules, "list every rule");
  app.require_subcommand(0, 1);

  // A repeated single-valued option: the last one wins (so a wrapper's defaults can be overridden).
  for (const char* name :
       {"--fail-on", "--config", "--color", "--jobs", "--stdin-filename", "--exit-zero", "--isolated", "--statistics",
        "--show-suppressed", "--quiet", "--no-gitignore", "--force-exclude", "--no-cache", "--cache-dir"})
    app.get_option(name)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  // `--` ends the options, as in every POSIX command: what follows are paths (or rule codes), even one that starts
  // with `-`. CLI11 would keep the `--` itself among the arguments it did not recognise.
  std::vector<std::string> after_dashes;
  int parsed_argc = argc;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--") {
      after_dashes.assign(argv + i + 1, argv + argc);
      parsed_argc = i;
      break;
    }
  }
  try {
    app.parse(parsed_argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    throw UsageError(e.what());
  }

  // Options CLI11 did not recognise: name the closest real one.
  for (const std::string& extra : app.remaining(true)) {
    if (extra.size() < 2 || extra[0] != '-') continue;
    const std::string name = extra.substr(0, extra.find('='));
    std::vector<std::string> known;
    for (const CLI::App* a : {static_cast<const CLI::App*>(&app), static_cast<const CLI::App*>(rule)}) {
      for (const CLI::Option* o : a->get_options()) {
        for (const std::string& l : o->get_lnames()) known.push_back("--" + l);
        for (const std::string& s : o->get_snames()) known.push_back("-" + s);
      }
    }
    throw UsageError("unknown option '" + shown_value(name) + "'" + did_you_mean(name, known));
  }
  for (const std::string& extra : app.remaining(true))
    throw UsageError("unexpected argument '" + shown_value(extra) + "'");

  if (explain->parsed()) cli.command = "explain";
  if (rule->parsed()) cli.command = "rule";
  cli.paths = top_paths;
  for (const auto* list : {&check_paths, &explain_paths, &codes})
    cli.paths.insert(cli.paths.end(), list->begin(), list->end());
  cli.first_after_dashes = cli.paths.size();
  cli.paths.insert(cli.paths.end(), after_dashes.begin(), after_dashes.end());
  cli.gitignore = !no_gitignore;
  cli.select_given = select_opt->count() > 0;
  cli.stdin_filename_given = stdin_name->count() > 0;

  // --format / --output pairs, in the order they were given.
  std::size_t fi = 0;
  std::size_t oi = 0;
  for (const CLI::Option* o : app.parse_order()) {
    if (o == format_opt && fi < formats.size()) cli.outputs.emplace_back(formats[fi++], "");
    if (o == output_opt && oi < outputs.size()) {
      // An empty name would mean standard output (the pairs' "no file"): say so instead of writing there.
      if (outputs[oi].empty()) throw UsageError("--output needs a file name, not an empty one");
      if (cli.outputs.empty()) cli.outputs.emplace_back("text", "");
      cli.outputs.back().second = outputs[oi++];
    }
  }
  if (cli.outputs.empty()) cli.outputs.emplace_back("text", "");

  const auto dash = std::find(cli.paths.begin(), cli.paths.end(), "-");
  if (dash != cli.paths.end()) {
    cli.paths.erase(dash);
    cli.read_stdin = true;
    if (!cli.paths.empty()) throw UsageError("'-' reads standard input: give no other paths with it");
    if (!cli.stdin_filename_given)
      throw UsageError(
          "standard input needs a name to be recognised: add --stdin-filename PATH (e.g. accelerate.yaml, train.py)");
  } else if (cli.stdin_filename_given) {
    throw UsageError("--stdin-filename names standard input: add '-' to read it");
  }
  if (cli.isolated && !cli.config.empty())
    throw UsageError("--isolated ignores every configuration file: drop --config or --isolated");
  if (!cli.fail_on.empty()) one_of("--fail-on", cli.fail_on, kFailOn);
  one_of("--color", cli.color, kColor);
  return std::nullopt;
}

/// Where the project config search starts: the first path's folder (the working directory by default).
fs::path config_search_start(const std::vector<std::string>& paths) {
  if (paths.empty()) return fs::path(".");
  const fs::path first(paths.front());
  if (fs::is_directory(first)) return first;
  return first.has_parent_path() ? first.parent_path() : fs::path(".");
}

Format format_for(const Cli& cli, const std::string& name) {
  auto f = lint::report::parse_format(name);
  if (!f) {
    throw UsageError("unknown format '" + shown_value(name) + "' (text, concise, json, sarif, github, gitlab, junit)" +
                     did_you_mean(name, lint::report::format_names()));
  }
  const bool listing = cli.command != "check" || cli.statistics;
  if (listing && !lint::report::listing_supports(*f)) {
    const std::string what = cli.command == "check" ? "--statistics" : cli.command;
    throw UsageError(what + " writes text or json, not " + name);
  }
  return *f;
}

int print_rules(const lint::rule::RuleTable& table, const Codes& codes, const Cli& cli) {
  const Format format = format_for(cli, cli.outputs.front().first);
  std::vector<const lint::rule::RuleInfo*> rules;
  if (cli.all_rules) {
    if (!cli.paths.empty()) throw UsageError("rule: give CODE... or --all, not both");
    for (const auto& r : table) rules.push_back(&r);
  } else {
    if (cli.paths.empty()) throw UsageError("rule needs a CODE (e.g. `launchlint rule FSDP001`) or --all");
    for (const std::string& code : cli.paths) {
      auto found = codes.find(code);
      if (found.empty())
        throw UsageError("unknown rule '" + shown_value(code) + "'" + did_you_mean(code, codes.words_and_slugs()) +
                         "; `launchlint rule --all` lists them");
      rules.insert(rules.end(), found.begin(), found.end());
    }
  }
  lint::report::write_rules(format, std::cout, rules, !cli.all_rules);
  return kExitClean;
}

std::string normal(const std::string& p) {
  std::string s = fs::path(p).lexically_normal().generic_string();
  if (s.starts_with("./")) s.erase(0, 2);
  return s;
}

/// The driver's exclude test for a named file: a glob on the whole path, or a slash-less pattern on any component.
bool excluded(const std::vector<std::string>& exclude, const std::string& path) {
  const std::string rel = normal(path);
  for (const std::string& g : exclude) {
    if (lint::driver::glob_match(g, rel)) return true;
    if (g.find('/') != std::string::npos) continue;
    std::string_view rest = rel;
    while (true) {
      const auto slash = rest.find('/');
      if (lint::driver::glob_match(g, rest.substr(0, slash))) return true;
      if (slash == std::string_view::npos) break;
      rest.remove_prefix(slash + 1);
    }
  }
  return false;
}

/// Never silent: a run that found no launch file says so, and a named file launchlint does not know is named.
void report_unknown_inputs(const Cli& cli, const lint::driver::RunResult& result, const std::string& shown_paths) {
  std::map<std::string, const lint::model::Document*> by_path;
  // A file with findings was checked (a CI workflow's launch steps), whatever its kind.
  std::set<std::string> with_findings;
  for (const auto& d : result.diagnostics) with_findings.insert(normal(d.path));
  bool any_known = !with_findings.empty();
  for (const auto& d : result.documents) {
    by_path[d->path()] = d.get();
    any_known |= d->kind != lint::model::DocKind::Unknown || d->read_error.has_value();
  }
  std::error_code ec;
  std::vector<std::string> named = cli.paths;
  if (cli.read_stdin) named = {cli.stdin_filename};
  std::size_t told = 0;
  for (const std::string& p : named) {
    if (!cli.read_stdin && !fs::is_regular_file(p, ec)) continue;
    const std::string name = fs::path(p).filename().string();
    if (name == "launchlint.toml" || name == ".launchlint.toml" || name == "pyproject.toml") {
      ++told;  // launchlint's own configuration
      continue;
    }
    auto it = by_path.find(cli.read_stdin ? p : normal(p));
    if (it == by_path.end() || it->second->kind != lint::model::DocKind::Unknown || it->second->read_error ||
        with_findings.count(normal(p)) != 0)
      continue;
    std::cerr << "launchlint: info: " << p
              << " is not a launch file launchlint knows (accelerate, Trainer FSDP, DeepSpeed, torchtitan, axolotl or "
                 "LLaMA-Factory config, training script, launch script): nothing to check in it\n";
    ++told;
  }
  if (!any_known && (named.empty() || told < named.size())) {
    std::cerr << "launchlint: warning: no launch file found in " << shown_paths
              << " (`launchlint rule --all` lists what is checked)\n";
  }
}

/// Writes a finished report to `path` (standard output when empty); false, with the reason on stderr, on failure.
bool emit(const std::string& path, const std::string& text) {
  if (path.empty()) std::cout.flush();  // what was printed before (--diff, --fix messages) comes first
  const std::string why =
      path.empty() ? lint::report::write_standard_output(text) : lint::report::write_output_file(path, text);
  if (why.empty()) return true;
  std::cerr << "launchlint: error: " << lint::config::bounded_message(why) << "\n";
  return false;
}

/// Exit 2 when an --output names one of the files just linted (writing it would destroy the input).
int refuse_overwriting_inputs(const std::vector<std::pair<Format, std::string>>& outputs,
                              const lint::driver::RunResult& result) {
  std::vector<std::string> inputs;
  for (const auto& [path, source] : result.sources) inputs.emplace_back(path);
  for (std::size_t i = 0; i < result.quiet.size(); ++i) inputs.emplace_back(result.quiet[i]);
  for (const auto& [format, path] : outputs) {
    if (path.empty()) continue;
    if (const std::string input = lint::report::overwritten_input(path, inputs); !input.empty()) {
      std::cerr << "launchlint: error: --output " << path << " would overwrite the linted file " << input << "\n";
      return kExitError;
    }
  }
  return 0;
}

int run(int argc, char** argv) {
  const lint::rule::RuleTable& table = lint::rules::rule_table();
  const Codes codes(table);
  Cli cli;
  if (auto answered = parse(argc, argv, cli)) return *answered;

  if (cli.command == "rule") return print_rules(table, codes, cli);

  std::vector<std::pair<Format, std::string>> outputs;
  for (const auto& [name, path] : cli.outputs) outputs.emplace_back(format_for(cli, name), path);
  if (cli.command == "explain" || cli.statistics) {
    if (outputs.size() > 1)
      throw UsageError(std::string(cli.statistics ? "--statistics" : "explain") + " writes one format");
  }
  if (!cli.gpu_memory.empty()) {
    const auto bytes = lint::memory::parse_memory_size(cli.gpu_memory);
    if (!bytes)
      throw UsageError(
          "--gpu-memory needs the memory of one GPU with its unit, such as 80GiB (at least 1 GiB, at most 64 TiB), not "
          "'" +
          shown_value(cli.gpu_memory) + "'");
    lint::memory::set_gpu_memory_override(bytes);
  }
  if (cli.command == "explain") {
    if (cli.read_stdin) throw UsageError("explain reads files, not standard input");
    if (cli.paths.empty())
      throw UsageError("explain needs PATHS (e.g. `launchlint explain examples/7b-lora-shard-grad-op`)");
  }
  std::error_code ec;
  for (const std::string& p : cli.paths) {
    if (fs::exists(p, ec)) continue;
    if (cli.command == "explain") throw UsageError("explain: no such file or directory: " + shown_value(p));
    // `launchlint expalin x`: a misspelt command, not a path.
    if (&p == &cli.paths.front() && cli.first_after_dashes > 0) {
      if (auto c = lint::config::closest(p, kCommands))
        throw UsageError("no such file or directory: " + shown_value(p) + " (did you mean the command '" + *c + "'?)");
    }
  }

  const auto select = split_codes(cli.select);
  const auto ignore = codes.canonical(split_codes(cli.ignore), "--ignore: ");
  const auto extend_select = codes.canonical(split_codes(cli.extend_select), "--extend-select: ");
  const auto selected = codes.canonical(select, "--select: ");
  std::map<std::string, Severity> severity;
  for (const std::string& s : cli.severity) {
    const auto eq = s.find('=');
    if (eq == std::string::npos) throw UsageError("--severity needs CODE=LEVEL (e.g. FSDP006=error), not '" + shown_value(s) + "'");
    const std::string level = one_of("--severity level", s.substr(eq + 1), kLevels);
    severity[codes.canonical(s.substr(0, eq), "--severity: ")] = *lint::rule::parse_severity(level);
  }

  lint::driver::RunOptions opts;
  std::optional<lint::config::ProjectConfig> project;
  if (!cli.isolated) {
    std::string error;
    if (!cli.config.empty()) {
      project = lint::config::load_config(cli.config, error);
      if (!project && error.empty()) error = cli.config + ": no [tool.launchlint] table";
    } else {
      const fs::path start =
          cli.read_stdin ? config_search_start({cli.stdin_filename}) : config_search_start(cli.paths);
      project = lint::config::discover_config(start.string(), error);
    }
    if (!error.empty()) {
      std::cerr << "launchlint: configuration error: " << lint::config::bounded_message(error) << "\n";
      return kExitError;
    }
  }
  std::string fail_on = "warning";
  opts.exclude = lint::config::default_excludes();
  if (project) {
    for (const auto& ref : project->codes) (void)codes.canonical(ref.code, ref.where + ": ");
    if (project->select) opts.selection.select = codes.canonical(*project->select, "");
    opts.selection.ignore = codes.canonical(project->ignore, "");
    opts.selection.extend_select = codes.canonical(project->extend_select, "");
    for (const auto& [code, level] : project->severity) opts.selection.severity[codes.canonical(code, "")] = level;
    std::vector<std::string> excludes = project->exclude.value_or(lint::config::default_excludes());
    excludes.insert(excludes.end(), project->extend_exclude.begin(), project->extend_exclude.end());
    opts.exclude.clear();
    for (const auto& g : excludes) {
      opts.exclude.push_back(g);
      if (project->base_dir != "." && !project->base_dir.empty() && g.find('/') != std::string::npos)
        opts.exclude.push_back(project->base_dir + "/" + g);
    }
    opts.per_file_ignores = project->per_file_ignores;
    for (auto& p : opts.per_file_ignores) p.codes = codes.canonical(p.codes, "");
    opts.declared_launches = project->launches;
    opts.allow_outside = project->allow_outside;
    opts.target_versions = project->target_versions;
    if (!project->base_dir.empty()) opts.pin_folders.push_back(project->base_dir);
    if (project->fail_on) fail_on = *project->fail_on;
  }
  if (cli.select_given) opts.selection.select = selected;
  opts.selection.ignore.insert(opts.selection.ignore.end(), ignore.begin(), ignore.end());
  opts.selection.extend_select.insert(opts.selection.extend_select.end(), extend_select.begin(), extend_select.end());
  for (auto& [k, v] : severity) opts.selection.severity[k] = v;
  if (!cli.fail_on.empty()) fail_on = cli.fail_on;
  for (const std::string& tv : cli.target_versions) {
    const auto eq = tv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--target-version needs PKG=VERSION (e.g. torch=2.4), not '" + shown_value(tv) + "'");
    lint::model::VersionSetting set{tv.substr(0, eq), tv.substr(eq + 1), "--target-version " + shown_value(tv)};
    std::string why;
    if (!lint::model::assume_setting(set, why)) throw UsageError("--target-version: " + why);
    opts.target_versions.push_back(std::move(set));
  }
  opts.jobs = cli.jobs;
  opts.keep_launches = cli.command == "explain";
  opts.show_suppressed = cli.show_suppressed;
  opts.respect_gitignore = cli.gitignore;
  opts.allow_outside.insert(opts.allow_outside.end(), cli.allow_outside.begin(), cli.allow_outside.end());
  if (cli.read_stdin) {
    opts.read_stdin = true;
    // Standard input is held to the limits of any input file (docs/limits.md).
    lint::source::ReadResult read = lint::source::read_descriptor(STDIN_FILENO, lint::driver::kMaxFileBytes);
    if (!read.text) {
      std::cerr << "launchlint: error: standard input: " << read.error << "\n";
      return kExitError;
    }
    opts.stdin_text = std::move(*read.text);
    opts.stdin_filename = cli.stdin_filename;
  } else if (!cli.paths.empty()) {
    opts.paths = cli.paths;
    if (cli.force_exclude) {
      std::erase_if(opts.paths, [&](const std::string& p) { return excluded(opts.exclude, p); });
      if (opts.paths.empty()) return kExitClean;  // every named file is excluded: nothing to lint
    }
  }

  // Files named on the command line (pre-commit passes the changed ones) are linted within their projects: the
  // project is walked for the launches they take part in, and the findings that concern them are reported.
  // `explain FILE` likewise: the launches shown are those the named files take part in, bound as a run over their
  // project binds them.
  std::set<std::string> focus;
  if ((cli.command == "check" || cli.command == "explain") && !cli.read_stdin && !opts.paths.empty() &&
      std::all_of(opts.paths.begin(), opts.paths.end(),
                  [&](const std::string& p) { return fs::is_regular_file(p, ec); })) {
    std::set<std::string> roots;
    for (const std::string& p : opts.paths) {
      if (std::string root = lint::config::project_root(p); !root.empty()) roots.insert(lint::config::shown_path(root));
    }
    if (!roots.empty()) {
      for (const std::string& p : opts.paths) focus.insert(normal(p));
      opts.paths.insert(opts.paths.begin(), roots.begin(), roots.end());
    }
  }

  // With --fix the findings reported are those left after fixing; --diff prints the diffs and stops.
  lint::driver::RunResult result;
  std::vector<std::string> fixes_applied;
  if (cli.fix.rewrites() && cli.command != "explain") {
    int rc = kExitClean;
    if (!lint::fix::run(table, opts, cli.fix, result, fixes_applied, std::cout, std::cerr, rc)) return rc;
  } else if (cli.command == "check" && !cli.no_cache && !cli.read_stdin) {
    // The result cache (lint/driver/cache.hpp): --cache-dir, then `cache-dir` in the project config, then
    // .launchlint_cache in the project config's folder, else at the project root of the first path.
    lint::driver::CacheOptions cache;
    cache.dir = cli.cache_dir;
    if (cache.dir.empty() && project && project->cache_dir) cache.dir = *project->cache_dir;
    if (cache.dir.empty()) {
      std::string root = project && !project->path.empty() ? project->base_dir : std::string();
      if (root.empty() && !opts.paths.empty()) root = lint::config::project_root(opts.paths.front());
      if (root.empty()) root = ".";
      cache.dir = (fs::path(root) / lint::driver::kCacheDirName).string();
    }
    cache.settings = "gpu-memory=" + cli.gpu_memory;
    result = lint::driver::run_cached(table, opts, cache);
  } else {
    result = lint::driver::run(table, opts);
  }
  if (!focus.empty()) {
    std::erase_if(result.diagnostics, [&](const lint::rule::Diagnostic& d) {
      if (focus.count(normal(d.path)) != 0) return false;
      return std::none_of(d.related.begin(), d.related.end(),
                          [&](const auto& r) { return focus.count(normal(r.path)) != 0; });
    });
  }
  std::string shown;
  for (const auto& p : cli.read_stdin ? std::vector<std::string>{"standard input"} : opts.paths)
    shown += (shown.empty() ? "" : ", ") + p;
  report_unknown_inputs(cli, result, shown);

  if (cli.command == "explain") {
    std::vector<const lint::model::Launch*> launches;
    for (const auto& l : result.launches) {
      if (focus.empty() || std::any_of(l.documents.begin(), l.documents.end(), [&](const lint::model::Document* d) {
            return d != nullptr && focus.count(normal(d->path())) != 0;
          }))
        launches.push_back(&l);
    }
    const auto& [format, out_path] = outputs.front();
    if (const int rc = refuse_overwriting_inputs(outputs, result); rc != 0) return rc;
    std::ostringstream out;
    if (cli.memory && format == Format::Json)
      lint::memory::write_memory_json(out, launches);
    else if (cli.memory)
      lint::memory::write_memory_text(out, launches);
    else if (format == Format::Json)
      lint::report::write_explain_json(out, launches, &result.versions);
    else
      lint::report::write_explain_text(out, launches, use_color(cli.color, out_path), &result.versions);
    if (!emit(out_path, out.str())) return kExitError;
    return kExitClean;
  }

  std::string srcroot = fs::current_path().generic_string();
  if (!srcroot.ends_with("/")) srcroot += "/";
  if (const int rc = refuse_overwriting_inputs(outputs, result); rc != 0) return rc;
  for (const auto& [format, path] : outputs) {
    lint::report::ReportInput in;
    in.diagnostics = &result.diagnostics;
    in.rules = &table;
    in.sources = &result.sources;
    in.srcroot = srcroot;
    in.color = use_color(cli.color, path);
    in.files_checked = result.files_checked;
    in.jobs = cli.jobs;
    in.docs_url = env_set("LAUNCHLINT_DOCS_URL") ? std::getenv("LAUNCHLINT_DOCS_URL") : LAUNCHLINT_DOCS_URL;
    // -q: text and concise leave out their summary line.
    in.summary = !(!cli.statistics && cli.quiet && (format == Format::Text || format == Format::Concise));
    const auto render = [&](std::ostream& out) {
      if (cli.statistics)
        lint::report::write_statistics(format, out, in);
      else
        lint::report::write(format, out, in);
    };
    if (path.empty()) {
      // Standard output is written as the report is rendered: a report of many findings is not held whole.
      std::cout.flush();  // what was printed before (--diff, --fix messages) comes first
      lint::report::StandardOutputBuffer buffer;
      std::ostream out(&buffer);
      render(out);
      if (const std::string why = buffer.finish(); !why.empty()) {
        std::cerr << "launchlint: error: " << lint::config::bounded_message(why) << "\n";
        return kExitError;
      }
      continue;
    }
    // A file is rendered whole, then replaced at once (atomically: lint/report/output_file). The rendered text is
    // moved out of the stream, never copied: a report of many findings is held once.
    std::ostringstream out;
    render(out);
    if (!emit(path, std::move(out).str())) return kExitError;
  }

  // --show-fixes lists them after a text report (on stderr when standard output carries a machine format).
  if (cli.fix.show_fixes) {
    const auto& [first_format, first_path] = outputs.front();
    const bool text_out = first_path.empty() && (first_format == Format::Text || first_format == Format::Concise);
    lint::fix::write_fix_list(text_out ? std::cout : std::cerr, result.diagnostics, cli.fix, fixes_applied);
  }
  if (cli.exit_zero || fail_on == "never") return kExitClean;
  const Severity threshold = fail_on == "error"  ? Severity::Error
                             : fail_on == "info" ? Severity::Info
                                                 : Severity::Warning;
  for (const auto& d : result.diagnostics) {
    if (!d.suppressed && d.severity >= threshold) return kExitFindings;
  }
  return kExitClean;
}

}  // namespace

int main(int argc, char** argv) {
  // A grammar the linked tree-sitter runtime cannot load is a build defect: say so instead of finding nothing.
  const std::vector<std::string> abi_problems = lint::parse::grammar_abi_problems();
  for (const std::string& p : abi_problems) std::cerr << "launchlint: error: " << p << "\n";
  if (!abi_problems.empty()) return kExitError;
  // `launchlint server`: the language server (LSP over standard input/output) parses its own arguments.
  if (argc > 1 && std::string_view(argv[1]) == "server")
    return lint::server::run_command(lint::rules::rule_table(), std::vector<std::string>(argv + 2, argv + argc));
  try {
    return run(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "launchlint: error: " << lint::config::bounded_message(e.what())
              << "\nRun 'launchlint --help' for usage.\n";
    return kExitError;
  } catch (const std::exception& e) {
    // Never a crash: whatever escaped (memory exhausted, a file system error) is an error, exit 2.
    std::cerr << "launchlint: error: " << lint::config::bounded_message(e.what()) << "\n";
    return kExitError;
  }
}
