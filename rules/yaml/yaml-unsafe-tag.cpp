// YML004: a tag `yaml.safe_load` has no constructor for (`!!python/...`, `!custom`): PyYAML refuses the file.
#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "rules/support.hpp"

namespace lint::rules {
namespace {

// The tags PyYAML's SafeConstructor constructs (yaml/constructor.py), as the reader stores them: core tags in
// their `!!` shorthand. The reader consumes str/int/float/bool/null/map/seq/merge itself; listed for completeness.
constexpr std::array<std::string_view, 13> kSafeTags = {"!!str",  "!!int",   "!!float",  "!!bool",      "!!null",
                                                        "!!map",  "!!seq",   "!!binary", "!!timestamp", "!!set",
                                                        "!!omap", "!!pairs", "!!merge"};

bool is_safe(std::string_view tag) {
  return std::find(kSafeTags.begin(), kSafeTags.end(), tag) != kSafeTags.end();
}

class YamlUnsafeTag final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.format != parse::Format::Yaml) return;
    if (doc.kind != model::DocKind::AccelerateConfig && doc.kind != model::DocKind::AxolotlConfig) return;
    const parse::Node* root = doc.root_map();
    if (root == nullptr) return;
    const std::string reader = doc.kind == model::DocKind::AccelerateConfig
                                   ? "accelerate reads its config with `yaml.safe_load`, which raises ConstructorError "
                                     "(\"could not determine a "
                                     "constructor for the tag\"), so `accelerate launch` cannot load this file"
                                   : "`yaml.safe_load` raises ConstructorError on it (\"could not determine a "
                                     "constructor for the tag\"), so a "
                                     "tool that reads this file with the safe loader cannot load it";
    const auto check = [&](const parse::Node& node) {
      if (node.tag.empty() || is_safe(node.tag.str())) return;
      ctx.report(doc.path(), node.region,
                 "`" + node.tag.str() + "` is not one of the standard YAML tags: " + reader +
                     ". launchlint reads the value as if untagged and never follows such tags; remove the tag.");
    };
    visit_nodes(*root, [&](const parse::Node& node, const parse::Entry*, const parse::Node*) {
      check(node);
      for (const parse::Entry& e : node.entries) check(e.key);
    });
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_yaml_unsafe_tag() {
  return std::make_unique<YamlUnsafeTag>();
}

}  // namespace lint::rules
