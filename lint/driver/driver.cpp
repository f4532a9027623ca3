#include "lint/driver/driver.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "lint/model/classify.hpp"
#include "lint/model/launch_command.hpp"
#include "lint/model/resolve.hpp"
#include "lint/parse/readers.hpp"
#include "lint/rule/suppression.hpp"

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
                             "CONFIG_FILE", "axolotl", "llamafactory-cli", ".py"}) {
    if (text.find(n) != std::string_view::npos) return true;
  }
  return false;
}

/// A pool that runs `fn(i)` for i in [0, n) on `jobs` threads.
template <typename Fn>
void parallel_for(std::size_t n, unsigned jobs, Fn fn) {
  if (jobs <= 1 || n <= 1) {
    for (std::size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> threads;
  const unsigned count = std::min<unsigned>(jobs, static_cast<unsigned>(n));
  threads.reserve(count);
  for (unsigned t = 0; t < count; ++t) {
    threads.emplace_back([&] {
      for (std::size_t i = next++; i < n; i = next++) fn(i);
    });
  }
  for (std::thread& t : threads) t.join();
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

std::unique_ptr<model::Document> load_document(std::string path, std::string text, bool explicitly_named) {
  auto doc = std::make_unique<model::Document>();
  doc->explicitly_named = explicitly_named;
  // A UTF-8 BOM is not part of the content: editors count columns without it.
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  doc->format = format_of(path, text);
  doc->source = std::make_shared<source::SourceFile>(std::move(path), std::move(text));
  const std::string& t = doc->source->text();

  if (doc->format == parse::Format::Other) return doc;
  const std::string_view head(t.data(), std::min<std::size_t>(t.size(), 8192));
  if (head.find('\0') != std::string_view::npos) {
    doc->read_error = "binary file (contains NUL bytes)";
    return doc;
  }
  std::size_t bad = 0;
  if (!source::is_valid_utf8(t, &bad)) {
    doc->read_error = "not valid UTF-8";
    doc->read_error_region = doc->source->region(bad, bad + 1);
    return doc;
  }
  switch (doc->format) {
    case parse::Format::Yaml:
    case parse::Format::Json:
    case parse::Format::Toml: {
      doc->config = doc->format == parse::Format::Yaml   ? parse::read_yaml(*doc->source)
                    : doc->format == parse::Format::Json ? parse::read_json(*doc->source)
                                                         : parse::read_toml(*doc->source);
      doc->kind = model::classify_config(doc->config, doc->format);
      doc->report_parse_errors = explicitly_named || doc->kind != model::DocKind::Unknown ||
                                 (!doc->config.errors.empty() && model::config_text_may_matter(t));
      break;
    }
    case parse::Format::Python: {
      if (!explicitly_named && !model::python_may_matter(t)) break;
      doc->kind = model::DocKind::PythonScript;
      doc->report_parse_errors = true;
      const parse::PythonTree tree = parse::PythonTree::parse(*doc->source);
      doc->python = model::extract_python_facts(*doc->source, tree);
      doc->kind = model::DocKind::PythonScript;
      doc->report_parse_errors = true;
      break;
    }
    case parse::Format::Shell:
      if (shell_may_matter(t)) doc->kind = model::DocKind::LaunchScript;
      break;
    case parse::Format::Other:
      break;
  }
  return doc;
}

namespace {

/// The overlay text for `path`, if any (compared as normalised relative paths).
const std::string* overlay_text(const std::map<std::string, std::string>& overlay, const std::string& path) {
  if (overlay.empty()) return nullptr;
  auto it = overlay.find(path);
  if (it == overlay.end()) it = overlay.find(fs::path(path).lexically_normal().generic_string());
  return it == overlay.end() ? nullptr : &it->second;
}

std::unique_ptr<model::Document> read_document(const std::string& path, bool explicitly_named,
                                               const std::map<std::string, std::string>& overlay) {
  if (const std::string* text = overlay_text(overlay, path)) return load_document(path, *text, explicitly_named);
  std::error_code ec;
  const fs::path p(path);
  auto fail = [&](std::string why) {
    auto doc = std::make_unique<model::Document>();
    doc->source = std::make_shared<source::SourceFile>(path, "");
    doc->read_error = std::move(why);
    doc->explicitly_named = explicitly_named;
    return doc;
  };
  const auto status = fs::status(p, ec);
  if (ec || !fs::exists(status)) return fail("no such file");
  if (fs::is_directory(status)) return fail("is a directory, not a file");
  const auto size = fs::file_size(p, ec);
  if (ec) return fail("cannot read: " + ec.message());
  if (size > kMaxFileBytes)
    return fail("file is larger than the " + std::to_string(kMaxFileBytes / (1024 * 1024)) + " MiB limit");
  std::ifstream in(p, std::ios::binary);
  if (!in) return fail(std::string("cannot open: ") + std::strerror(errno));
  std::string text;
  text.resize(static_cast<std::size_t>(size));
  in.read(text.data(), static_cast<std::streamsize>(size));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return load_document(path, std::move(text), explicitly_named);
}


}  // namespace

RunResult run(const rule::RuleTable& rules, const RunOptions& options) {
  RunResult result;
  const unsigned jobs = options.jobs != 0 ? options.jobs : std::max(1U, std::thread::hardware_concurrency());

  // 1. discover and load
  std::vector<std::string> explicit_files;
  std::vector<std::string> files;
  if (!options.read_stdin) files = discover(options.paths, options.exclude, options.respect_gitignore, &explicit_files);
  std::set<std::string> explicit_set(explicit_files.begin(), explicit_files.end());
  result.documents.resize(files.size());
  parallel_for(files.size(), jobs, [&](std::size_t i) {
    result.documents[i] = read_document(files[i], explicit_set.count(files[i]) != 0, options.overlay);
  });
  if (options.read_stdin) {
    result.documents.push_back(load_document(options.stdin_filename, options.stdin_text, true));
  }
  result.files_checked = result.documents.size();
  for (const auto& d : result.documents) result.sources[d->path()] = d->source;

  // 2. bind launch commands to the files they name (loading files outside the linted paths too)
  std::map<std::string, model::Document*> by_path;
  for (const auto& d : result.documents) by_path[d->path()] = d.get();
  auto find_or_load = [&](const std::vector<std::string>& candidates) -> const model::Document* {
    for (const std::string& c : candidates) {
      if (auto it = by_path.find(c); it != by_path.end()) return it->second->read_error ? nullptr : it->second;
    }
    for (const std::string& c : candidates) {
      std::error_code ec;
      if (!fs::is_regular_file(c, ec) && overlay_text(options.overlay, c) == nullptr) continue;
      result.documents.push_back(read_document(c, true, options.overlay));
      model::Document* d = result.documents.back().get();
      by_path[c] = d;
      result.sources[d->path()] = d->source;
      return d->read_error ? nullptr : d;
    }
    return nullptr;
  };
  std::vector<std::pair<const model::Document*, std::vector<model::LaunchCommand>>> commands;
  const std::size_t loaded = result.documents.size();
  for (std::size_t i = 0; i < loaded; ++i) {
    const model::Document* d = result.documents[i].get();
    if (d->kind != model::DocKind::LaunchScript) continue;
    const std::string name = fs::path(d->path()).filename().string();
    const bool makefile = name == "Makefile" || name == "makefile" || name == "GNUmakefile";
    commands.emplace_back(d, model::find_launch_commands(*d->source, makefile));
  }
  // CI workflow steps (GitHub Actions `run:`, GitLab CI `script:`): each shell string is read in place, the rest of
  // the file blanked, so positions stay those of the workflow file.
  std::vector<std::unique_ptr<source::SourceFile>> ci_sources;
  for (std::size_t i = 0; i < loaded; ++i) {
    const model::Document* d = result.documents[i].get();
    if (d->format != parse::Format::Yaml || d->root_map() == nullptr) continue;
    const std::string& path = d->path();
    const bool github = path.find(".github/workflows/") != std::string::npos;
    const bool gitlab = fs::path(path).filename() == ".gitlab-ci.yml";
    if (!github && !gitlab) continue;
    const std::string& text = d->source->text();
    std::string blanked(text.size(), ' ');
    for (std::size_t k = 0; k < text.size(); ++k) {
      if (text[k] == '\n' || text[k] == '\r') blanked[k] = text[k];
    }
    bool any = false;
    auto keep = [&](const parse::Node& n) {
      if (n.kind != parse::NodeKind::String) return;
      std::size_t b = n.region.begin_byte;
      std::size_t e = std::min(n.region.end_byte, text.size());
      if (b < e && (text[b] == '|' || text[b] == '>')) {
        while (b < e && text[b] != '\n') ++b;  // block scalar header
      } else if (b < e && (text[b] == '"' || text[b] == '\'')) {
        ++b;
        if (e > b) --e;
      }
      if (n.text.find("accelerate") == std::string::npos && n.text.find("torchrun") == std::string::npos &&
          n.text.find("deepspeed") == std::string::npos && n.text.find("run_train.sh") == std::string::npos &&
          n.text.find("python") == std::string::npos)
        return;
      for (std::size_t k = b; k < e; ++k) blanked[k] = text[k];
      any = true;
    };
    std::vector<const parse::Node*> stack{d->root_map()};
    while (!stack.empty()) {
      const parse::Node* n = stack.back();
      stack.pop_back();
      for (const parse::Entry& e : n->entries) {
        const bool step = (github && e.key.text == "run") || (gitlab && e.key.text == "script");
        if (step && e.value.kind == parse::NodeKind::String) keep(e.value);
        else if (step && e.value.kind == parse::NodeKind::Sequence) {
          for (const parse::Node& it : e.value.items) keep(it);
        } else {
          stack.push_back(&e.value);
        }
      }
      for (const parse::Node& it : n->items) stack.push_back(&it);
    }
    if (!any) continue;
    ci_sources.push_back(std::make_unique<source::SourceFile>(path, std::move(blanked)));
    auto cmds = model::find_launch_commands(*ci_sources.back(), false);
    if (!cmds.empty()) commands.emplace_back(d, std::move(cmds));
  }

  // Launches declared in the project config ([[launch]]): a command string is read as shell in place (the rest
  // of the file blanked, so positions stay those of the config file), a file list as `accelerate launch`.
  std::vector<std::unique_ptr<source::SourceFile>> declared_sources;
  for (const DeclaredLaunch& dl : options.declared_launches) {
    const model::Document* cfg = find_or_load({dl.config_path});
    if (cfg == nullptr) continue;
    std::vector<model::LaunchCommand> cmds;
    if (!dl.command.empty() && dl.command_end > dl.command_begin && dl.command_end <= cfg->source->text().size()) {
      std::string blanked = cfg->source->text();
      for (std::size_t k = 0; k < blanked.size(); ++k) {
        if ((k < dl.command_begin || k >= dl.command_end) && blanked[k] != '\n' && blanked[k] != '\r') blanked[k] = ' ';
      }
      declared_sources.push_back(std::make_unique<source::SourceFile>(cfg->path(), std::move(blanked)));
      cmds = model::find_launch_commands(*declared_sources.back(), false);
    } else if (!dl.files.empty()) {
      model::LaunchCommand lc;
      lc.tool = model::LaunchTool::AccelerateLaunch;
      for (const std::string& f : dl.files) {
        const auto ext = fs::path(f).extension().string();
        model::Word w{f, true, {}};
        if (ext == ".py") {
          lc.script = w;
        } else {
          model::Flag flag;
          flag.name = "config_file";
          flag.value = w;
          lc.flags.push_back(flag);
        }
      }
      if (!lc.script) lc.tool = model::LaunchTool::AccelerateLaunch;
      cmds.push_back(std::move(lc));
    }
    if (!cmds.empty()) commands.emplace_back(cfg, std::move(cmds));
  }
  std::vector<model::Launch> bound;
  for (const auto& [doc, cmds] : commands) {
    for (const model::LaunchCommand& cmd : cmds) {
      const model::FileRefs refs = model::referenced_files(*doc, cmd);
      model::BoundInputs in;
      in.script_doc = doc;
      in.command = &cmd;
      auto pick = [&](const std::vector<std::string>& c, model::DocKind kind) -> const model::Document* {
        const model::Document* d = find_or_load(c);
        return d != nullptr && d->kind == kind ? d : nullptr;
      };
      in.accelerate_config = pick(refs.accelerate_config, model::DocKind::AccelerateConfig);
      in.python = pick(refs.script, model::DocKind::PythonScript);
      in.trainer_fsdp_config = pick(refs.trainer_fsdp_config, model::DocKind::TrainerFsdpConfig);
      in.deepspeed = pick(refs.deepspeed, model::DocKind::DeepSpeedConfig);
      in.torchtitan = pick(refs.torchtitan, model::DocKind::TorchtitanConfig);
      in.axolotl = pick(refs.axolotl, model::DocKind::AxolotlConfig);
      in.llamafactory = pick(refs.llamafactory, model::DocKind::LlamaFactoryConfig);
      if (in.llamafactory != nullptr && in.deepspeed == nullptr && in.llamafactory->root_map() != nullptr) {
        // The YAML's own `deepspeed:` path, relative to where llamafactory-cli runs.
        if (const parse::Node* ds = in.llamafactory->root_map()->find("deepspeed");
            ds != nullptr && ds->kind == parse::NodeKind::String) {
          model::Word w{ds->text, true, ds->region};
          std::vector<std::string> c;
          const std::string dir = fs::path(doc->path()).parent_path().generic_string();
          c.push_back((fs::path(dir.empty() ? "." : dir) / ds->text).lexically_normal().generic_string());
          c.push_back(fs::path(ds->text).lexically_normal().generic_string());
          in.deepspeed = pick(c, model::DocKind::DeepSpeedConfig);
        }
      }
      bound.push_back(model::resolve_bound(in));
    }
  }
  result.files_checked = result.documents.size();

  // 3. launches: each file that no launch command binds is a launch of its own; a bound file is judged within
  //    its launches (a script's checkpointing silences its config's FSDP001, for example).
  std::set<const model::Document*> in_bound;
  for (const model::Launch& l : bound) in_bound.insert(l.documents.begin(), l.documents.end());
  for (const auto& d : result.documents) {
    if (d->kind != model::DocKind::Unknown && d->kind != model::DocKind::LaunchScript && !d->read_error &&
        in_bound.count(d.get()) == 0)
      result.launches.push_back(model::resolve_file(*d));
  }
  for (model::Launch& l : bound) result.launches.push_back(std::move(l));

  // 3. rules
  std::vector<const rule::RuleInfo*> enabled;
  for (const rule::RuleInfo& r : rules) {
    if (options.selection.enabled(r.code)) enabled.push_back(&r);
  }
  std::vector<std::unique_ptr<rule::Rule>> instances;
  for (const rule::RuleInfo* r : enabled) instances.push_back(r->factory());

  std::vector<std::vector<rule::Diagnostic>> per_doc(result.documents.size());
  parallel_for(result.documents.size(), jobs, [&](std::size_t i) {
    for (std::size_t k = 0; k < enabled.size(); ++k) {
      Collector ctx(*enabled[k], rules, options.selection, per_doc[i]);
      instances[k]->check_document(*result.documents[i], ctx);
    }
  });
  std::vector<std::vector<rule::Diagnostic>> per_launch(result.launches.size());
  parallel_for(result.launches.size(), jobs, [&](std::size_t i) {
    for (std::size_t k = 0; k < enabled.size(); ++k) {
      Collector ctx(*enabled[k], rules, options.selection, per_launch[i]);
      instances[k]->check_launch(result.launches[i], ctx);
    }
  });
  std::vector<rule::Diagnostic> all;
  for (auto& v : per_doc) std::move(v.begin(), v.end(), std::back_inserter(all));
  for (auto& v : per_launch) std::move(v.begin(), v.end(), std::back_inserter(all));

  // 4. dedupe (a file in several launches reports once)
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end(),
                        [](const rule::Diagnostic& a, const rule::Diagnostic& b) {
                          return a.code == b.code && a.path == b.path && a.region == b.region &&
                                 a.message == b.message;
                        }),
            all.end());

  // 5. suppressions: in-source comments, then per-file-ignores
  std::map<std::string, std::vector<rule::Suppression>> suppressions;
  for (const auto& d : result.documents) {
    if (d->read_error || d->kind == model::DocKind::Unknown) {
      if (!d->report_parse_errors) continue;
    }
    suppressions[d->path()] = rule::find_suppressions(*d->source, d->format == parse::Format::Json);
  }
  for (rule::Diagnostic& diag : all) {
    if (auto sev = severity_override(options.selection, diag.code)) diag.severity = *sev;
    auto it = suppressions.find(diag.path);
    if (it != suppressions.end()) {
      for (rule::Suppression& s : it->second) {
        const bool line_hit = s.scope == rule::Suppression::Scope::File || s.line == diag.region.begin.line ||
                              (s.own_line && s.line + 1 == diag.region.begin.line);
        if (!line_hit) continue;
        for (std::size_t c = 0; c < s.codes.size(); ++c) {
          if (rule::code_matches(s.codes[c], diag.code)) {
            s.used[c] = true;
            diag.suppressed = true;
          }
        }
      }
    }
    for (const PerFileIgnore& pfi : options.per_file_ignores) {
      if (!glob_match(pfi.glob, diag.path) && !glob_match("**/" + pfi.glob, diag.path)) continue;
      for (const std::string& c : pfi.codes) {
        if (rule::code_matches(c, diag.code)) diag.suppressed = true;
      }
    }
  }

  // 6. suppressions that suppressed nothing (LL004) and unknown codes (LL003) run last
  std::vector<rule::Diagnostic> late;
  for (const auto& d : result.documents) {
    auto it = suppressions.find(d->path());
    if (it == suppressions.end()) continue;
    for (const rule::Suppression& s : it->second) {
      for (std::size_t k = 0; k < enabled.size(); ++k) {
        Collector ctx(*enabled[k], rules, options.selection, late);
        instances[k]->check_suppression(*d, s, ctx);
      }
    }
  }
  for (rule::Diagnostic& diag : late) {
    if (auto sev = severity_override(options.selection, diag.code)) diag.severity = *sev;
  }
  std::move(late.begin(), late.end(), std::back_inserter(all));

  if (!options.show_suppressed) {
    all.erase(std::remove_if(all.begin(), all.end(), [](const rule::Diagnostic& d) { return d.suppressed; }),
              all.end());
  }
  std::sort(all.begin(), all.end());
  result.diagnostics = std::move(all);
  return result;
}

}  // namespace lint::driver
