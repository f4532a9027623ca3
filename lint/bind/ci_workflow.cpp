#include "lint/bind/ci_workflow.hpp"

#include <algorithm>
#include <filesystem>
#include <tuple>

namespace lint::bind {

namespace {

bool is_github(const std::string& path) {
  return path.find(".github/workflows/") != std::string::npos;
}
bool is_gitlab(const std::string& path) {
  return std::filesystem::path(path).filename() == ".gitlab-ci.yml";
}

/// `${{ github.workspace }}` and `${{ github.workspace }}/x` as workspace-relative folders ("" and "x").
std::string workspace_relative(std::string dir) {
  for (std::string_view ws :
       {"${{ github.workspace }}", "${{github.workspace}}", "$GITHUB_WORKSPACE", "${GITHUB_WORKSPACE}"}) {
    if (dir.starts_with(ws) && (dir.size() == ws.size() || dir[ws.size()] == '/')) {
      dir.erase(0, std::min(dir.size(), ws.size() + 1));
      break;
    }
  }
  while (dir.starts_with("./")) dir.erase(0, 2);
  while (!dir.empty() && dir.back() == '/') dir.pop_back();
  return dir == "." ? "" : dir;
}

/// The folder a job checks its own repository out into: a step `uses: actions/checkout@...` with `with: path:`
/// and no `repository:` (another repository's checkout does not move this one). "" for the workspace itself.
std::string own_checkout_path(const parse::Node& job) {
  const parse::Node* steps = job.is_map() ? job.find("steps") : nullptr;
  if (steps == nullptr || steps->kind != parse::NodeKind::Sequence) return {};
  for (const parse::Node& step : steps->items) {
    const parse::Node* uses = step.is_map() ? step.find("uses") : nullptr;
    if (uses == nullptr || uses->kind != parse::NodeKind::String || !uses->text.starts_with("actions/checkout"))
      continue;
    const parse::Node* with = step.find("with");
    if (with == nullptr || !with->is_map() || with->find("repository") != nullptr) continue;
    const parse::Node* path = with->find("path");
    if (path != nullptr && path->kind == parse::NodeKind::String) return workspace_relative(path->text);
  }
  return {};
}

}  // namespace

bool is_ci_workflow(const model::Document& doc) {
  return doc.format == parse::Format::Yaml && doc.root_map() != nullptr &&
         (is_github(doc.path()) || is_gitlab(doc.path()));
}

namespace {

std::vector<parse::LaunchCommand> commands_and_workdirs(const model::Document& doc,
                                                        std::map<std::size_t, parse::WorkDir>* workdirs) {
  if (!is_ci_workflow(doc)) return {};
  const bool github = is_github(doc.path());
  const bool gitlab = is_gitlab(doc.path());
  const std::string& text = doc.source->text();
  std::string blanked(text.size(), ' ');
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (text[k] == '\n' || text[k] == '\r') blanked[k] = text[k];
  }
  bool any = false;
  // Byte ranges of the kept steps and the working-directory each runs in (GitHub: the step's own, else the
  // job's or the workflow's `defaults: run: working-directory`), relative to the repository root.
  // A job that checks the repository out into a folder of the workspace: (begin, end, folder) of its steps.
  std::vector<std::tuple<std::size_t, std::size_t, std::string>> step_checkouts;
  std::vector<std::tuple<std::size_t, std::size_t, std::string>> step_dirs;
  auto keep = [&](const parse::Node& n, const std::string& workdir, const std::string& checkout) {
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
        n.text.find("python") == std::string::npos && n.text.find("curl") == std::string::npos &&
        n.text.find("wget") == std::string::npos)
      return;
    for (std::size_t k = b; k < e; ++k) blanked[k] = text[k];
    if (!workdir.empty()) step_dirs.emplace_back(b, e, workdir);
    if (!checkout.empty()) step_checkouts.emplace_back(b, e, checkout);
    any = true;
  };
  auto default_dir = [](const parse::Node& n, const std::string& inherited) {
    const parse::Node* defaults = n.is_map() ? n.find("defaults") : nullptr;
    const parse::Node* run = defaults != nullptr && defaults->is_map() ? defaults->find("run") : nullptr;
    const parse::Node* wd = run != nullptr && run->is_map() ? run->find("working-directory") : nullptr;
    return wd != nullptr && wd->kind == parse::NodeKind::String ? wd->text : inherited;
  };
  struct Pending {
    const parse::Node* node;
    std::string dir;
    std::string checkout;
  };
  std::vector<Pending> stack{{doc.root_map(), default_dir(*doc.root_map(), ""), ""}};
  while (!stack.empty()) {
    const auto [n, inherited, inherited_checkout] = stack.back();
    stack.pop_back();
    std::string checkout = inherited_checkout;
    if (github) {
      if (std::string own = own_checkout_path(*n); !own.empty()) checkout = std::move(own);
    }
    const std::string here = github ? default_dir(*n, inherited) : inherited;
    std::string step_dir = here;
    if (github && n->is_map()) {
      if (const parse::Node* wd = n->find("working-directory"); wd != nullptr && wd->kind == parse::NodeKind::String)
        step_dir = wd->text;
    }
    for (const parse::Entry& e : n->entries) {
      const bool step = (github && e.key.text == "run") || (gitlab && e.key.text == "script");
      if (step && e.value.kind == parse::NodeKind::String) {
        keep(e.value, step_dir, checkout);
      } else if (step && e.value.kind == parse::NodeKind::Sequence) {
        for (const parse::Node& it : e.value.items) keep(it, step_dir, checkout);
      } else {
        stack.push_back({&e.value, here, checkout});
      }
    }
    for (const parse::Node& it : n->items) stack.push_back({&it, here, checkout});
  }
  if (!any) return {};
  // Positions are computed from the blanked copy, whose lines and columns are those of the workflow file.
  const source::SourceFile steps(doc.path(), std::move(blanked));
  std::vector<parse::LaunchCommand> commands = parse::find_launch_commands(steps, false);
  if (workdirs == nullptr) return commands;
  *workdirs = parse::command_workdirs(steps, false);  // `cd` within the steps
  for (const parse::LaunchCommand& c : commands) {
    const std::size_t at = c.region.begin_byte;
    for (const auto& [b, e, dir] : step_dirs) {
      if (at < b || at >= e) continue;
      auto it = workdirs->find(at);
      if (it == workdirs->end())
        (*workdirs)[at] = parse::WorkDir{dir, false, {}};
      else if (!it->second.path.empty() && it->second.path.front() != '/')
        it->second.path = dir + "/" + it->second.path;
    }
    // A job with the repository checked out into a folder of the workspace: its working directories are
    // workspace-relative. One inside the checkout is made relative to the repository; from the workspace itself,
    // paths under the checkout folder are the repository's.
    for (const auto& [b, e, checkout] : step_checkouts) {
      if (at < b || at >= e) continue;
      parse::WorkDir& wd = (*workdirs)[at];
      if (wd.unknown || wd.from_script_dir || (!wd.path.empty() && wd.path.front() == '/')) break;
      const std::string rel = workspace_relative(wd.path);
      if (rel == checkout || rel.starts_with(checkout + "/")) {
        wd.path = rel.size() == checkout.size() ? "" : rel.substr(checkout.size() + 1);
      } else if (rel.empty()) {
        wd.path.clear();
        wd.checkout_path = checkout;
      }
      if (wd.path.empty() && wd.checkout_path.empty()) workdirs->erase(at);
      break;
    }
  }
  return commands;
}

}  // namespace

std::vector<parse::LaunchCommand> ci_workflow_commands(const model::Document& doc) {
  return commands_and_workdirs(doc, nullptr);
}

std::map<std::size_t, parse::WorkDir> ci_workflow_workdirs(const model::Document& doc) {
  std::map<std::size_t, parse::WorkDir> out;
  commands_and_workdirs(doc, &out);
  return out;
}

}  // namespace lint::bind
