#include "lint/bind/binder.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>

#include "lint/bind/ci_workflow.hpp"
#include "lint/bind/file_refs.hpp"
#include "lint/config/project_root.hpp"
#include "lint/model/classify.hpp"
#include "lint/model/python_pack.hpp"
#include "lint/parse/readers.hpp"
#include "lint/source/access_log.hpp"

namespace lint::bind {

DocumentSet::DocumentSet(std::vector<std::unique_ptr<model::Document>>& documents, Loader load)
    : documents_(documents), load_(std::move(load)) {
  by_path_.reserve(documents_.size());
  for (const auto& d : documents_) by_path_.push_back(d.get());
  std::stable_sort(by_path_.begin(), by_path_.end(),
                   [](const model::Document* a, const model::Document* b) { return a->path() < b->path(); });
}

DocumentSet::DocumentSet(std::vector<std::unique_ptr<model::Document>>& documents, Loader load,
                         const source::PathList* quiet, Loader revive)
    : DocumentSet(documents, std::move(load)) {
  quiet_ = quiet;
  revive_ = std::move(revive);
}

model::Document* DocumentSet::find(std::string_view path) const {
  const auto restore = [this](model::Document* d) {
    // A streaming run keeps scripts' facts packed (lint/model/python_pack.hpp): binding reads them unpacked.
    if (d->python || !d->packed_python) return d;
    model::restore_python(*d);
    restored_.push_back(d);
    return d;
  };
  if (const auto it = loaded_.find(path); it != loaded_.end()) return restore(it->second);
  const auto after = std::upper_bound(by_path_.begin(), by_path_.end(), path,
                                      [](std::string_view p, const model::Document* d) { return p < d->path(); });
  if (after != by_path_.begin() && (*std::prev(after))->path() == path) return restore(*std::prev(after));
  if (quiet_ == nullptr || !revive_ || !quiet_->index_of(path)) return nullptr;
  // A file of the run kept as its path alone: read again as it was read, and a document of the run from now on.
  std::string p(path);
  documents_.push_back(revive_(p));
  model::Document* d = documents_.back().get();
  loaded_.emplace(std::move(p), d);
  return d;
}

namespace {

/// Found by the walk and left unparsed by the pre-filter (model::python_may_matter).
bool left_unparsed(const model::Document& d) {
  return d.format == parse::Format::Python && d.kind == model::DocKind::Unknown && !d.python && !d.read_error;
}

}  // namespace

model::Document* DocumentSet::unparsed_target(const std::vector<std::string>& candidates) const {
  for (const std::string& c : candidates) {
    model::Document* d = find(c);
    if (d == nullptr) continue;
    return left_unparsed(*d) ? d : nullptr;
  }
  return nullptr;
}

void DocumentSet::parse_in_place(model::Document& d) const {
  // A launch runs it, so it is read now, as a named file is. The document keeps its place (and address) in the run.
  std::unique_ptr<model::Document> parsed = load_(d.path());
  const bool named = d.explicitly_named;
  d = std::move(*parsed);
  d.explicitly_named = named;
}

const model::Document* DocumentSet::find_or_load(const std::vector<std::string>& candidates) {
  for (const std::string& c : candidates) {
    model::Document* d = find(c);
    if (d == nullptr) continue;
    if (left_unparsed(*d)) parse_in_place(*d);
    return d->read_error ? nullptr : d;
  }
  for (const std::string& c : candidates) {
    std::error_code ec;
    source::note_access(c);
    if (!std::filesystem::is_regular_file(c, ec)) continue;
    documents_.push_back(load_(c));
    model::Document* d = documents_.back().get();
    loaded_[c] = d;
    return d->read_error ? nullptr : d;
  }
  return nullptr;
}

const model::Document* DocumentSet::find(const std::vector<std::string>& candidates) const {
  for (const std::string& c : candidates) {
    if (const model::Document* d = find(std::string_view(c))) return d->read_error ? nullptr : d;
  }
  return nullptr;
}

std::deque<CommandSite> collect_commands(DocumentSet& docs, const std::vector<DeclaredLaunch>& declared, bool take) {
  std::deque<CommandSite> out;
  // Documents loaded while collecting (a declared launch's project config) are not searched for commands.
  const std::size_t loaded = docs.documents().size();
  for (std::size_t i = 0; i < loaded; ++i) {
    model::Document* d = docs.documents()[i].get();
    if (d->kind != model::DocKind::LaunchScript) continue;
    if (take) {
      for (parse::LaunchCommand& c : d->launch_commands.take()) out.push_back(CommandSite{d, std::move(c)});
    } else {
      for (const parse::LaunchCommand& c : d->launch_commands) out.push_back(CommandSite{d, c});
    }
  }
  for (std::size_t i = 0; i < loaded; ++i) {
    const model::Document* d = docs.documents()[i].get();
    for (parse::LaunchCommand& c : ci_workflow_commands(*d)) out.push_back(CommandSite{d, std::move(c)});
  }
  for (const DeclaredLaunch& dl : declared) {
    const model::Document* cfg = docs.find_or_load({dl.config_path});
    if (cfg == nullptr) continue;
    for (parse::LaunchCommand& c : declared_commands(dl, *cfg)) out.push_back(CommandSite{cfg, std::move(c)});
  }
  return out;
}

namespace {

namespace fs = std::filesystem;

/// How far a thin entry point is followed: import levels, and files looked at in all.
constexpr int kImportLevels = 3;
constexpr std::size_t kImportFiles = 32;

/// The modules a Python file imports and calls into (`from src.train import main` with `main()` called), read with
/// the Python parser; never executed. Imports the file does not call are not followed.
std::vector<std::string> imported_modules(const model::Document& d) {
  std::optional<model::PythonFacts> parsed;
  if (!d.python) {
    parsed = model::read_python_facts(*d.source);
    d.source->release_again();  // read for its imports alone: given back, as when the run loaded it
  }
  const model::PythonFacts& py = d.python ? *d.python : *parsed;
  std::vector<std::string> out;
  for (const auto& [local, qualified] : py.imports) {
    if (qualified.empty() || std::find(out.begin(), out.end(), qualified) != out.end()) continue;
    if (py.calls_into(qualified)) out.push_back(qualified);
  }
  return out;
}

/// The most dotted parts of a module name that binding looks for as files (docs/limits.md).
constexpr std::size_t kMaxModuleParts = 64;

/// The files a module `a.b.c` (or the name `c` imported from module `a.b`) can be, under each base folder. `whole`:
/// only the module `a.b.c` itself, not a package above it.
std::vector<std::string> module_candidates(const std::string& qualified, const std::vector<std::string>& bases,
                                           bool whole = false) {
  // Each package above the module is tried, so a name of K parts costs K paths of up to K parts: a module deeper
  // than kMaxModuleParts (`import a.a.a...` ten thousand times) is no file of a project, and is not looked for.
  if (static_cast<std::size_t>(std::count(qualified.begin(), qualified.end(), '.')) >= kMaxModuleParts) return {};
  std::vector<std::string> parts;
  std::size_t pos = 0;
  while (pos <= qualified.size()) {
    std::size_t dot = qualified.find('.', pos);
    if (dot == std::string::npos) dot = qualified.size();
    parts.push_back(qualified.substr(pos, dot - pos));
    pos = dot + 1;
  }
  std::vector<std::string> out;
  for (const std::string& base : bases) {
    for (std::size_t k = parts.size(); k >= (whole ? parts.size() : 1); --k) {
      fs::path rel;
      for (std::size_t i = 0; i < k; ++i) rel /= parts[i];
      for (const fs::path& f : {fs::path(rel.string() + ".py"), rel / "__init__.py"}) {
        // Spelled as the run's documents are (the base as given), and as the binder shows project roots.
        const fs::path full = (fs::path(base) / f).lexically_normal();
        for (std::string c : {full.generic_string(), config::shown_path(full.generic_string())}) {
          if (!c.empty() && c != "." && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(std::move(c));
        }
      }
    }
  }
  return out;
}

/// Whether a module builds the training itself: the Trainer or its arguments, an Accelerator, FSDP, DeepSpeed,
/// Lightning's Trainer or an argument parser for them. A module that only mentions them (callbacks, utilities) is
/// not the entry point.
bool builds_training(const model::PythonFacts& py) {
  for (const model::PyCall& c : py.calls) {
    const std::string& n = c.name;
    if (n == "TrainingArguments" || n == "Seq2SeqTrainingArguments" || n.ends_with("Trainer") ||
        (n.ends_with("Config") && c.callee.starts_with("trl.")) || n == "Accelerator" || n == "HfArgumentParser" ||
        n == "TrlParser" || n == "fully_shard" || n == "FullyShardedDataParallel" || n == "FSDPStrategy" ||
        n == "DeepSpeedStrategy" || (n == "initialize" && c.callee.starts_with("deepspeed")))
      return true;
  }
  return false;
}

bool is_python_path(const std::string& p) {
  return p.ends_with(".py");
}

/// Where the imports of a launched script are looked for: its folder, the launch command's folder, the project roots.
std::vector<std::string> import_bases(const model::Document& entry, const model::Document& command_doc) {
  std::vector<std::string> bases{fs::path(entry.path()).parent_path().generic_string(),
                                 fs::path(command_doc.path()).parent_path().generic_string()};
  for (const std::string& r : config::project_roots(entry.path())) bases.push_back(r);
  return bases;
}

/// A launched script that only imports and calls the real entry point (`from src.train import main; main()`): the
/// module of the same project that holds the training code, found by following the script's imports inside the
/// project (the loader reads nothing outside it) for a bounded number of levels. nullptr when none is found.
const model::Document* follow_entry_point(DocumentSet& docs, const model::Document& entry,
                                          const model::Document& command_doc) {
  const std::vector<std::string> bases = import_bases(entry, command_doc);
  std::vector<const model::Document*> level{&entry};
  std::set<const model::Document*> seen{&entry};
  std::size_t looked = 0;
  for (int depth = 0; depth < kImportLevels && !level.empty(); ++depth) {
    std::vector<const model::Document*> next;
    for (const model::Document* d : level) {
      for (const std::string& m : imported_modules(*d)) {
        if (looked >= kImportFiles) return nullptr;
        std::vector<std::string> c = import_candidates(m, d->path(), bases, false);
        if (c.empty()) continue;
        std::error_code ec;
        c.erase(std::remove_if(c.begin(), c.end(),
                               [&ec](const std::string& p) {
                                 source::note_access(p);  // the result cache keys on its presence
                                 return !fs::is_regular_file(p, ec);
                               }),
                c.end());
        if (c.empty()) continue;
        ++looked;
        const model::Document* found = docs.find_or_load(c);
        if (found == nullptr || !is_python_path(found->path()) || !seen.insert(found).second) continue;
        if (found->python && found->kind == model::DocKind::PythonScript && builds_training(*found->python))
          return found;
        next.push_back(found);
      }
    }
    level = std::move(next);
  }
  return nullptr;
}

/// How many modules of the project a training script's imports bring into its launch.
constexpr std::size_t kImportedModules = 8;

/// The modules of the project (documents of the run, as the pre-filter left them) that the training script
/// imports a name from and calls (`from model import LlamaLoraModel` with `LlamaLoraModel()` called; `from .data
/// import build`), one level. A module imported whole (`import utils`) is not followed: which of its functions
/// run is not known. A module the pre-filter did not parse mentions nothing a rule reads there (model::
/// python_may_matter: `device_map`, `load_in_`), except an argument parser the called function may build (LCH007:
/// `parse_options()` in `utils/options.py`): such a module is read here for it, and stays unparsed in the run.
std::vector<model::ImportedModule> imported_from(const DocumentSet& docs, const model::Document& script,
                                                 const model::Document& command_doc) {
  std::vector<model::ImportedModule> out;
  if (!script.python) return out;
  const std::vector<std::string> bases = import_bases(script, command_doc);
  for (const std::string& m : imported_modules(script)) {
    // `from a.b import N` is imported as `a.b.N`: the module `a.b` holds N (a module imported whole has no dot).
    const std::size_t dot = m.rfind('.');
    if (dot == std::string::npos || dot + 1 == m.size() || m.find_first_not_of('.') >= dot) continue;
    const std::string name = m.substr(dot + 1);
    const model::Document* d = docs.find(import_candidates(std::string_view(m).substr(0, dot), script.path(), bases, true));
    if (d == nullptr || d == &script) continue;
    const bool parsed = d->python && d->kind == model::DocKind::PythonScript;
    if (!parsed) {
      if (!left_unparsed(*d) || !d->source) continue;
      const bool builds_parser = d->source->text().find("ArgumentParser") != std::string::npos;
      if (!builds_parser) {
        d->source->release_again();
        continue;
      }
    }
    auto it = std::find_if(out.begin(), out.end(), [d](const model::ImportedModule& i) { return i.document == d; });
    if (it == out.end()) {
      if (out.size() >= kImportedModules) break;
      model::ImportedModule module{d, {}, nullptr};
      if (!parsed) {
        module.read_for_parser = std::make_shared<const model::PythonFacts>(model::read_python_facts(*d->source));
        d->source->release_again();  // read for its parser alone: given back, as when the run loaded it
      }
      out.push_back(std::move(module));
      it = out.end() - 1;
    }
    if (std::find(it->names.begin(), it->names.end(), name) == it->names.end()) it->names.push_back(name);
  }
  return out;
}

}  // namespace

/// The files an import `m` of `importer` can be (module_candidates): a relative import (`from .train import main`)
/// starts from the importing file's package, any other under each base folder.
std::vector<std::string> import_candidates(std::string_view m, const std::string& importer,
                                           const std::vector<std::string>& bases, bool whole) {
  if (m.empty()) return {};
  if (m.front() != '.') {
    // A package the importing file lies in (`basicsr/train.py` importing `basicsr.utils.options`) is found from the
    // folder above it, as Python finds it with that folder on its path (the project installed, or PYTHONPATH).
    std::vector<std::string> with_package = bases;
    const std::string_view top = m.substr(0, m.find('.'));
    fs::path dir = fs::path(importer).parent_path();
    for (int up = 0; up < 4 && !dir.empty() && dir.has_filename(); ++up, dir = dir.parent_path()) {
      if (dir.filename().generic_string() != top) continue;
      const std::string above = dir.parent_path().generic_string();
      if (std::find(with_package.begin(), with_package.end(), above) == with_package.end())
        with_package.push_back(above.empty() ? std::string(".") : above);
      break;
    }
    return module_candidates(std::string(m), with_package, whole);
  }
  const std::size_t dots = m.find_first_not_of('.');
  if (dots == std::string_view::npos) return {};
  fs::path base = fs::path(importer).parent_path();
  for (std::size_t up = 1; up < dots; ++up) base = base.parent_path();
  return module_candidates(std::string(m.substr(dots)), {base.generic_string()}, whole);
}

model::BoundInputs bind_command(DocumentSet& docs, const CommandSite& site) {
  return bind_command(docs, site, referenced_files(*site.document, site.command));
}

model::BoundInputs bind_command(DocumentSet& docs, const CommandSite& site, const FileRefs& refs) {
  model::BoundInputs in;
  in.script_doc = site.document;
  in.command = &site.command;
  in.workdir = refs.workdir;
  auto pick = [&](const std::vector<std::string>& c, model::DocKind kind) -> const model::Document* {
    const model::Document* d = docs.find_or_load(c);
    return d != nullptr && d->kind == kind ? d : nullptr;
  };
  in.accelerate_config = pick(refs.accelerate_config, model::DocKind::AccelerateConfig);
  in.python = pick(refs.script, model::DocKind::PythonScript);
  in.trainer_fsdp_config = pick(refs.trainer_fsdp_config, model::DocKind::TrainerFsdpConfig);
  in.deepspeed = pick(refs.deepspeed, model::DocKind::DeepSpeedConfig);
  in.torchtitan = pick(refs.torchtitan, model::DocKind::TorchtitanConfig);
  in.axolotl = pick(refs.axolotl, model::DocKind::AxolotlConfig);
  in.llamafactory = pick(refs.llamafactory, model::DocKind::LlamaFactoryConfig);
  in.trainer_args = pick(refs.trainer_args, model::DocKind::TrainerArgsConfig);
  in.hostfile = refs.hostfile.empty() ? nullptr : docs.find_or_load(refs.hostfile);
  // A LLaMA-Factory or axolotl config drives its launch: the script is the tool's own entry point.
  const bool config_driven = in.llamafactory != nullptr || in.axolotl != nullptr;
  if (const model::Document* entry = config_driven ? nullptr : docs.find_or_load(refs.script);
      entry != nullptr && is_python_path(entry->path())) {
    const bool thin = in.python == nullptr || !model::python_may_matter(entry->source->text());
    entry->source->release_again();  // read back for the pre-filter alone: given back (resolving reads it again)
    if (const model::Document* real = thin ? follow_entry_point(docs, *entry, *site.document) : nullptr)
      in.python = real;
  }
  if (in.python != nullptr) in.imported = imported_from(docs, *in.python, *site.document);
  if (in.llamafactory != nullptr && in.deepspeed == nullptr) {
    // The YAML's own `deepspeed:` path, relative to where llamafactory-cli runs.
    const auto c = llamafactory_deepspeed_candidates(*site.document, *in.llamafactory);
    if (!c.empty()) in.deepspeed = pick(c, model::DocKind::DeepSpeedConfig);
  }
  // The JSON another file of the launch names: the accelerate config's deepspeed_config_file, axolotl's
  // `deepspeed:`, the script's TrainingArguments(deepspeed=) / DeepSpeedStrategy(config=) / deepspeed.initialize.
  for (const model::Document* referrer : {in.accelerate_config, in.axolotl, in.python}) {
    if (in.deepspeed != nullptr || referrer == nullptr) continue;
    const auto c = named_deepspeed_candidates(*site.document, *referrer);
    if (!c.empty()) in.deepspeed = pick(c, model::DocKind::DeepSpeedConfig);
  }
  return in;
}

}  // namespace lint::bind
