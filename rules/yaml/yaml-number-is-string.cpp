// YML001: a plain scalar that looks like a number but PyYAML (YAML 1.1) loads as a string, e.g. `1e-5` or `5e8`.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>

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

class YamlNumberIsString final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.format != parse::Format::Yaml) return;
    if (doc.kind != model::DocKind::AccelerateConfig && doc.kind != model::DocKind::AxolotlConfig) return;
    const parse::Node* root = doc.root_map();
    if (root == nullptr) return;

    // accelerate reads fsdp_config's min_num_params with int(...) when the wrap policy is SIZE_BASED_WRAP.
    const parse::Node* min_params = nullptr;
    bool size_based = false;
    if (doc.kind == model::DocKind::AccelerateConfig) {
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
    }

    visit_nodes(*root, [&](const parse::Node& node, const parse::Entry* entry, const parse::Node*) {
      if (node.kind != parse::NodeKind::String || !node.plain) return;
      const std::optional<NumberShape> shape = string_number(node.text);
      if (!shape || written_with_tag(doc, node)) return;
      // A value reached through an alias (`lr: *base_lr`) sits at its anchor, which is reported there; only the
      // min_num_params use has its own consequence, reported at its key.
      const bool via_alias = entry != nullptr && node.region.begin_byte < entry->key.region.begin_byte;
      if (via_alias && &node != min_params) return;
      const source::Region& site = via_alias ? entry->key.region : node.region;
      const std::string loads = "PyYAML loads unquoted `" + node.text + "` as the string '" + node.text +
                                "', not a number: " + why_string(*shape) + ".";
      const std::optional<std::string> integer = as_integer(*shape);
      // The fix rewrites the scalar in place (an alias's anchor is fixed where it is written): the integer when
      // the number is one (`1e8` -> `100000000`), else the float spelling PyYAML reads (`2e-5` -> `2.0e-5`).
      rule::Fix fix;
      if (!via_alias) {
        // A number written with a dot (`1.0e8`) stays a float; min_num_params must be an integer.
        if (integer && (!shape->has_dot || &node == min_params))
          fix = fixes::set_value(doc, node.region, node.text, *integer, rule::FixSafety::Safe);
        else if (&node != min_params)
          fix = fixes::set_value(doc, node.region, node.text, as_float(*shape), rule::FixSafety::Safe);
      }
      if (&node == min_params) {
        const std::string how = integer ? " Write the integer `" + *integer + "`" : " Write an integer";
        if (size_based) {
          ctx.report_fix(doc.path(), site,
                         loads + " With SIZE_BASED_WRAP, accelerate's FSDP plugin calls int('" + node.text +
                             "'), which raises ValueError in every rank." + how + " (a float such as `" +
                             as_float(*shape) + "` fails in int() too).",
                         std::move(fix), {}, rule::Severity::Error);
        } else {
          ctx.report_fix(
              doc.path(), site,
              loads + " accelerate reads `min_num_params` only with SIZE_BASED_WRAP, and then with int()." + how + ".",
              std::move(fix), {}, rule::Severity::Warning);
        }
        return;
      }
      std::string how = " Write `" + as_float(*shape) + "`";
      if (integer) how += ", or the integer `" + *integer + "`";
      ctx.report_fix(doc.path(), site, loads + how + ".", std::move(fix), {}, rule::Severity::Warning);
    });
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_yaml_number_is_string() {
  return std::make_unique<YamlNumberIsString>();
}

}  // namespace lint::rules
