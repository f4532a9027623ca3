#include "lint/driver/driver.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "lint/bind/argument_classes.hpp"
#include "lint/bind/binder.hpp"
#include "lint/bind/ci_workflow.hpp"
#include "lint/bind/file_refs.hpp"
#include "lint/config/pins.hpp"
#include "lint/config/project_root.hpp"
#include "lint/driver/parallel.hpp"
#include "lint/model/classify.hpp"
#include "lint/model/python_pack.hpp"
#include "lint/model/resolve.hpp"
#include "lint/parse/readers.hpp"
#include "lint/rule/suppression.hpp"
#include "lint/source/read_boundary.hpp"
#include "lint/source/read_file.hpp"

namespace lint::driver {

namespace fs = std::filesystem;

bool Selection::enabled(std::string_view code) const {
  auto matches_any = [&](const std::vector<std::string>& patterns) {
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](const std::string& p) { return rule::code_matches(p, code); });
  };
  if (matches_any(ignore)) {
    // A more specific select wins over a broader ignore (ruff's rule): FSDP001 selected, FSDP ignored.
    std::size_t best_select = 0;
    std::size_t best_ignore = 0;
    for (const auto& p : select)
      if (rule::code_matches(p, code)) best_select = std::max(best_select, p == "ALL" ? 0 : p.size());
    for (const auto& p : extend_select)
      if (rule::code_matches(p, code)) best_select = std::max(best_select, p == "ALL" ? 0 : p.size());
    for (const auto& p : ignore)
      if (rule::code_matches(p, code)) best_ignore = std::max(best_ignore, p == "ALL" ? std::size_t{0} : p.size());
    return best_select > best_ignore;
  }
  return matches_any(select) || matches_any(extend_select);
}

namespace {

parse::Format format_of(const std::string& path, std::string_view text) {
  const fs::path p(path);
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  const std::string name = p.filename().string();
  if (ext == ".yaml" || ext == ".yml") return parse::Format::Yaml;
  if (ext == ".json") return parse::Format::Json;
  if (ext == ".toml") return parse::Format::Toml;
  if (ext == ".py") return parse::Format::Python;
  if (ext == ".sh" || ext == ".bash" || ext == ".slurm" || ext == ".sbatch" || name == "Makefile" ||
      name == "makefile" || name == "GNUmakefile")
    return parse::Format::Shell;
  if (text.starts_with("#!")) {
    const std::string_view first = text.substr(0, text.find('\n'));
    if (first.find("python") != std::string_view::npos) return parse::Format::Python;
    if (first.find("sh") != std::string_view::npos) return parse::Format::Shell;
  }
  return parse::Format::Other;
}

bool shell_may_matter(std::string_view text) {
  for (std::string_view n : {"accelerate", "torchrun", "torch.distributed.run", "deepspeed", "run_train.sh",
                             "CONFIG_FILE", "axolotl", "llamafactory-cli", ".py", "trl "}) {
    if (text.find(n) != std::string_view::npos) return true;
  }
  return false;
}

template <typename Fn>
void parallel_for(std::size_t n, unsigned jobs, Fn fn) {
  parallel_region(n, jobs, std::function<void(std::size_t)>(std::move(fn)));
}

/// Collects one rule's diagnostics.
class Collector final : public rule::RuleContext {
 public:
  Collector(const rule::RuleInfo& info, const rule::RuleTable& table, const Selection& sel,
            std::vector<rule::Diagnostic>& out)
      : info_(info), table_(table), selection_(sel), out_(out) {}
  [[nodiscard]] const rule::RuleInfo& info() const override { return info_; }
  [[nodiscard]] bool is_known_code(std::string_view code) const override {
    if (code == "ALL") return true;
    return std::any_of(table_.begin(), table_.end(), [&](const rule::RuleInfo& r) {
      return r.code == code || (r.code.starts_with(code) && !code.empty() && !std::isdigit(code.back()));
    });
  }
  [[nodiscard]] bool is_enabled_code(std::string_view code) const override {
    return std::any_of(table_.begin(), table_.end(), [&](const rule::RuleInfo& r) {
      return rule::code_matches(code, r.code) && selection_.enabled(r.code);
    });
  }
  void emit(rule::Diagnostic d) override { out_.push_back(std::move(d)); }

 private:
  const rule::RuleInfo& info_;
  const rule::RuleTable& table_;
  const Selection& selection_;
  std::vector<rule::Diagnostic>& out_;
};

std::optional<rule::Severity> severity_override(const Selection& sel, std::string_view code) {
  std::optional<rule::Severity> out;
  std::size_t best = 0;
  for (const auto& [pattern, sev] : sel.severity) {
    if (rule::code_matches(pattern, code) && pattern.size() >= best) {
      best = pattern.size();
      out = sev;
    }
  }
  return out;
}

}  // namespace

namespace {

/// Root keys of an axolotl config that hold only training data, which no rule reads: left out of big files.
constexpr std::array<std::string_view, 3> kAxolotlDataKeys = {"datasets", "test_datasets", "pretraining_dataset"};

/// Loads and classifies a YAML, JSON or TOML document. A big YAML or JSON file is read shallow first (what
/// classification reads) and in full only when it is a launch config, or a CI workflow; a big axolotl config
/// leaves its data lists out; a big TOML that cannot be a torchtitan config is not parsed (docs/limits.md "Huge
/// files"). Findings are those of a full read either way.
void read_config(model::Document& doc) {
  const source::SourceFile& file = *doc.source;
  const auto full = [&] {
    doc.config = doc.format == parse::Format::Yaml   ? parse::read_yaml(file)
                 : doc.format == parse::Format::Json ? parse::read_json(file)
                                                     : parse::read_toml(file);
    doc.kind = model::classify_config(*doc.config, doc.format);
  };
  if (file.text().size() < kShallowFirstBytes) return full();
  if (doc.format == parse::Format::Toml) {
    // A big TOML that cannot be a torchtitan config is Unknown, and its tree is not needed. It is not parsed when
    // its syntax errors would not be reported either (a file nobody named that does not look like a launch file);
    // otherwise toml++ checks it in pieces, each piece's tree deleted before the next (a full read when the pieces
    // cannot prove the result: a syntax error, or tables the pieces share).
    if (model::toml_may_be_torchtitan(file.text())) return full();
    if (doc.explicitly_named || model::config_text_may_matter(file.text())) {
      std::optional<std::vector<parse::ParseError>> errors = parse::check_toml_in_pieces(file, kTomlPieceBytes);
      if (!errors) return full();
      doc.config = parse::ConfigDocument{};
      doc.config.edit().format = parse::Format::Toml;
      doc.config.edit().errors = std::move(*errors);
      doc.kind = model::DocKind::Unknown;
      return;
    }
    doc.config = parse::ConfigDocument{};
    doc.config.edit().format = parse::Format::Toml;
    doc.kind = model::DocKind::Unknown;
    return;
  }
  parse::ReadPolicy shallow;
  shallow.shallow = true;
  std::optional<parse::ConfigDocument> first =
      doc.format == parse::Format::Yaml ? parse::read_yaml(file, shallow) : parse::read_json_shallow(file);
  if (!first) return full();
  doc.config = std::move(*first);
  doc.kind = model::classify_config(*doc.config, doc.format);
  if (doc.kind == model::DocKind::Unknown && !bind::is_ci_workflow(doc)) return;
  if (doc.kind == model::DocKind::AxolotlConfig) {
    parse::ReadPolicy data;
    data.elide_root_keys.assign(kAxolotlDataKeys.begin(), kAxolotlDataKeys.end());
    doc.config = parse::ConfigDocument{};  // the shallow tree goes before the second read
    if (std::optional<parse::ConfigDocument> kept = parse::read_yaml(file, data)) {
      doc.config = std::move(*kept);
      doc.kind = model::classify_config(*doc.config, doc.format);
      return;
    }
  }
  doc.config = parse::ConfigDocument{};
  full();
}

/// Reads a YAML, JSON or TOML document's tree and kind (read_config), with the error of a second YAML document.
void load_config(model::Document& doc) {
  read_config(doc);
  // A second YAML document is an error for the single-document loaders of launch configs, not for a file
  // launchlint does not know (a multi-document Kubernetes manifest that runs `accelerate launch`).
  if (doc.config->extra_document && doc.kind != model::DocKind::Unknown)
    doc.config.edit().errors.push_back(*doc.config->extra_document);
}

/// A config kind whose tree its launches read (not a script, not a file launchlint does not know).
bool launch_config_kind(model::DocKind kind) {
  return kind != model::DocKind::Unknown && kind != model::DocKind::PythonScript &&
         kind != model::DocKind::LaunchScript;
}

}  // namespace

bool release_config(model::Document& doc) {
  if (!launch_config_kind(doc.kind) || doc.read_error) return false;
  const parse::ConfigDocument& config = *doc.config;
  if (config.released || !config.has_root || !config.root.is_map() || bind::is_ci_workflow(doc)) return false;
  parse::ConfigDocument& kept = doc.config.edit();
  kept.root = bind::binding_view(kept.root);
  kept.released = true;
  return true;
}

bool reload_config(model::Document& doc) {
  if (!doc.config->released) return true;
  // Read again as it was loaded (the same text gives the same tree, errors and kind), from the text read back with
  // its content check: a file changed since reads as empty and is not unchanged().
  model::Document again;
  again.source = doc.source;
  again.format = doc.format;
  again.explicitly_named = doc.explicitly_named;
  load_config(again);
  if (doc.source->unchanged() && again.kind == doc.kind && again.config->has_root && !again.config->released) {
    doc.config = std::move(again.config);
    return true;
  }
  // Changed on disk since its per-file rules ran: none of its facts are kept (its launches are not checked).
  std::vector<parse::ParseError> errors = doc.config->errors;
  doc.config = parse::ConfigDocument{};
  doc.config.edit().format = doc.format;
  doc.config.edit().errors = std::move(errors);
  return false;
}

/// Whether a Python file's first two lines declare an encoding other than UTF-8 (PEP 263:
/// `^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`).
bool declares_other_encoding(std::string_view t) {
  for (int line = 0; line < 2 && !t.empty(); ++line) {
    const std::size_t nl = t.find('\n');
    std::string_view l = t.substr(0, nl);
    t = nl == std::string_view::npos ? std::string_view() : t.substr(nl + 1);
    const std::size_t first = l.find_first_not_of(" \t\f");
    if (first == std::string_view::npos || l[first] != '#') continue;
    const std::size_t at = l.find("coding", first);
    if (at == std::string_view::npos || at + 6 >= l.size() || (l[at + 6] != ':' && l[at + 6] != '=')) continue;
    std::size_t b = at + 7;
    while (b < l.size() && (l[b] == ' ' || l[b] == '\t')) ++b;
    std::string name;
    for (; b < l.size() && (std::isalnum(static_cast<unsigned char>(l[b])) != 0 || l[b] == '-' || l[b] == '_' ||
                            l[b] == '.');
         ++b)
      name += static_cast<char>(std::tolower(static_cast<unsigned char>(l[b])));
    std::replace(name.begin(), name.end(), '_', '-');
    return !name.empty() && name != "utf-8" && name != "utf8" && name != "utf-8-sig";
  }
  return false;
}

/// Each byte that does not belong to a valid UTF-8 sequence becomes `?`.
void replace_invalid_utf8(std::string& s) {
  std::size_t bad = 0;
  std::size_t from = 0;
  while (!source::is_valid_utf8(std::string_view(s).substr(from), &bad)) {
    s[from + bad] = '?';
    from += bad + 1;
  }
}

std::unique_ptr<model::Document> load_document(std::string path, std::string text, bool explicitly_named) {
  auto doc = std::make_unique<model::Document>();
  doc->explicitly_named = explicitly_named;
  // A UTF-8 BOM is not part of the content: editors count columns without it.
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  doc->format = format_of(path, text);
  // One look at the bytes: is the text UTF-8 (a file launchlint does not read is not looked at).
  std::size_t bad = 0;
  bool utf8 = doc->format == parse::Format::Other || source::is_valid_utf8(text, &bad);
  if (!utf8 && doc->format == parse::Format::Python && declares_other_encoding(text)) {
    // A Python file that declares its encoding (PEP 263: `# encoding=gbk`) is valid Python: it is read with each
    // byte that is not UTF-8 shown as `?` (the same length, so every position stays the file's), and its text is
    // kept rather than read again from disk.
    replace_invalid_utf8(text);
    doc->keep_text = true;
    utf8 = true;
  }
  doc->source = std::make_shared<source::SourceFile>(std::move(path), std::move(text));
  const std::string& t = doc->source->text();

  if (doc->format == parse::Format::Other) return doc;
  const std::string_view head(t.data(), std::min<std::size_t>(t.size(), 8192));
  if (head.find('\0') != std::string_view::npos) {
    doc->read_error = "binary file (contains NUL bytes)";
    return doc;
  }
  if (!utf8) {
    doc->read_error = "not valid UTF-8";
    doc->read_error.set_region(doc->source->region(bad, bad + 1));
    return doc;
  }
  switch (doc->format) {
    case parse::Format::Yaml:
    case parse::Format::Json:
    case parse::Format::Toml: {
      load_config(*doc);
      doc->report_parse_errors = explicitly_named || doc->kind != model::DocKind::Unknown ||
                                 (!doc->config->errors.empty() && model::config_text_may_matter(t));
      break;
    }
    case parse::Format::Python: {
      if (!explicitly_named && !model::python_may_matter(t)) break;
      doc->kind = model::DocKind::PythonScript;
      doc->report_parse_errors = true;
      doc->python = std::make_unique<model::PythonFacts>(model::read_python_facts(*doc->source));
      bind::drop_foreign_argument_classes(doc->path(), *doc->python);
      break;
    }
    case parse::Format::Shell: {
      if (!shell_may_matter(t)) break;
      doc->kind = model::DocKind::LaunchScript;
      doc->report_parse_errors = true;
      const std::string name = fs::path(doc->path()).filename().string();
      const bool makefile = name == "Makefile" || name == "makefile" || name == "GNUmakefile" || name.ends_with(".mk");
      std::vector<parse::ParseError> errors;
      doc->launch_commands = parse::find_launch_commands(*doc->source, makefile, &errors);
      doc->shell_errors = std::move(errors);
      break;
    }
    case parse::Format::Other:
      break;
  }
  return doc;
}

namespace {

/// The overlay text for `path`, if any (compared as normalised paths).
const std::string* overlay_text(const std::map<std::string, std::string>& overlay, const std::string& path) {
  if (overlay.empty()) return nullptr;
  auto it = overlay.find(path);
  if (it == overlay.end()) it = overlay.find(fs::path(path).lexically_normal().generic_string());
  return it == overlay.end() ? nullptr : &it->second;
}

/// A document of a file (or folder) that could not be read, with why: LL002 on it.
std::unique_ptr<model::Document> error_document(const std::string& path, std::string why, bool explicitly_named) {
  auto doc = std::make_unique<model::Document>();
  doc->source = std::make_shared<source::SourceFile>(path, "");
  doc->read_error = std::move(why);
  doc->explicitly_named = explicitly_named;
  return doc;
}

std::unique_ptr<model::Document> read_document(const std::string& path, bool explicitly_named,
                                               const std::map<std::string, std::string>& overlay,
                                               bool* from_disk = nullptr) {
  if (from_disk != nullptr) *from_disk = false;
  auto fail = [&](std::string why) { return error_document(path, std::move(why), explicitly_named); };
  if (const std::string* text = overlay_text(overlay, path)) {
    // An editor's buffer (the language server) is held to the limit of a file on disk (docs/limits.md).
    if (text->size() > kMaxFileBytes)
      return fail("file is larger than the " + std::to_string(kMaxFileBytes / (1024 * 1024)) + " MiB limit");
    return load_document(path, *text, explicitly_named);
  }
  source::ReadResult read = source::read_regular_file(path, kMaxFileBytes);
  if (!read.text) {
    // The message is phrased as before for the common cases ("file is larger than the 64 MiB limit").
    return fail(read.error.starts_with("larger") ? "file is " + read.error : read.error);
  }
  std::string text = std::move(*read.text);
  if (from_disk != nullptr) *from_disk = true;
  return load_document(path, std::move(text), explicitly_named);
}

}  // namespace

namespace {

/// Keeps the first kMaxFindingsPerRuleAndFile findings of each rule in each file (in report order) and turns
/// the rest into one summary finding of that rule at the first one left out, so that a file of thousands of
/// identical mistakes gives a report of bounded size. `all` is sorted.
std::vector<rule::Diagnostic> cap_findings(std::vector<rule::Diagnostic> all) {
  std::map<std::pair<std::string, std::string>, std::size_t> seen;
  std::vector<std::size_t> omitted;
  // In place: the findings kept move to the front (a run's findings are held once, not twice).
  std::size_t n_kept = 0;
  const auto keep = [&](rule::Diagnostic& d) {
    if (&all[n_kept] != &d) all[n_kept] = std::move(d);
    ++n_kept;
  };
  for (rule::Diagnostic& d : all) {
    if (d.suppressed) {
      keep(d);
      continue;
    }
    const auto key = std::make_pair(d.path, d.code);
    const std::size_t n = ++seen[key];
    if (n <= kMaxFindingsPerRuleAndFile) {
      keep(d);
    } else if (n == kMaxFindingsPerRuleAndFile + 1) {
      d.related.clear();
      d.setting.clear();
      keep(d);
      omitted.push_back(n_kept - 1);
    }
  }
  all.erase(all.begin() + static_cast<std::ptrdiff_t>(n_kept), all.end());
  std::vector<rule::Diagnostic>& kept = all;
  for (const std::size_t i : omitted) {
    rule::Diagnostic& d = kept[i];
    const std::size_t more = seen[std::make_pair(d.path, d.code)] - kMaxFindingsPerRuleAndFile;
    d.message = std::to_string(more) + " more " + d.code + " finding" + (more == 1 ? "" : "s") +
                " in this file, from here on, are not shown (at most " + std::to_string(kMaxFindingsPerRuleAndFile) +
                " per rule and file).";
  }
  return all;
}

}  // namespace

namespace {

/// Discovers the files under the given paths (or takes stdin) and loads them in parallel; `finish(i, document,
/// from_disk)` runs on each as soon as it is loaded, on the thread that loaded it (streaming: what a document
/// holds only for its own sake is dropped there). When `finish` returns true the document is given back at once
/// and its path kept, in order, in `quiet` (RunResult::quiet): a run of many files never holds every file's
/// Document and SourceFile at the end of its walk.
template <typename Prepare, typename Finish>
std::vector<std::unique_ptr<model::Document>> load_documents(const RunOptions& options, unsigned jobs, Prepare prepare,
                                                             Finish finish, std::vector<std::string>& quiet) {
  std::vector<std::string> explicit_files;
  std::vector<std::string> files;
  std::vector<Unlistable> unlistable;
  if (!options.read_stdin)
    files = discover(options.paths, options.exclude, options.respect_gitignore, &explicit_files, jobs, &unlistable);
  // A folder that could not be listed is a document of the run with its reason as a read error (LL002 on it).
  std::map<std::string, std::string> cannot_list;
  for (Unlistable& u : unlistable) {
    files.push_back(u.path);
    cannot_list.emplace(std::move(u.path),
                        std::string(model::kCannotListFolder) + " (" + u.reason + "): its files are not checked");
  }
  if (!cannot_list.empty()) {
    std::sort(files.begin(), files.end());
    files.erase(std::unique(files.begin(), files.end()), files.end());
  }
  const std::set<std::string> explicit_set(explicit_files.begin(), explicit_files.end());
  std::vector<std::unique_ptr<model::Document>> documents(files.size() + (options.read_stdin ? 1 : 0));
  prepare(documents.size());
  parallel_for(files.size(), jobs, [&](std::size_t i) {
    bool from_disk = false;
    if (const auto u = cannot_list.find(files[i]); u != cannot_list.end()) {
      documents[i] = error_document(files[i], u->second, true);
      if (finish(i, *documents[i], false)) documents[i].reset();
      return;
    }
    documents[i] = read_document(files[i], explicit_set.count(files[i]) != 0, options.overlay, &from_disk);
    if (finish(i, *documents[i], from_disk)) documents[i].reset();  // its path is files[i]
  });
  // Standard input is named explicitly: never quiet.
  if (options.read_stdin) {
    documents.back() = load_document(options.stdin_filename, options.stdin_text, true);
    finish(documents.size() - 1, *documents.back(), false);
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!documents[i]) quiet.push_back(std::move(files[i]));
  }
  return documents;
}

/// Binds every launch command to its files (loading files outside the linted paths) and resolves each launch.
/// Each file that no launch command binds is a launch of its own; a bound file is judged within its launches (a
/// script's checkpointing silences its config's FSDP001, for example).
/// The project boundary (SECURITY.md): the folders whose files a launch may read. For each linted path, the git
/// repository holding it (the nearest folder above with a `.git`), or outside one the path itself (its folder for
/// a file); the working folder for standard input; and whatever `--allow-outside` names. All canonical.
std::vector<fs::path> project_roots(const RunOptions& options) {
  std::vector<fs::path> roots;
  std::error_code ec;
  std::vector<std::string> paths = options.read_stdin ? std::vector<std::string>{"."} : options.paths;
  // Every `.py` of a tree may be named: the walk up from each folder is done once per folder.
  std::map<fs::path, fs::path> root_of_folder;
  for (const std::string& p : paths) {
    fs::path path = fs::weakly_canonical(fs::absolute(p, ec), ec);
    if (!fs::is_directory(path, ec)) path = path.parent_path();
    auto [it, inserted] = root_of_folder.try_emplace(path, path);
    if (inserted) {
      for (fs::path dir = path; !dir.empty(); dir = dir.parent_path()) {
        if (fs::exists(dir / ".git", ec)) {
          it->second = dir;
          break;
        }
        if (dir == dir.root_path()) break;
      }
    }
    roots.push_back(it->second);
  }
  for (const std::string& p : options.allow_outside) roots.push_back(fs::weakly_canonical(fs::absolute(p, ec), ec));
  for (const DeclaredLaunch& dl : options.declared_launches) {
    roots.push_back(fs::weakly_canonical(fs::absolute(dl.config_path, ec), ec));  // read already
  }
  return roots;
}

/// True when `path` (after resolving links) lies under one of `roots`.
bool inside_project(const std::string& path, const std::vector<fs::path>& roots) {
  return source::inside_roots(path, roots);
}

/// Every document a bound launch reads.
std::vector<const model::Document*> inputs_of(const model::BoundInputs& in) {
  std::vector<const model::Document*> out{in.script_doc,   in.accelerate_config, in.python,  in.trainer_fsdp_config,
                                          in.deepspeed,    in.torchtitan,        in.axolotl, in.llamafactory,
                                          in.trainer_args, in.hostfile};
  for (const model::ImportedModule& m : in.imported) out.push_back(m.document);
  return out;
}

/// Binds every launch command to its files (loading files a command names outside the linted paths), resolves
/// each launch and hands it to `check(launch, order)` (`order`: where the launch stands among all, so findings can
/// be merged in the same order whatever the threads do). Each file that no launch command binds is then a launch of its
/// own; a bound file is judged within its launches (a script's checkpointing silences its config's FSDP001, for
/// example). Launches are resolved and checked a batch at a time, in parallel, and kept only when `keep` is set
/// (explain, the language server): a run of thousands of configs never holds thousands of resolved launches.
/// Returns the launches kept: the files alone first, then the bound launches.
/// `changed`: the documents whose tree, read again for a batch (streaming: reload_config), no longer matched their
/// content; each launch with one of them in its documents is handed to `check` with it.
template <typename Check>
std::vector<model::Launch> bind_and_resolve(std::vector<std::unique_ptr<model::Document>>& documents,
                                            const source::PathList& quiet, const RunOptions& options,
                                            const std::vector<fs::path>& roots, unsigned jobs,
                                            std::set<const model::Document*>& changed, Check check) {
  // A file read while binding, as a document of the run (streaming): its text given back, read again on use.
  const auto read_for_binding = [&options](const std::string& path, bool named) {
    bool from_disk = false;
    std::unique_ptr<model::Document> doc = read_document(path, named, options.overlay, &from_disk);
    if (from_disk && !doc->keep_text) doc->source->release(kMaxFileBytes);
    return doc;
  };
  bind::DocumentSet docs(
      documents,
      [&roots, &read_for_binding](const std::string& path) {
        if (!inside_project(path, roots)) {
          // Never read: a launch script in an untrusted change could point at a secret anywhere on the machine.
          auto doc = std::make_unique<model::Document>();
          doc->source = std::make_shared<source::SourceFile>(path, "");
          std::error_code ec;
          doc->read_error = "the launch refers to " + fs::weakly_canonical(fs::absolute(path, ec), ec).string() +
                            ", outside the project being linted (pass --allow-outside PATH to read it)";
          doc->outside_project = true;
          doc->explicitly_named = true;
          return doc;
        }
        return read_for_binding(path, true);
      },
      // A quiet file a command names is read again as the walk read it (not as a named file: its kind and whether
      // it is parsed are what they were).
      &quiet, [&read_for_binding](const std::string& path) { return read_for_binding(path, false); });
  const std::size_t batch = std::max<std::size_t>(64, std::size_t{16} * jobs);
  std::vector<model::Launch> kept_alone;
  std::vector<model::Launch> kept_bound;
  // Checks a batch of launches in parallel; keeps them in `kept` when asked. Files alone come first in the order.
  std::size_t bound_seen = 0;
  std::size_t alone_seen = 0;
  // Streaming: the trees of launch configs were given back after their per-file rules (release_config, when the
  // launches are not kept). A batch reads those of its files again before it is resolved, each once however many
  // launches of the batch bind it, and gives them back once checked: a run holds the trees of one batch.
  std::vector<model::Document*> held;
  // The documents are the run's own (not const objects): a launch refers to them as const.
  const auto hold = [&](const std::vector<const model::Document*>& wanted) {
    const std::size_t from = held.size();
    for (const model::Document* d : wanted) {
      if (d == nullptr || !(d->config->released || (d->packed_python && !d->python))) continue;
      auto* doc = const_cast<model::Document*>(d);
      if (std::find(held.begin() + static_cast<std::ptrdiff_t>(from), held.end(), doc) == held.end())
        held.push_back(doc);
    }
    std::vector<char> same(held.size() - from, 1);
    parallel_for(same.size(), jobs, [&](std::size_t i) {
      same[i] = reload_config(*held[from + i]) ? 1 : 0;
      model::restore_python(*held[from + i]);
    });
    for (std::size_t i = 0; i < same.size(); ++i) {
      if (same[i] == 0) changed.insert(held[from + i]);
    }
  };
  // A launch resolved with a document that changed names it among its documents (its rules are not run).
  const auto note_changed = [&](model::Launch& l, const std::vector<const model::Document*>& inputs) {
    for (const model::Document* d : inputs) {
      if (d != nullptr && changed.count(d) != 0 &&
          std::find(l.documents.begin(), l.documents.end(), d) == l.documents.end())
        l.documents.push_back(d);
    }
  };
  const auto resolve_and_check = [&](std::vector<model::Launch>& launches, std::vector<model::Launch>& kept) {
    const bool bound = &kept == &kept_bound;
    std::size_t& seen = bound ? bound_seen : alone_seen;
    // Every tree a launch rule reads is whole (the inputs were read again before resolving; this finds none).
    std::vector<const model::Document*> in_launches;
    for (const model::Launch& l : launches)
      in_launches.insert(in_launches.end(), l.documents.begin(), l.documents.end());
    hold(in_launches);
    parallel_for(launches.size(), jobs, [&](std::size_t i) { check(launches[i], std::make_pair(bound, seen + i)); });
    // The texts the launch rules read (snippets, a second look at a script) are given back: read again when needed.
    for (const model::Launch& l : launches) {
      for (const model::Document* d : l.documents) d->source->release_again();
    }
    for (model::Document* d : held) {
      release_config(*d);
      model::release_python(*d);
      d->source->release_again();
    }
    held.clear();
    seen += launches.size();
    if (options.keep_launches) std::move(launches.begin(), launches.end(), std::back_inserter(kept));
    launches.clear();
  };

  const std::deque<bind::CommandSite> commands =
      bind::collect_commands(docs, options.declared_launches, !options.keep_launches);
  // Binding runs in command order on one thread (it adds the files a command names outside the linted paths to
  // the run, in that order). What it needs that depends on one command alone is done first, in parallel: the
  // files each command names, and the parse of each training script the pre-filter left unparsed. Binding itself
  // then only looks documents up.
  // Where each command runs is read once per script (reading it reads the whole script: once per command made a
  // script of thousands of launch lines quadratic).
  std::map<const model::Document*, bind::Workdirs> workdirs;
  for (const bind::CommandSite& c : commands) workdirs.try_emplace(c.document);
  std::vector<std::pair<const model::Document* const, bind::Workdirs>*> scripts;
  for (auto& w : workdirs) scripts.push_back(&w);
  parallel_for(scripts.size(), jobs,
               [&](std::size_t i) { scripts[i]->second = bind::command_workdirs(*scripts[i]->first); });
  std::vector<bind::FileRefs> refs(commands.size());
  parallel_for(commands.size(), jobs, [&](std::size_t i) {
    const bind::Workdirs& script_workdirs = workdirs.at(commands[i].document);
    const auto wd = script_workdirs.find(commands[i].command.region.begin_byte);
    refs[i] = bind::referenced_files(*commands[i].document, commands[i].command,
                                     wd == script_workdirs.end() ? nullptr : &wd->second);
  });
  workdirs.clear();
  // Streaming, a script's facts are kept packed: a lookup of the binder unpacks them, and they are given back once
  // the command (or the look) that needed them is bound, so binding holds one command's facts, not every launch's.
  const auto give_back_restored = [&] {
    for (model::Document* d : docs.take_restored()) model::release_python(*d);
  };
  std::vector<model::Document*> to_parse;
  std::set<const model::Document*> parsing;
  for (const bind::FileRefs& r : refs) {
    if (model::Document* d = docs.unparsed_target(r.script); d != nullptr && parsing.insert(d).second)
      to_parse.push_back(d);
  }
  give_back_restored();
  parallel_for(to_parse.size(), jobs, [&](std::size_t i) {
    docs.parse_in_place(*to_parse[i]);
    if (!options.keep_launches) model::release_python(*to_parse[i]);
  });
  std::vector<model::BoundInputs> bound(commands.size());
  for (std::size_t i = 0; i < commands.size(); ++i) {
    bound[i] = bind::bind_command(docs, commands[i], refs[i]);
    give_back_restored();
  }
  refs = {};
  model::count_binding_launches(bound);
  if (!options.keep_launches) {
    // Streaming: the scripts a command named outside the linted paths were loaded with their facts: packed too.
    // Each batch unpacks the facts of its launches.
    for (const auto& d : documents) model::release_python(*d);
  }
  std::set<const model::Document*> in_bound;
  for (std::size_t from = 0; from < bound.size(); from += batch) {
    const std::size_t n = std::min(batch, bound.size() - from);
    std::vector<model::Launch> launches(n);
    std::vector<std::vector<const model::Document*>> inputs(n);
    std::vector<const model::Document*> wanted;
    for (std::size_t i = 0; i < n; ++i) {
      inputs[i] = inputs_of(bound[from + i]);
      wanted.insert(wanted.end(), inputs[i].begin(), inputs[i].end());
    }
    hold(wanted);
    parallel_for(n, jobs, [&](std::size_t i) {
      launches[i] = model::resolve_bound(bound[from + i]);
      note_changed(launches[i], inputs[i]);
    });
    for (const model::Launch& l : launches) in_bound.insert(l.documents.begin(), l.documents.end());
    resolve_and_check(launches, kept_bound);
  }

  std::vector<const model::Document*> alone;
  for (const auto& d : documents) {
    if (d->kind != model::DocKind::Unknown && d->kind != model::DocKind::LaunchScript && !d->read_error &&
        in_bound.count(d.get()) == 0)
      alone.push_back(d.get());
  }
  // A training script linted without a launch command that names its DeepSpeed JSON itself
  // (`DeepSpeedStrategy(config="ds.json")`, `TrainingArguments(deepspeed="ds.json")`, `deepspeed.initialize(config=)`):
  // the JSON is part of that script's launch. Looked for in each batch once its facts are unpacked (one thread, in
  // the files' order, since it may load the JSON), so a streaming run unpacks each script once.
  for (std::size_t from = 0; from < alone.size(); from += batch) {
    const std::size_t n = std::min(batch, alone.size() - from);
    std::vector<model::Launch> launches(n);
    std::vector<const model::Document*> wanted(alone.begin() + static_cast<std::ptrdiff_t>(from),
                                               alone.begin() + static_cast<std::ptrdiff_t>(from + n));
    hold(wanted);
    std::vector<const model::Document*> named_json(n, nullptr);
    for (std::size_t i = 0; i < n; ++i) {
      const model::Document* d = alone[from + i];
      if (d->kind != model::DocKind::PythonScript || !d->python) continue;
      const std::vector<std::string> c = bind::named_deepspeed_candidates(*d, *d);
      if (c.empty()) continue;
      if (const model::Document* j = docs.find_or_load(c); j != nullptr && j->kind == model::DocKind::DeepSpeedConfig)
        named_json[i] = j;
      give_back_restored();
    }
    hold(named_json);
    parallel_for(n, jobs, [&](std::size_t i) {
      launches[i] = model::resolve_file(*alone[from + i]);
      if (named_json[i] != nullptr) launches[i].documents.push_back(named_json[i]);
      note_changed(launches[i], {alone[from + i]});
    });
    resolve_and_check(launches, kept_alone);
  }
  for (model::Launch& l : kept_bound) kept_alone.push_back(std::move(l));
  return kept_alone;
}

/// Runs every enabled rule on every document and launch, then on every suppression (LL003/LL004, which need the
/// other findings first). Findings are deduplicated (a file in several launches reports once) and suppressed.
class RuleRunner {
 public:
  RuleRunner(const rule::RuleTable& rules, const RunOptions& options, unsigned jobs)
      : rules_(rules), options_(options), jobs_(jobs) {
    for (const rule::RuleInfo& r : rules) {
      if (options.selection.enabled(r.code)) enabled_.push_back(&r);
    }
    for (const rule::RuleInfo* r : enabled_) instances_.push_back(r->factory());
  }

  /// The per-file rules on one document (thread-safe: called for several documents at once).
  void check_document(const model::Document& doc, std::vector<rule::Diagnostic>& out) const {
    for (std::size_t k = 0; k < enabled_.size(); ++k) {
      Collector ctx(*enabled_[k], rules_, options_.selection, out);
      instances_[k]->check_document(doc, ctx);
    }
  }

  /// The per-launch rules on one launch (thread-safe).
  void check_launch(const model::Launch& launch, std::vector<rule::Diagnostic>& out) const {
    for (std::size_t k = 0; k < enabled_.size(); ++k) {
      Collector ctx(*enabled_[k], rules_, options_.selection, out);
      instances_[k]->check_launch(launch, ctx);
    }
  }

  /// LL002 on a document read again for a launch (streaming: reload_config) that changed on disk since its other
  /// findings were made: the launch is not checked with content other than the one the run reports on.
  void report_changed(const model::Document& doc, std::vector<rule::Diagnostic>& out) const {
    for (const rule::RuleInfo* r : enabled_) {
      if (r->code != "LL002") continue;
      Collector ctx(*r, rules_, options_.selection, out);
      ctx.report(doc.path(), {},
                 "Cannot read this file again: it changed on disk while launchlint ran, so the launches that use it "
                 "are not checked (run launchlint again).");
    }
  }

  /// The per-file and per-launch findings together: sorted and deduplicated.
  static std::vector<rule::Diagnostic> merge(std::vector<std::vector<rule::Diagnostic>>& per_doc,
                                             std::vector<std::vector<rule::Diagnostic>>& per_launch) {
    std::vector<rule::Diagnostic> all;
    std::size_t total = 0;
    for (const auto& v : per_doc) total += v.size();
    for (const auto& v : per_launch) total += v.size();
    all.reserve(total);
    // Each list is given back as soon as it is moved: the findings are held once.
    for (auto& v : per_doc) {
      std::move(v.begin(), v.end(), std::back_inserter(all));
      v = {};
    }
    for (auto& v : per_launch) {
      std::move(v.begin(), v.end(), std::back_inserter(all));
      v = {};
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end(),
                          [](const rule::Diagnostic& a, const rule::Diagnostic& b) {
                            return a.code == b.code && a.path == b.path && a.region == b.region &&
                                   a.message == b.message;
                          }),
              all.end());
    return all;
  }

  /// In-source suppression comments and per-file-ignores (`suppressions`: each document's comments, found when
  /// it was loaded); severity overrides.
  void suppress(std::map<std::string, std::vector<rule::Suppression>>& suppressions,
                std::vector<rule::Diagnostic>& all) const {
    for (rule::Diagnostic& diag : all) {
      if (auto sev = severity_override(options_.selection, diag.code)) diag.severity = *sev;
      if (auto it = suppressions.find(diag.path); it != suppressions.end()) {
        for (rule::Suppression& s : it->second) {
          const bool line_hit = s.scope == rule::Suppression::Scope::File || s.line == diag.region.begin.line ||
                                (s.own_line && s.line + 1 == diag.region.begin.line);
          if (!line_hit) continue;
          if (s.bare_noqa) s.covers_finding = true;  // LL005: a `# noqa` the user meant for this finding
          for (std::size_t c = 0; c < s.codes.size(); ++c) {
            if (rule::code_matches(s.codes[c], diag.code)) {
              s.used[c] = true;
              diag.suppressed = true;
            }
          }
        }
      }
      for (const PerFileIgnore& pfi : options_.per_file_ignores) {
        if (!glob_match(pfi.glob, diag.path) && !glob_match("**/" + pfi.glob, diag.path)) continue;
        for (const std::string& c : pfi.codes) {
          if (rule::code_matches(c, diag.code)) diag.suppressed = true;
        }
      }
    }
  }

  /// Suppressions that suppressed nothing (LL004) and unknown codes (LL003).
  std::vector<rule::Diagnostic> check_suppressions(
      const RunResult& run, const std::map<std::string, std::vector<rule::Suppression>>& suppressions) const {
    std::vector<rule::Diagnostic> late;
    for (const auto& d : run.documents) {
      auto it = suppressions.find(d->path());
      if (it == suppressions.end()) continue;
      for (const rule::Suppression& s : it->second) {
        for (std::size_t k = 0; k < enabled_.size(); ++k) {
          Collector ctx(*enabled_[k], rules_, options_.selection, late);
          instances_[k]->check_suppression(*d, s, ctx);
        }
      }
    }
    for (rule::Diagnostic& diag : late) {
      if (auto sev = severity_override(options_.selection, diag.code)) diag.severity = *sev;
    }
    return late;
  }

 private:
  const rule::RuleTable& rules_;
  const RunOptions& options_;
  unsigned jobs_;
  std::vector<const rule::RuleInfo*> enabled_;
  std::vector<std::unique_ptr<rule::Rule>> instances_;
};

}  // namespace

std::vector<std::string> boundary_roots(const RunOptions& options) {
  std::vector<std::string> out;
  for (const fs::path& p : project_roots(options)) out.push_back(p.generic_string());
  return out;
}

model::TargetVersions resolve_target_versions(const RunOptions& options) {
  model::TargetVersions versions;
  std::vector<std::string> keep;
  for (const model::VersionSetting& s : options.target_versions) {
    std::string error;
    if (auto a = model::assume_setting(s, error)) {
      keep.push_back(a->library);
      versions.set(std::move(*a));
    }
  }
  if (!options.detect_pins) return versions;
  std::vector<std::string> folders = options.pin_folders;
  std::error_code ec;
  const std::vector<std::string> paths =
      options.read_stdin ? std::vector<std::string>{fs::path(options.stdin_filename).parent_path().string()}
                         : options.paths;
  // Every `.py` of a tree may be named: each folder's project roots are looked up once.
  std::map<std::string, std::vector<std::string>> shown_roots_of;
  for (const std::string& p : paths) {
    const std::string folder = p.empty() ? "." : fs::is_directory(p, ec) ? p : fs::path(p).parent_path().string();
    folders.push_back(folder.empty() ? "." : folder);
    auto [it, inserted] = shown_roots_of.try_emplace(folders.back());
    if (inserted) {
      for (const std::string& root : config::project_roots(folders.back()))
        it->second.push_back(config::shown_path(root));
    }
    folders.insert(folders.end(), it->second.begin(), it->second.end());
  }
  config::apply_pins(config::detect_pins(folders), keep, versions);
  return versions;
}

RunResult run(const rule::RuleTable& rules, const RunOptions& options) {
  const unsigned jobs = options.jobs != 0 ? options.jobs : std::max(1U, std::thread::hardware_concurrency());
  RunResult result;
  // The versions rules and resolution consult (model::target_versions) are this run's.
  result.versions = resolve_target_versions(options);
  model::set_target_versions(result.versions);
  // Readers outside the binder (a model's config.json) keep to the same project boundary.
  const std::vector<fs::path> roots = project_roots(options);
  source::set_read_boundary(roots);
  RuleRunner runner(rules, options, jobs);
  // Each document is finished as soon as it is loaded: its per-file rules run, its suppression comments are read,
  // a config no launch can use gives its tree back, and a file read from disk gives its text back (read again
  // only if a launch rule or a report needs it: lint/source/source_file.hpp). Peak memory is then the facts of
  // the run plus what the threads hold, not every file's text and tree.
  std::vector<std::vector<rule::Diagnostic>> per_doc;
  std::vector<std::vector<rule::Suppression>> comments;
  // A run that does not keep its launches also gives back the tree of a launch config, keeping what binding reads
  // (release_config); each batch of launches reads the trees of its files again and gives them back once checked.
  bool loading = true;
  // Returns true when the document gave nothing and is kept as its path alone (only while loading, streaming).
  const auto finish = [&](std::size_t i, model::Document& d, bool from_disk) {
    model::restore_python(d);  // a file a launch named, loaded while binding: its facts were packed since
    runner.check_document(d, per_doc[i]);
    if (!(d.read_error || d.kind == model::DocKind::Unknown) || d.report_parse_errors)
      comments[i] = rule::find_suppressions(*d.source, d.format == parse::Format::Json);
    if (d.kind == model::DocKind::Unknown && d.config->has_root && !bind::is_ci_workflow(d)) {
      // Streaming, a file with no errors gives back its whole ConfigDocument (read as an empty one, as its tree was).
      if (!options.keep_launches && d.config->errors.empty())
        d.config = model::ConfigBox{};
      else
        d.config.edit().root = parse::Node{};
    }
    if (loading && !options.keep_launches) {
      release_config(d);
      model::release_python(d);
      // A file that gave nothing (launchlint does not know it: no finding, no suppression comment, no error, nothing
      // kept) is kept as its path alone; the binder reads it again if a command names it.
      if (d.kind == model::DocKind::Unknown && !d.read_error && !d.explicitly_named && !d.outside_project &&
          !d.report_parse_errors && per_doc[i].empty() && comments[i].empty() && !d.python && !d.packed_python &&
          d.launch_commands.empty() && d.shell_errors.empty() && !d.config.held())
        return true;
    }
    if (from_disk && !d.keep_text) d.source->release(kMaxFileBytes);
    return false;
  };
  const auto prepare = [&](std::size_t n) {  // before loading: the finishing step writes by index
    per_doc.resize(n);
    comments.resize(n);
  };
  std::vector<std::string> quiet_paths;
  // 1. discover, load, per-file rules
  result.documents = load_documents(options, jobs, prepare, finish, quiet_paths);
  {
    // The quiet files leave the run's documents (given back while loading), in order.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < result.documents.size(); ++i) {
      if (!result.documents[i]) continue;
      if (kept != i) {
        result.documents[kept] = std::move(result.documents[i]);
        per_doc[kept] = std::move(per_doc[i]);
        comments[kept] = std::move(comments[i]);
      }
      ++kept;
    }
    result.documents.resize(kept);
    result.documents.shrink_to_fit();
    per_doc.resize(kept);
    per_doc.shrink_to_fit();
    comments.resize(kept);
    comments.shrink_to_fit();
    result.quiet = source::PathList(std::move(quiet_paths));
  }
  std::map<std::pair<bool, std::size_t>, std::vector<rule::Diagnostic>> found_by_launch;
  std::mutex found_mutex;
  std::set<const model::Document*> changed;  // written between batches, read while one is checked
  const auto check = [&](const model::Launch& launch, std::pair<bool, std::size_t> order) {
    std::vector<rule::Diagnostic> found;
    bool whole = true;
    for (const model::Document* d : launch.documents) {
      if (changed.count(d) == 0) continue;
      runner.report_changed(*d, found);
      whole = false;
    }
    if (whole) runner.check_launch(launch, found);
    if (found.empty()) return;
    const std::lock_guard<std::mutex> lock(found_mutex);
    found_by_launch[order] = std::move(found);
  };
  loading = false;
  result.launches = bind_and_resolve(result.documents, result.quiet, options, roots, jobs, changed,
                                     check);  // 2. bind, resolve, launch rules
  // Files a launch named outside the linted paths, and quiet files a command named, were loaded while binding:
  // finish them too. A quiet file read again is one of the documents now, and leaves the quiet list.
  const std::size_t loaded = per_doc.size();
  per_doc.resize(result.documents.size());
  comments.resize(result.documents.size());
  std::vector<char> revived(result.quiet.size(), 0);
  std::size_t n_revived = 0;
  for (std::size_t i = loaded; i < result.documents.size(); ++i) {
    // A quiet file's per-file rules ran when it was first read (and found nothing): not again, though binding may
    // have parsed it since (a launched script the pre-filter left unparsed), as a document of the run never is.
    if (const auto k = result.quiet.index_of(result.documents[i]->path()); k && revived[*k] == 0) {
      revived[*k] = 1;
      ++n_revived;
      continue;
    }
    finish(i, *result.documents[i], false);
  }
  if (n_revived != 0) {
    std::vector<std::string> still;
    for (std::size_t k = 0; k < result.quiet.size(); ++k) {
      if (revived[k] == 0) still.emplace_back(result.quiet[k]);
    }
    result.quiet = source::PathList(std::move(still));
  }
  result.files_checked = result.documents.size() + result.quiet.size();
  for (const auto& d : result.documents) source::put_source(result.sources, d->source);

  std::vector<std::vector<rule::Diagnostic>> per_launch;
  for (auto& [order, found] : found_by_launch) per_launch.push_back(std::move(found));
  found_by_launch.clear();
  std::vector<rule::Diagnostic> all = RuleRunner::merge(per_doc, per_launch);  // 3. all findings
  per_doc = {};
  per_launch = {};
  std::map<std::string, std::vector<rule::Suppression>> suppressions;
  for (std::size_t i = 0; i < result.documents.size(); ++i) {
    const model::Document& d = *result.documents[i];
    if (!(d.read_error || d.kind == model::DocKind::Unknown) || d.report_parse_errors)
      suppressions[d.path()] = std::move(comments[i]);
  }
  runner.suppress(suppressions, all);  // 4. suppressions
  std::vector<rule::Diagnostic> late = runner.check_suppressions(result, suppressions);
  std::move(late.begin(), late.end(), std::back_inserter(all));
  if (!options.show_suppressed) std::erase_if(all, [](const rule::Diagnostic& d) { return d.suppressed; });
  std::sort(all.begin(), all.end());
  result.diagnostics = cap_findings(std::move(all));
  return result;
}

}  // namespace lint::driver
