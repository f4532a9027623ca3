#include "lint/bind/ci_workflow.hpp"

#include <algorithm>
#include <filesystem>

namespace lint::bind {

namespace {

bool is_github(const std::string& path) {
  return path.find(".github/workflows/") != std::string::npos;
}
bool is_gitlab(const std::string& path) {
  return std::filesystem::path(path).filename() == ".gitlab-ci.yml";
}

}  // namespace

bool is_ci_workflow(const model::Document& doc) {
  return doc.format == parse::Format::Yaml && doc.root_map() != nullptr &&
         (is_github(doc.path()) || is_gitlab(doc.path()));
}

std::vector<parse::LaunchCommand> ci_workflow_commands(const model::Document& doc) {
  if (!is_ci_workflow(doc)) return {};
  const bool github = is_github(doc.path());
  const bool gitlab = is_gitlab(doc.path());
  const std::string& text = doc.source->text();
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
  std::vector<const parse::Node*> stack{doc.root_map()};
  while (!stack.empty()) {
    const parse::Node* n = stack.back();
    stack.pop_back();
    for (const parse::Entry& e : n->entries) {
      const bool step = (github && e.key.text == "run") || (gitlab && e.key.text == "script");
      if (step && e.value.kind == parse::NodeKind::String) {
        keep(e.value);
      } else if (step && e.value.kind == parse::NodeKind::Sequence) {
        for (const parse::Node& it : e.value.items) keep(it);
      } else {
        stack.push_back(&e.value);
      }
    }
    for (const parse::Node& it : n->items) stack.push_back(&it);
  }
  if (!any) return {};
  // Positions are computed from the blanked copy, whose lines and columns are those of the workflow file.
  const source::SourceFile steps(doc.path(), std::move(blanked));
  return parse::find_launch_commands(steps, false);
}

}  // namespace lint::bind
