#include "lint/bind/binder.hpp"

#include <filesystem>

#include "lint/bind/ci_workflow.hpp"
#include "lint/bind/file_refs.hpp"
#include "lint/source/access_log.hpp"

namespace lint::bind {

DocumentSet::DocumentSet(std::vector<std::unique_ptr<model::Document>>& documents, Loader load)
    : documents_(documents), load_(std::move(load)) {
  for (const auto& d : documents_) by_path_[d->path()] = d.get();
}

const model::Document* DocumentSet::find_or_load(const std::vector<std::string>& candidates) {
  for (const std::string& c : candidates) {
    auto it = by_path_.find(c);
    if (it == by_path_.end()) continue;
    model::Document* d = it->second;
    if (d->format == parse::Format::Python && d->kind == model::DocKind::Unknown && !d->python && !d->read_error) {
      // Found by the walk and left unparsed by the pre-filter (model::python_may_matter): a launch runs it, so
      // it is read now, as a named file is. The document keeps its place (and address) in the run.
      std::unique_ptr<model::Document> parsed = load_(c);
      const bool named = d->explicitly_named;
      *d = std::move(*parsed);
      d->explicitly_named = named;
    }
    return d->read_error ? nullptr : d;
  }
  for (const std::string& c : candidates) {
    std::error_code ec;
    source::note_access(c);
    if (!std::filesystem::is_regular_file(c, ec)) continue;
    documents_.push_back(load_(c));
    model::Document* d = documents_.back().get();
    by_path_[c] = d;
    return d->read_error ? nullptr : d;
  }
  return nullptr;
}

std::deque<CommandSite> collect_commands(DocumentSet& docs, const std::vector<DeclaredLaunch>& declared) {
  std::deque<CommandSite> out;
  // Documents loaded while collecting (a declared launch's project config) are not searched for commands.
  const std::size_t loaded = docs.documents().size();
  for (std::size_t i = 0; i < loaded; ++i) {
    const model::Document* d = docs.documents()[i].get();
    if (d->kind != model::DocKind::LaunchScript) continue;
    for (const parse::LaunchCommand& c : d->launch_commands) out.push_back(CommandSite{d, c});
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

model::BoundInputs bind_command(DocumentSet& docs, const CommandSite& site) {
  const FileRefs refs = referenced_files(*site.document, site.command);
  model::BoundInputs in;
  in.script_doc = site.document;
  in.command = &site.command;
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
