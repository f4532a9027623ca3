#include "lint/bind/file_refs.hpp"

#include <algorithm>
#include <filesystem>

#include "lint/bind/ci_workflow.hpp"
#include "lint/config/project_root.hpp"
#include "lint/source/read_boundary.hpp"

namespace lint::bind {

namespace {

namespace fs = std::filesystem;

std::string join_path(const std::string& base, const std::string& p) {
  if (p.empty()) return p;
  if (p.front() == '/' || base.empty() || base == ".") return fs::path(p).lexically_normal().generic_string();
  return (fs::path(base) / p).lexically_normal().generic_string();
}

}  // namespace

std::vector<std::string> path_candidates(const model::Document& script_doc, const parse::Word& word,
                                         const parse::WorkDir* workdir) {
  if (!word.known || word.text.empty()) return {};
  // Run from a CI workspace that holds the repository in a folder: `src/x.py` is the repository's `x.py`.
  parse::Word in_checkout;
  const bool under_checkout =
      workdir != nullptr && !workdir->checkout_path.empty() && word.text.starts_with(workdir->checkout_path + "/");
  if (under_checkout) {
    in_checkout = word;
    in_checkout.text.erase(0, workdir->checkout_path.size() + 1);
  }
  const parse::Word& w = under_checkout ? in_checkout : word;
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
  // root).
  // A candidate is spelled as the script's path is (absolute, or relative to the working directory), as the run's
  // documents are.
  const bool absolute = fs::path(script_doc.path()).is_absolute();
  auto spelled = [&](const fs::path& p) {
    const std::string normal = p.lexically_normal().generic_string();
    return absolute ? normal : config::shown_path(normal);
  };
  std::string dir = fs::path(script_doc.path()).parent_path().generic_string();
  std::vector<std::string> roots = config::project_roots(script_doc.path());
  // A CI workflow's steps run from the repository root, the folder holding .github/.
  const bool ci = script_doc.path().find(".github/workflows/") != std::string::npos;
  if (ci) {
    dir = script_doc.path().substr(0, script_doc.path().find(".github/workflows/"));
    if (!dir.empty() && dir.back() == '/') dir.pop_back();
  }
  // Without any root marker (a tree unpacked from an archive, no .git), the folder being linted that holds the
  // script (the run's boundary: source::boundary_folder_of) stands in for the project root, so the answer is the
  // same wherever launchlint runs; only outside a run (no boundary) the working directory does.
  const fs::path bound =
      roots.empty() && !ci ? source::boundary_folder_of(dir.empty() ? std::string(".") : dir) : fs::path();
  if (workdir != nullptr && !workdir->path.empty()) {
    if (workdir->path.front() == '/') {
      add(join_path(workdir->path, w.text));
    } else if (workdir->from_script_dir || ci) {
      add(join_path(join_path(dir, workdir->path), w.text));
    } else {
      for (const std::string& root : roots)
        add(spelled(fs::path(root) / workdir->path / w.text));
      if (roots.empty()) add(bound.empty() ? join_path(workdir->path, w.text) : spelled(bound / workdir->path / w.text));
    }
  }
  add(join_path(dir, w.text));
  // Then the folders between the script and the nearest project root, nearest first: scripts kept in a
  // subfolder are often run from a folder above it (`bash training_scripts/llama2/run.sh` from the folder that
  // holds main.py).
  // Without a root marker, the boundary folder (else the working directory) bounds the walk and is looked in last.
  if (!ci) {
    std::error_code ec;
    fs::path root;
    if (!roots.empty()) {
      root = fs::path(roots.front()).lexically_normal();
    } else {
      root = bound.empty() ? fs::current_path(ec).lexically_normal() : bound;
    }
    fs::path up = fs::absolute(dir.empty() ? fs::path(".") : fs::path(dir), ec).lexically_normal();
    // Compared with the root as the file system has them (links resolved), spelled as written.
    fs::path up_real = bound.empty() ? up : fs::weakly_canonical(up, ec);
    const std::string under = up_real.lexically_relative(root).generic_string();
    if (roots.empty() && (under.empty() || under.starts_with("..")))
      ec = std::make_error_code(std::errc::invalid_argument);
    for (int depth = 0; depth < 8 && !ec && up.has_parent_path() && up.parent_path() != up; ++depth) {
      up = up.parent_path();
      up_real = up_real.parent_path();
      if (up_real == root || up_real.generic_string().size() < root.generic_string().size()) break;
      add(spelled(up / w.text));
    }
  }
  for (const std::string& root : roots) add(spelled(fs::path(root) / w.text));
  if (roots.empty()) {
    if (!bound.empty())
      add(spelled(bound / w.text));
    else
      add(join_path("", w.text));
  }
  return out;
}

Workdirs command_workdirs(const model::Document& script_doc) {
  if (is_ci_workflow(script_doc)) return ci_workflow_workdirs(script_doc);
  if (script_doc.kind == model::DocKind::LaunchScript && script_doc.source) {
    const std::string name = fs::path(script_doc.path()).filename().string();
    const bool makefile = name == "Makefile" || name == "makefile" || name == "GNUmakefile" || name.ends_with(".mk");
    return parse::command_workdirs(*script_doc.source, makefile);
  }
  return {};
}

FileRefs referenced_files(const model::Document& script_doc, const parse::LaunchCommand& cmd) {
  const Workdirs workdirs = command_workdirs(script_doc);
  const auto wd = workdirs.find(cmd.region.begin_byte);
  return referenced_files(script_doc, cmd, wd == workdirs.end() ? nullptr : &wd->second);
}

FileRefs referenced_files(const model::Document& script_doc, const parse::LaunchCommand& cmd,
                          const parse::WorkDir* workdir) {
  using parse::LaunchTool;
  FileRefs refs;
  // Where the command runs, when its script or CI step says.
  if (workdir != nullptr) refs.workdir = *workdir;
  auto add = [&](std::vector<std::string>& into, const parse::Word& w, const char* role = nullptr) {
    std::vector<std::string> c = path_candidates(script_doc, w, workdir);
    if (role != nullptr && !c.empty()) refs.written.push_back(FileRefs::Written{role, w, c});
    for (auto& x : c) into.push_back(std::move(x));
  };
  if (const parse::Flag* f = parse::find_flag(cmd, "config_file"); f != nullptr && f->value)
    add(refs.accelerate_config, *f->value, "accelerate config");
  // `accelerate launch --deepspeed_config_file x.json` (accelerate commands/launch.py): the same JSON as the config's
  // deepspeed_config.deepspeed_config_file, relative to where the command runs.
  if (cmd.tool == LaunchTool::AccelerateLaunch) {
    if (const parse::Flag* f = parse::find_flag(cmd, "deepspeed_config_file"); f != nullptr && f->value)
      add(refs.deepspeed, *f->value, "DeepSpeed config");
  }
  // The deepspeed launcher's hostfile (a relative path: the default /job/hostfile and other absolute paths are
  // machine paths, not files of the project). Not listed as written: a missing hostfile is a warning of the runner.
  if (cmd.tool == LaunchTool::DeepSpeed) {
    for (const char* name : {"hostfile", "H"}) {
      if (const parse::Flag* f = parse::find_flag(cmd, name);
          f != nullptr && f->value && f->value->known && !f->value->text.empty() && f->value->text.front() != '/')
        add(refs.hostfile, *f->value);
    }
  }
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
    add(refs.trainer_fsdp_config, *a->value, "Trainer fsdp_config");
  for (const char* name : {"deepspeed", "deepspeed_config"}) {
    const parse::ScriptArg* a = parse::find_arg(args, name);
    if (a == nullptr || !a->value) continue;
    // A bare name (no folder, no extension) is a preset of the script's own, not a file: ms-swift's `--deepspeed
    // zero2` is its packaged `swift/config/zero2.json` (swift/arguments/sft_args.py, `_init_deepspeed`).
    const std::string& v = a->value->text;
    if (a->value->known && !v.empty() && v.find_first_of("/.{") == std::string::npos) continue;
    add(refs.deepspeed, *a->value, "DeepSpeed config");
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
      add(refs.torchtitan, *a->value, "torchtitan config");
    else if (auto it = cmd.env.find("CONFIG_FILE"); it != cmd.env.end() && !torchtitan_module)
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

namespace {

/// A copy of `node` without the children of a collection (Node::elided: its kind, tag and region stay exact).
parse::Node stub(const parse::Node& node) {
  if (node.is_scalar()) return node;
  parse::Node out;
  out.kind = node.kind;
  out.tag = node.tag;
  out.region = node.region;
  out.elided = true;
  return out;
}

}  // namespace

parse::Node binding_view(const parse::Node& root) {
  parse::Node view = stub(root);
  if (!root.is_map()) return view;
  for (const parse::Entry& e : root.entries) {
    if (e.key.text == "deepspeed") {
      view.entries.push_back(parse::Entry{e.key, stub(e.value)});
    } else if (e.key.text == "deepspeed_config") {
      parse::Entry kept{e.key, stub(e.value)};
      if (e.value.is_map()) {
        for (const parse::Entry& f : e.value.entries) {
          if (f.key.text == "deepspeed_config_file") kept.value.entries.push_back(parse::Entry{f.key, stub(f.value)});
        }
      }
      view.entries.push_back(std::move(kept));
    }
  }
  return view;
}

}  // namespace lint::bind
