#include "lint/bind/file_refs.hpp"

#include <algorithm>
#include <filesystem>

namespace lint::bind {

namespace {

namespace fs = std::filesystem;

std::string join_path(const std::string& base, const std::string& p) {
  if (p.empty()) return p;
  if (p.front() == '/' || base.empty() || base == ".") return fs::path(p).lexically_normal().generic_string();
  return (fs::path(base) / p).lexically_normal().generic_string();
}

}  // namespace

std::vector<std::string> path_candidates(const model::Document& script_doc, const parse::Word& w) {
  if (!w.known || w.text.empty()) return {};
  std::vector<std::string> out;
  std::string dir = fs::path(script_doc.path()).parent_path().generic_string();
  // A CI workflow's steps run from the repository root, the folder holding .github/.
  if (const auto at = script_doc.path().find(".github/workflows/"); at != std::string::npos) {
    dir = script_doc.path().substr(0, at);
    if (!dir.empty() && dir.back() == '/') dir.pop_back();
  }
  out.push_back(join_path(dir, w.text));
  const std::string plain = join_path("", w.text);
  if (plain != out.front()) out.push_back(plain);
  return out;
}

FileRefs referenced_files(const model::Document& script_doc, const parse::LaunchCommand& cmd) {
  using parse::LaunchTool;
  FileRefs refs;
  auto add = [&](std::vector<std::string>& into, const parse::Word& w) {
    for (auto& c : path_candidates(script_doc, w)) into.push_back(std::move(c));
  };
  if (const parse::Flag* f = parse::find_flag(cmd, "config_file"); f != nullptr && f->value)
    add(refs.accelerate_config, *f->value);
  if (cmd.script) {
    if (cmd.tool == LaunchTool::Axolotl) {
      add(refs.axolotl, *cmd.script);
    } else if (cmd.tool == LaunchTool::LlamaFactory) {
      add(refs.llamafactory, *cmd.script);
    } else if (cmd.module) {
      if (cmd.script->text == "axolotl.cli.train" && !cmd.script_args.empty()) {
        add(refs.axolotl, cmd.script_args.front());
      } else {
        parse::Word w = *cmd.script;
        for (char& c : w.text) {
          if (c == '.') c = '/';
        }
        w.text += ".py";
        add(refs.script, w);
      }
    } else {
      add(refs.script, *cmd.script);
      // LLaMA-Factory's FSDP recipe: `accelerate launch --config_file fsdp.yaml src/train.py config.yaml`, the
      // training YAML as the script's only positional argument (bound only if it reads as a LLaMA-Factory config).
      if (!cmd.script_args.empty() && cmd.script->text.ends_with("train.py") &&
          (cmd.script_args.front().text.ends_with(".yaml") || cmd.script_args.front().text.ends_with(".yml")))
        add(refs.llamafactory, cmd.script_args.front());
    }
  }
  const auto args = parse::script_arguments(cmd.script_args);
  if (const parse::ScriptArg* a = parse::find_arg(args, "fsdp_config");
      a != nullptr && a->value && !a->value->text.starts_with("{"))
    add(refs.trainer_fsdp_config, *a->value);
  for (const char* name : {"deepspeed", "deepspeed_config"}) {
    if (const parse::ScriptArg* a = parse::find_arg(args, name); a != nullptr && a->value)
      add(refs.deepspeed, *a->value);
  }
  // A YAML of TrainingArguments fields given to the script: positionally (HfArgumentParser.parse_yaml_file on
  // sys.argv[1]) or with TRL's `--config`.
  if (cmd.script && cmd.tool != LaunchTool::Axolotl && cmd.tool != LaunchTool::LlamaFactory) {
    if (!cmd.script_args.empty() && !cmd.script_args.front().text.starts_with("-")) {
      const parse::Word& w = cmd.script_args.front();
      if (w.text.ends_with(".yaml") || w.text.ends_with(".yml")) add(refs.trainer_args, w);
    }
    if (const parse::ScriptArg* a = parse::find_arg(args, "config"); a != nullptr && a->value)
      add(refs.trainer_args, *a->value);
  }
  // torchtitan's trainer started directly: `torchrun ... -m torchtitan.train --job.config_file x.toml`.
  const bool torchtitan_module = cmd.module && cmd.script && cmd.script->text == "torchtitan.train";
  if (cmd.tool == LaunchTool::TorchtitanRunTrain || torchtitan_module) {
    const parse::ScriptArg* a = parse::find_arg(args, "job.config_file");
    if (a != nullptr && a->value)
      add(refs.torchtitan, *a->value);
    else if (auto it = cmd.env.find("CONFIG_FILE"); it != cmd.env.end() && !torchtitan_module)
      add(refs.torchtitan, it->second);
  }
  return refs;
}

std::vector<std::string> llamafactory_deepspeed_candidates(const model::Document& script_doc,
                                                           const model::Document& yaml) {
  if (yaml.root_map() == nullptr) return {};
  const parse::Node* ds = yaml.root_map()->find("deepspeed");
  if (ds == nullptr || ds->kind != parse::NodeKind::String) return {};
  std::vector<std::string> c;
  const std::string dir = fs::path(script_doc.path()).parent_path().generic_string();
  c.push_back((fs::path(dir.empty() ? "." : dir) / ds->text).lexically_normal().generic_string());
  c.push_back(fs::path(ds->text).lexically_normal().generic_string());
  return c;
}

namespace {

std::vector<std::string> relative_candidates(const model::Document& script_doc, const model::Document& referrer,
                                             const std::string& path) {
  std::vector<std::string> c;
  auto add = [&](const std::string& dir) {
    std::string p = dir.empty() || path.starts_with("/") ? fs::path(path).lexically_normal().generic_string()
                                                         : (fs::path(dir) / path).lexically_normal().generic_string();
    if (std::find(c.begin(), c.end(), p) == c.end()) c.push_back(std::move(p));
  };
  add(fs::path(script_doc.path()).parent_path().generic_string());
  add(fs::path(referrer.path()).parent_path().generic_string());
  add("");
  return c;
}

bool is_training_arguments(std::string_view name) {
  return name == "TrainingArguments" || name == "Seq2SeqTrainingArguments" ||
         (name.ends_with("Config") && name.size() > 6 &&
          (name.starts_with("SFT") || name.starts_with("DPO") || name.starts_with("GRPO") || name.starts_with("KTO") ||
           name.starts_with("ORPO") || name.starts_with("CPO") || name.starts_with("Reward")));
}

}  // namespace

std::vector<std::string> named_deepspeed_candidates(const model::Document& script_doc,
                                                    const model::Document& referrer) {
  std::string named;
  if (referrer.kind == model::DocKind::AccelerateConfig && referrer.root_map() != nullptr) {
    const parse::Node* section = referrer.root_map()->find("deepspeed_config");
    const parse::Node* file =
        section != nullptr && section->is_map() ? section->find("deepspeed_config_file") : nullptr;
    if (file != nullptr && file->kind == parse::NodeKind::String) named = file->text;
  } else if (referrer.kind == model::DocKind::AxolotlConfig && referrer.root_map() != nullptr) {
    const parse::Node* ds = referrer.root_map()->find("deepspeed");
    if (ds != nullptr && ds->kind == parse::NodeKind::String) named = ds->text;
  } else if (referrer.kind == model::DocKind::PythonScript && referrer.python) {
    for (const model::PyCall& c : referrer.python->calls) {
      const model::PyArg* a = nullptr;
      if (is_training_arguments(c.name))
        a = c.keyword("deepspeed");
      else if (c.name == "DeepSpeedStrategy")
        a = c.keyword("config");
      else if (c.name == "initialize" && c.callee.starts_with("deepspeed"))
        a = c.keyword("config");
      if (a != nullptr && a->value.kind == model::ValueKind::String && a->value.text.ends_with(".json")) {
        named = a->value.text;
        break;
      }
    }
  }
  if (named.empty()) return {};
  return relative_candidates(script_doc, referrer, named);
}

}  // namespace lint::bind
