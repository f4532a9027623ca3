#include "lint/bind/file_refs.hpp"

#include <algorithm>
#include <filesystem>

#include "lint/bind/ci_workflow.hpp"
#include "lint/config/project_root.hpp"

namespace lint::bind {

namespace {

namespace fs = std::filesystem;

std::string join_path(const std::string& base, const std::string& p) {
  if (p.empty()) return p;
  if (p.front() == '/' || base.empty() || base == ".") return fs::path(p).lexically_normal().generic_string();
  return (fs::path(base) / p).lexically_normal().generic_string();
}

}  // namespace

std::vector<std::string> path_candidates(const model::Document& script_doc, const parse::Word& w,
                                         const parse::WorkDir* workdir) {
  if (!w.known || w.text.empty()) return {};
  std::vector<std::string> out;
  auto add = [&](const std::string& c) {
    if (!c.empty() && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  };
  if (w.text.front() == '/') {
    add(join_path("", w.text));
    return out;
  }
  // Where the command runs, as the launch implies it, never the working directory of launchlint: the folder a
  // `cd` earlier in the script or a CI step's working-directory names, the script's folder (make runs recipes
  // there), then each project root above the script, nearest first (scripts are usually run from the repository
  // root). Only a project without any root marker falls back to the working directory.
  std::string dir = fs::path(script_doc.path()).parent_path().generic_string();
  std::vector<std::string> roots = config::project_roots(script_doc.path());
  // A CI workflow's steps run from the repository root, the folder holding .github/.
  const bool ci = script_doc.path().find(".github/workflows/") != std::string::npos;
  if (ci) {
    dir = script_doc.path().substr(0, script_doc.path().find(".github/workflows/"));
    if (!dir.empty() && dir.back() == '/') dir.pop_back();
  }
  if (workdir != nullptr && !workdir->path.empty()) {
    if (workdir->path.front() == '/') {
      add(join_path(workdir->path, w.text));
    } else if (workdir->from_script_dir || ci) {
      add(join_path(join_path(dir, workdir->path), w.text));
    } else {
      for (const std::string& root : roots)
        add(config::shown_path((fs::path(root) / workdir->path / w.text).lexically_normal().generic_string()));
      if (roots.empty()) add(join_path(workdir->path, w.text));
    }
  }
  add(join_path(dir, w.text));
  for (const std::string& root : roots)
    add(config::shown_path((fs::path(root) / w.text).lexically_normal().generic_string()));
  if (roots.empty()) add(join_path("", w.text));
  return out;
}

FileRefs referenced_files(const model::Document& script_doc, const parse::LaunchCommand& cmd) {
  using parse::LaunchTool;
  FileRefs refs;
  // Where the command runs, when its script or CI step says.
  std::map<std::size_t, parse::WorkDir> workdirs;
  if (is_ci_workflow(script_doc)) {
    workdirs = ci_workflow_workdirs(script_doc);
  } else if (script_doc.kind == model::DocKind::LaunchScript && script_doc.source) {
    const std::string name = fs::path(script_doc.path()).filename().string();
    const bool makefile = name == "Makefile" || name == "makefile" || name == "GNUmakefile" || name.ends_with(".mk");
    workdirs = parse::command_workdirs(*script_doc.source, makefile);
  }
  const auto wd = workdirs.find(cmd.region.begin_byte);
  const parse::WorkDir* workdir = wd == workdirs.end() ? nullptr : &wd->second;
  auto add = [&](std::vector<std::string>& into, const parse::Word& w, const char* role) {
    std::vector<std::string> c = path_candidates(script_doc, w, workdir);
    if (role != nullptr && !c.empty()) refs.written.push_back(FileRefs::Written{role, w, c});
    for (auto& x : c) into.push_back(std::move(x));
  };
  if (const parse::Flag* f = parse::find_flag(cmd, "config_file"); f != nullptr && f->value)
    add(refs.accelerate_config, *f->value, "accelerate config");
  if (cmd.script) {
    if (cmd.tool == LaunchTool::Axolotl) {
      add(refs.axolotl, *cmd.script, "axolotl config");
    } else if (cmd.tool == LaunchTool::LlamaFactory) {
      add(refs.llamafactory, *cmd.script, "LLaMA-Factory config");
    } else if (cmd.module) {
      if (cmd.script->text == "axolotl.cli.train" && !cmd.script_args.empty()) {
        add(refs.axolotl, cmd.script_args.front(), "axolotl config");
      } else {
        parse::Word w = *cmd.script;
        for (char& c : w.text) {
          if (c == '.') c = '/';
        }
        w.text += ".py";
        add(refs.script, w, nullptr);  // a module may be an installed package
      }
    } else {
      add(refs.script, *cmd.script, "training script");
    }
  }
  const auto args = parse::script_arguments(cmd.script_args);
  if (const parse::ScriptArg* a = parse::find_arg(args, "fsdp_config");
      a != nullptr && a->value && !a->value->text.starts_with("{"))
    add(refs.trainer_fsdp_config, *a->value, "Trainer fsdp_config");
  for (const char* name : {"deepspeed", "deepspeed_config"}) {
    if (const parse::ScriptArg* a = parse::find_arg(args, name); a != nullptr && a->value)
      add(refs.deepspeed, *a->value, "DeepSpeed config");
  }
  if (cmd.tool == LaunchTool::TorchtitanRunTrain) {
    const parse::ScriptArg* a = parse::find_arg(args, "job.config_file");
    if (a != nullptr && a->value)
      add(refs.torchtitan, *a->value, "torchtitan config");
    else if (auto it = cmd.env.find("CONFIG_FILE"); it != cmd.env.end())
      add(refs.torchtitan, it->second, "torchtitan config");
  }
  return refs;
}

std::vector<std::string> llamafactory_deepspeed_candidates(const model::Document& script_doc,
                                                           const model::Document& yaml) {
  if (yaml.root_map() == nullptr) return {};
  const parse::Node* ds = yaml.root_map()->find("deepspeed");
  if (ds == nullptr || ds->kind != parse::NodeKind::String) return {};
  return path_candidates(script_doc, parse::Word{ds->text, true, ds->region}, nullptr);
}

}  // namespace lint::bind
