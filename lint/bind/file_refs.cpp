#include "lint/bind/file_refs.hpp"

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
  if (cmd.tool == LaunchTool::TorchtitanRunTrain) {
    const parse::ScriptArg* a = parse::find_arg(args, "job.config_file");
    if (a != nullptr && a->value)
      add(refs.torchtitan, *a->value);
    else if (auto it = cmd.env.find("CONFIG_FILE"); it != cmd.env.end())
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

}  // namespace lint::bind
