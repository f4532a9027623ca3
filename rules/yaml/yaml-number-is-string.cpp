// YML001: a plain scalar that looks like a number but PyYAML (YAML 1.1) loads as a string, e.g. `1e-5` or `5e8`,
// reported where the file's reader keeps the string (accelerate, HfArgumentParser.parse_yaml_file) and silent where it
// converts (axolotl's pydantic models, LLaMA-Factory's OmegaConf loader, TRL's --config).
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lint/model/versions.hpp"
#include "rules/fix_support.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

/// A number written in a form PyYAML's float resolver (yaml/resolver.py) does not accept.
struct NumberShape {
  char sign = 0;            ///< '-', '+' or 0
  std::string int_digits;   ///< before the dot (underscores removed)
  std::string frac_digits;  ///< after the dot
  bool has_dot = false;
  char exp_letter = 0;  ///< 'e' or 'E', or 0 without an exponent
  char exp_sign = 0;
  std::string exp_digits;
};

// Matches [-+]? (D+ | D+ '.' D* | '.' D+) ([eE] [-+]? D+)?  with D = [0-9_] after a leading digit, and keeps the
// forms PyYAML leaves as strings: an exponent without a dot or without a sign, or a sign before a leading dot.
std::optional<NumberShape> string_number(std::string_view s) {
  NumberShape n;
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) n.sign = s[i++];
  const auto digits = [&](std::string& out, bool underscores) {
    const std::size_t start = i;
    while (i < s.size() && (is_digit(s[i]) || (underscores && s[i] == '_' && i > start))) {
      if (s[i] != '_') out += s[i];
      ++i;
    }
  };
  digits(n.int_digits, true);
  if (i < s.size() && s[i] == '.') {
    n.has_dot = true;
    ++i;
    digits(n.frac_digits, !n.int_digits.empty());
  }
  if (n.int_digits.empty() && n.frac_digits.empty()) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    n.exp_letter = s[i++];
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) n.exp_sign = s[i++];
    digits(n.exp_digits, false);
    if (n.exp_digits.empty()) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  const bool exponent_form = n.exp_letter != 0 && (!n.has_dot || n.exp_sign == 0 || n.int_digits.empty());
  const bool signed_leading_dot = n.exp_letter == 0 && n.sign != 0 && n.int_digits.empty();
  if (!exponent_form && !signed_leading_dot) return std::nullopt;
  return n;
}

/// Why PyYAML's float pattern rejects the shape.
std::string why_string(const NumberShape& n) {
  if (n.exp_letter == 0) return "a YAML 1.1 float with a sign needs a digit before the dot";
  const bool no_dot = !n.has_dot;
  const bool unsigned_exp = n.exp_sign == 0;
  if (no_dot && unsigned_exp) return "a YAML 1.1 float needs a dot and a signed exponent";
  if (no_dot) return "a YAML 1.1 float needs a dot";
  if (unsigned_exp) return "a YAML 1.1 float needs a sign after the `e`";
  return "a YAML 1.1 float with a sign needs a digit before the dot";
}

/// The same number spelled so that PyYAML loads a float: `1e-5` -> `1.0e-5`, `5e8` -> `5.0e+8`.
std::string as_float(const NumberShape& n) {
  std::string out;
  if (n.sign != 0) out += n.sign;
  out += n.int_digits.empty() ? "0" : n.int_digits;
  out += '.';
  out += n.frac_digits.empty() ? "0" : n.frac_digits;
  if (n.exp_letter != 0) {
    out += n.exp_letter;
    out += n.exp_sign != 0 ? n.exp_sign : '+';
    out += n.exp_digits;
  }
  return out;
}

/// The same number as a decimal integer when it is one (`1e8` -> `100000000`); nothing otherwise.
std::optional<std::string> as_integer(const NumberShape& n) {
  if (n.exp_letter == 0 || n.exp_sign == '-') return std::nullopt;
  if (n.exp_digits.size() > 2) return std::nullopt;
  const int exp = std::stoi(n.exp_digits);
  std::string digits = n.int_digits + n.frac_digits;
  const int shift = exp - static_cast<int>(n.frac_digits.size());
  if (shift < 0) {
    const std::size_t cut = digits.size() - static_cast<std::size_t>(-shift);
    if (digits.find_first_not_of('0', cut) != std::string::npos) return std::nullopt;
    digits.resize(cut);
  } else {
    digits.append(static_cast<std::size_t>(shift), '0');
  }
  const std::size_t first = digits.find_first_not_of('0');
  digits = first == std::string::npos ? "0" : digits.substr(first);
  if (digits.size() > 18) return std::nullopt;  // stays a readable int64
  if (n.sign == '-' && digits != "0") digits.insert(digits.begin(), '-');
  return digits;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

/// An explicit tag (`!!str 1e5`) writes the string on purpose; the tree drops core tags, the text keeps them.
bool written_with_tag(const model::Document& doc, const parse::Node& node) {
  std::string_view text = doc.source->text();
  if (node.region.begin_byte >= text.size()) return false;
  text = text.substr(node.region.begin_byte, node.region.end_byte - node.region.begin_byte);
  if (text.starts_with('&')) {
    const std::size_t space = text.find_first_of(" \t\r\n");
    if (space == std::string_view::npos) return false;
    text.remove_prefix(space);
    text.remove_prefix(std::min(text.size(), text.find_first_not_of(" \t\r\n")));
  }
  return text.starts_with('!');
}

/// TrainingArguments fields that torch's optimizer compares with a float in its constructor (`0.0 <= lr`, eps,
/// betas, weight decay: torch/optim/adam.py `Adam.__init__`): a string there raises TypeError before training.
bool optimizer_compares(std::string_view key) {
  return key == "learning_rate" || key == "weight_decay" || key == "adam_epsilon" || key == "adam_beta1" ||
         key == "adam_beta2";
}

/// How a bound script reads a TrainingArguments YAML.
enum class Consumer : std::uint8_t { Unknown, KeepsStrings, Converts };

struct ConsumerInfo {
  Consumer kind = Consumer::Unknown;
  const model::PyCall* call = nullptr;  ///< the parse_yaml_file call
};

/// Who reads `yaml` in launch `l`: `HfArgumentParser.parse_yaml_file` keeps PyYAML's types (hf_argparser.py
/// parse_dict builds the dataclasses with `dtype(**inputs)`); TRL's `--config` sets argparse defaults, which
/// argparse converts with the field's type.
ConsumerInfo consumer_of(const model::Launch& l, const model::Document& yaml) {
  ConsumerInfo out;
  if (!l.command) return out;
  const model::Document* py = nullptr;
  for (const model::Document* d : l.documents) {
    if (d->kind == model::DocKind::PythonScript && d->python) py = d;
  }
  if (py == nullptr) return out;
  // Passed with `--config`?
  bool via_config_flag = false;
  const auto& args = l.command->script_args;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& t = args[i].text;
    const bool flag = t == "--config" && i + 1 < args.size();
    const std::string value = flag ? args[i + 1].text : t.starts_with("--config=") ? t.substr(9) : std::string();
    if (!value.empty() && yaml.path().ends_with(std::filesystem::path(value).lexically_normal().generic_string()))
      via_config_flag = true;
  }
  const auto parse_yaml = py->python->calls_named("parse_yaml_file");
  const bool trl = !py->python->calls_named("TrlParser").empty() || !py->python->calls_named("parse_args_and_config").empty();
  if (via_config_flag && trl) {
    out.kind = Consumer::Converts;
  } else if (!via_config_flag && !parse_yaml.empty()) {
    out.kind = Consumer::KeepsStrings;
    out.call = parse_yaml.front();
  }
  return out;
}

class YamlNumberIsString final : public rule::Rule {
 public:
  // Consumers that convert are silent: axolotl validates its YAML with pydantic (learning_rate through
  // `convert_learning_rate`, float fields in lax mode); LLaMA-Factory 0.9.4+ loads it with OmegaConf, whose
  // loader reads `1e-5` as a float; TRL's `--config` goes through argparse's type conversion.
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.format == parse::Format::Yaml && doc.kind == model::DocKind::LlamaFactoryConfig) {
      check_old_llamafactory(doc, ctx);
      return;
    }
    if (doc.format != parse::Format::Yaml || doc.kind != model::DocKind::AccelerateConfig) return;
    const parse::Node* root = doc.root_map();
    if (root == nullptr) return;

    // accelerate reads fsdp_config's min_num_params with int(...) when the wrap policy is SIZE_BASED_WRAP.
    const parse::Node* min_params = nullptr;
    bool size_based = false;
    if (const parse::Node* fsdp = root->find("fsdp_config"); fsdp != nullptr && fsdp->is_map()) {
      for (const parse::Entry& e : fsdp->entries) {
        const std::string_view k = e.key.text;
        if (k == "fsdp_min_num_params" || k == "min_num_params") min_params = &e.value;
        if ((k == "fsdp_auto_wrap_policy" || k == "auto_wrap_policy") && e.value.kind == parse::NodeKind::String)
          size_based = iequals(e.value.text, "SIZE_BASED_WRAP");
        else if (k == "fsdp_auto_wrap_policy" || k == "auto_wrap_policy")
          size_based = false;
      }
    }

    visit_nodes(*root, [&](const parse::Node& node, const parse::Entry* entry, const parse::Node*) {
      const auto found = string_number_at(doc, node, entry, &node == min_params);
      if (!found) return;
      const auto& [shape, site] = *found;
      const std::string loads = loads_as_string(node, shape);
      const std::optional<std::string> integer = as_integer(shape);
      const bool via_alias = entry != nullptr && node.region.begin_byte < entry->key.region.begin_byte;
      // The fix rewrites the scalar in place (an alias's anchor is fixed where it is written): the integer when
      // the number is one (`1e8` -> `100000000`), else the float spelling PyYAML reads (`2e-5` -> `2.0e-5`).
      rule::Fix fix;
      if (!via_alias) {
        // A number written with a dot (`1.0e8`) stays a float; min_num_params must be an integer.
        if (integer && (!shape.has_dot || &node == min_params))
          fix = fixes::set_value(doc, node.region, node.text, *integer, rule::FixSafety::Safe);
        else if (&node != min_params)
          fix = fixes::set_value(doc, node.region, node.text, as_float(shape), rule::FixSafety::Safe);
      }
      if (&node == min_params) {
        const std::string how = integer ? " Write the integer `" + *integer + "`" : " Write an integer";
        if (size_based) {
          ctx.report_fix(doc.path(), site,
                         loads + " With SIZE_BASED_WRAP, accelerate's FSDP plugin calls int('" + node.text +
                             "'), which raises ValueError in every rank." + how + " (a float such as `" +
                             as_float(shape) + "` fails in int() too).",
                         std::move(fix), {}, rule::Severity::Error);
        } else {
          ctx.report_fix(
              doc.path(), site,
              loads + " accelerate reads `min_num_params` only with SIZE_BASED_WRAP, and then with int()." + how + ".",
              std::move(fix), {}, rule::Severity::Warning);
        }
        return;
      }
      ctx.report_fix(doc.path(), site, loads + " accelerate keeps the string." + advice(shape), std::move(fix), {},
                     rule::Severity::Warning);
    });
  }

  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.per_file) return;
    for (const model::Document* doc : l.documents) {
      if (doc->kind != model::DocKind::TrainerArgsConfig || doc->format != parse::Format::Yaml) continue;
      const parse::Node* root = doc->root_map();
      if (root == nullptr) continue;
      const ConsumerInfo consumer = consumer_of(l, *doc);
      if (consumer.kind != Consumer::KeepsStrings) continue;
      const model::Document* py = nullptr;
      for (const model::Document* d : l.documents) {
        if (d->kind == model::DocKind::PythonScript) py = d;
      }
      std::vector<rule::RelatedLocation> related;
      if (py != nullptr && consumer.call != nullptr)
        related.push_back({py->path(), consumer.call->region, "HfArgumentParser.parse_yaml_file reads the YAML here"});
      for (const parse::Entry& e : root->entries) {
        const auto found = string_number_at(*doc, e.value, &e, false);
        if (!found) continue;
        const auto& [shape, site] = *found;
        const std::string key = e.key.text;
        std::string message = loads_as_string(e.value, shape) +
                              " HfArgumentParser.parse_yaml_file passes it to the dataclass unchanged, so `" + key +
                              "` is the string '" + e.value.text + "'";
        rule::Severity severity = rule::Severity::Warning;
        if (optimizer_compares(key)) {
          message += ", and the optimizer's constructor fails with TypeError: '<=' not supported between instances "
                     "of 'float' and 'str'";
          severity = rule::Severity::Error;
        }
        message += "." + advice(shape);
        ctx.report(doc->path(), site, message, related, severity);
      }
    }
  }

 private:
  /// LLaMA-Factory before 0.9.4 read its YAML with PyYAML and handed the values to HfArgumentParser.parse_dict
  /// unchanged: `parser.parse_yaml_file` (llmtuner v0.7.1 src/llmtuner/hparams/parser.py:41-42), then
  /// `yaml.safe_load` merged with OmegaConf (v0.9.3 src/llamafactory/hparams/parser.py:64-66); 0.9.4 loads it with
  /// `OmegaConf.load`, which reads `2e-5` as a float (hiyouga/LLaMA-Factory#8505). Reported only when the project pins
  /// a LLaMA-Factory known to be older than 0.9.4.
  static void check_old_llamafactory(const model::Document& doc, rule::RuleContext& ctx) {
    const model::TargetVersions& tv = model::target_versions();
    if (!tv.before("llamafactory", model::Version{0, 9, 4})) return;
    const parse::Node* root = doc.root_map();
    if (root == nullptr) return;
    const model::AssumedVersion& lf = tv.get("llamafactory");
    for (const parse::Entry& e : root->entries) {
      const auto found = string_number_at(doc, e.value, &e, false);
      if (!found) continue;
      const auto& [shape, site] = *found;
      const std::string key = e.key.text;
      std::string message = loads_as_string(e.value, shape) + " LLaMA-Factory " + lf.display() + " (" + lf.origin +
                            ") reads its YAML with PyYAML and passes the values to HfArgumentParser unchanged (the "
                            "OmegaConf loader that converts them came in 0.9.4, hiyouga/LLaMA-Factory#8505), so `" +
                            key + "` is the string '" + e.value.text + "'";
      rule::Severity severity = rule::Severity::Warning;
      if (optimizer_compares(key)) {
        message +=
            ", and the optimizer's constructor fails with TypeError: '<=' not supported between instances "
            "of 'float' and 'str'";
        severity = rule::Severity::Error;
      }
      message += "." + advice(shape);
      ctx.report(doc.path(), site, message, {}, severity);
    }
  }

  /// A plain, untagged scalar that PyYAML loads as a string but that looks like a number, and where to report it.
  static std::optional<std::pair<NumberShape, source::Region>> string_number_at(const model::Document& doc,
                                                                               const parse::Node& node,
                                                                               const parse::Entry* entry,
                                                                               bool report_alias_use) {
    if (node.kind != parse::NodeKind::String || !node.plain) return std::nullopt;
    const std::optional<NumberShape> shape = string_number(node.text);
    if (!shape || written_with_tag(doc, node)) return std::nullopt;
    // A value reached through an alias (`lr: *base_lr`) sits at its anchor, which is reported there; only a use
    // with its own consequence is reported at its key.
    const bool via_alias = entry != nullptr && node.region.begin_byte < entry->key.region.begin_byte;
    if (via_alias && !report_alias_use) return std::nullopt;
    return std::make_pair(*shape, via_alias ? entry->key.region : node.region);
  }

  static std::string loads_as_string(const parse::Node& node, const NumberShape& shape) {
    return "PyYAML loads unquoted `" + node.text + "` as the string '" + node.text +
           "', not a number: " + why_string(shape) + ".";
  }

  static std::string advice(const NumberShape& shape) {
    std::string fix = " Write `" + as_float(shape) + "`";
    if (const auto integer = as_integer(shape)) fix += ", or the integer `" + *integer + "`";
    return fix + ".";
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_yaml_number_is_string() {
  return std::make_unique<YamlNumberIsString>();
}

}  // namespace lint::rules
