// ACC013: accelerate with DeepSpeed whose DeepSpeed config file defines an `optimizer` (or a `scheduler`) section,
// and a script that hands a torch optimizer (or LR scheduler) of its own to `accelerator.prepare(...)`:
// `_prepare_deepspeed` raises "You cannot specify an optimizer in the config file and in the code at the same time"
// (accelerate v1.14.0 src/accelerate/accelerator.py:2236-2249, the scheduler at 2238-2241 and 2258-2264).
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/model/deepspeed_facts.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

enum class Kind : std::uint8_t { Optimizer, Scheduler };

bool starts_with_any(std::string_view s, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return s.starts_with(p); });
}

/// What a call builds, from its callee: a torch optimizer (every class accelerate tests with
/// `isinstance(obj, torch.optim.Optimizer)`, accelerator.py:2236), a torch LR scheduler, or neither/unknown.
std::optional<Kind> built_by(const model::PyCall& c) {
  const std::string& q = c.callee;
  if (c.name == "DummyOptim" || c.name == "DummyScheduler") return std::nullopt;
  if (starts_with_any(q, {"torch.optim.lr_scheduler."})) return Kind::Scheduler;
  if (starts_with_any(q, {"transformers.get_", "transformers.optimization.get_", "diffusers.optimization.get_"}) &&
      (c.name == "get_scheduler" || c.name.ends_with("_schedule_with_warmup")))
    return Kind::Scheduler;
  if (starts_with_any(q, {"torch.optim.", "bitsandbytes.optim.", "deepspeed.ops.adam.", "deepspeed.ops.lamb.",
                          "apex.optimizers.", "transformers.optimization.Adafactor", "transformers.Adafactor",
                          "transformers.AdamW", "transformers.optimization.AdamW"}))
    return Kind::Optimizer;
  return std::nullopt;
}

bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.';
}

/// The dotted name a call's result is assigned to (`optimizer = torch.optim.AdamW(...)`), or empty.
std::string assigned_name(std::string_view text, std::size_t call_begin) {
  std::size_t i = call_begin;
  while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t')) --i;
  if (i == 0 || text[i - 1] != '=') return {};
  --i;
  if (i > 0 && std::string_view("=!<>+-*/%&|^:").find(text[i - 1]) != std::string_view::npos) return {};
  while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t')) --i;
  const std::size_t end = i;
  while (i > 0 && is_ident_char(text[i - 1])) --i;
  // Only a plain statement `name = ...`: the name starts its line (after indentation).
  std::size_t j = i;
  while (j > 0 && (text[j - 1] == ' ' || text[j - 1] == '\t')) --j;
  if (j > 0 && text[j - 1] != '\n') return {};
  return std::string(text.substr(i, end - i));
}

struct Built {
  Kind kind;
  std::string callee;
  source::Region region;
};

class DeepSpeedOptimizerInConfigAndCode final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Value& dt = l.value(model::keys::kDistributedType);
    if (dt.kind != model::ValueKind::String || dt.text != "DEEPSPEED") return;
    const model::Document* ds = model::deepspeed_state(l).config;
    if (ds == nullptr || ds->root_map() == nullptr) return;
    const parse::Entry* sections[2] = {ds->root_map()->find_entry("optimizer"),
                                       ds->root_map()->find_entry("scheduler")};
    if (sections[0] == nullptr && sections[1] == nullptr) return;

    const model::Document* script = nullptr;
    for (const model::Document* d : l.documents) {
      if (d->kind != model::DocKind::PythonScript || !d->python) continue;
      if (script != nullptr) return;  // several Python files: which one prepares what is not known
      script = d;
    }
    if (script == nullptr) return;
    const model::PythonFacts& py = *script->python;
    const std::string& text = script->source->text();

    // Names bound to a torch optimizer / scheduler; a name bound twice (or to something else) is not known.
    std::map<std::string, std::optional<Built>> names;
    std::map<std::size_t, Built> direct;  // calls written inside the prepare() call, by start byte
    for (const model::PyCall& c : py.calls) {
      const std::optional<Kind> k = built_by(c);
      const std::string name = assigned_name(text, c.region.begin_byte);
      if (k) direct[c.region.begin_byte] = Built{*k, c.callee, c.region};
      if (name.empty()) continue;
      auto [it, inserted] = names.try_emplace(name);
      if (inserted && k)
        it->second = Built{*k, c.callee, c.region};
      else
        it->second.reset();
    }
    // A name bound again by anything the call facts do not hold (`optimizer = None`, a call a huge file's read
    // leaves out) is not known either: count the plain `name = ...` statements in the text, those that start a
    // line outside any bracket (`optimizer=optimizer,` on its own line is a keyword argument).
    std::vector<std::pair<std::size_t, std::string>> candidates;  // (start byte, name)
    for (const auto& [name, built] : names) {
      if (!built) continue;
      for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
        std::size_t line = at;
        while (line > 0 && (text[line - 1] == ' ' || text[line - 1] == '\t')) --line;
        if (line > 0 && text[line - 1] != '\n') continue;
        std::size_t k = at + name.size();
        while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
        if (k < text.size() && text[k] == '=' && (k + 1 >= text.size() || text[k + 1] != '='))
          candidates.emplace_back(at, name);
      }
    }
    if (!candidates.empty()) {
      std::sort(candidates.begin(), candidates.end());
      std::map<std::string, int> bindings;
      // One pass over the text: bracket depth outside strings and comments.
      int depth = 0;
      std::size_t next = 0;
      for (std::size_t i = 0; i < text.size() && next < candidates.size(); ++i) {
        while (next < candidates.size() && candidates[next].first == i) {
          if (depth == 0) ++bindings[candidates[next].second];
          ++next;
        }
        const char ch = text[i];
        if (ch == '#') {
          while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
        } else if (ch == '"' || ch == '\'') {
          const bool triple = i + 2 < text.size() && text[i + 1] == ch && text[i + 2] == ch;
          std::size_t j = i + (triple ? 3 : 1);
          while (j < text.size()) {
            if (text[j] == '\\') {
              j += 2;
              continue;
            }
            if (text[j] == ch && (!triple || (j + 2 < text.size() && text[j + 1] == ch && text[j + 2] == ch))) break;
            if (!triple && text[j] == '\n') break;
            ++j;
          }
          i = std::min(text.size() - 1, j + (triple ? 2 : 0));
          while (next < candidates.size() && candidates[next].first <= i) ++next;  // inside the string
        } else if (ch == '(' || ch == '[' || ch == '{') {
          ++depth;
        } else if ((ch == ')' || ch == ']' || ch == '}') && depth > 0) {
          --depth;
        }
      }
      for (auto& [name, built] : names) {
        if (built && bindings[name] > 1) built.reset();
      }
    }
    // A script that builds accelerate's placeholders or reads the DeepSpeed config chooses at run time.
    const bool adapts_optimizer = text.find("DummyOptim") != std::string::npos;
    const bool adapts_scheduler = text.find("DummyScheduler") != std::string::npos;
    if (text.find("deepspeed_plugin.deepspeed_config") != std::string::npos) return;

    bool reported[2] = {false, false};
    auto check_arg = [&](const model::PyArg& a, const std::string& via) {
      const std::string_view arg_text =
          std::string_view(text).substr(a.region.begin_byte, a.region.end_byte - a.region.begin_byte);
      std::optional<Built> b;
      std::string what;
      const std::string_view value_text =
          a.name.empty() ? arg_text : arg_text.substr(std::min(arg_text.size(), arg_text.find('=') + 1));
      std::string_view trimmed = value_text;
      while (!trimmed.empty() && trimmed.front() == ' ') trimmed.remove_prefix(1);
      if (auto n = names.find(std::string(trimmed)); n != names.end() && n->second) {
        b = n->second;
        what = "`" + std::string(trimmed) + "` (`" + b->callee + "(...)`, line " +
               std::to_string(b->region.begin.line) + ")";
      } else if (auto d = direct.find(a.region.begin_byte + static_cast<std::size_t>(trimmed.data() - arg_text.data()));
                 d != direct.end() && d->second.region.end_byte <= a.region.end_byte) {
        b = d->second;
        what = "`" + b->callee + "(...)`";
      }
      if (!b) return;
      const int idx = b->kind == Kind::Optimizer ? 0 : 1;
      if (sections[idx] == nullptr || reported[idx]) return;
      if (b->kind == Kind::Optimizer ? adapts_optimizer : adapts_scheduler) return;
      reported[idx] = true;
      const std::string_view noun = b->kind == Kind::Optimizer ? "an optimizer" : "a scheduler";
      const std::string_view section = b->kind == Kind::Optimizer ? "optimizer" : "scheduler";
      const std::string_view dummy = b->kind == Kind::Optimizer ? "DummyOptim" : "DummyScheduler";
      std::string message = "The torch " + std::string(b->kind == Kind::Optimizer ? "optimizer " : "LR scheduler ") +
                            what + " reaches " + via + " while the DeepSpeed config `" + ds->path() + "` defines `\"" +
                            std::string(section) + "\"`: accelerate raises \"You cannot specify " + std::string(noun) +
                            " in the config file and in the code at the same time\" (accelerate v1.14.0 "
                            "src/accelerate/accelerator.py:" +
                            (b->kind == Kind::Optimizer ? "2236-2249" : "2238-2241, 2258-2264") + "). Remove the `\"" +
                            std::string(section) +
                            "\"` section from the DeepSpeed config, or create `accelerate.utils." + std::string(dummy) +
                            "` in the code so that DeepSpeed builds the one of its config.";
      std::vector<rule::RelatedLocation> related{
          {ds->path(), sections[idx]->key.region,
           "The DeepSpeed config defines its own " + std::string(section) + " here."}};
      ctx.report(script->path(), a.region, std::move(message), std::move(related));
    };

    for (const model::PyCall* c : py.calls_named("prepare")) {
      if (c->receiver.empty() || c->receiver.find("accelerator") == std::string::npos) continue;
      for (const model::PyArg& a : c->args) {
        if (a.name.empty()) check_arg(a, "`" + c->receiver + ".prepare(...)`");
      }
    }
    // TRL's PPOTrainer before 0.12 prepares the optimizer it is given (trl v0.11.4 trl/trainer/ppo_trainer.py:
    // 298-304, 340-353).
    for (const model::PyCall* c : py.calls_named("PPOTrainer")) {
      if (const model::PyArg* a = c->keyword("optimizer"); a != nullptr && !a->from_unpacked_dict)
        check_arg(*a, "`PPOTrainer(optimizer=...)`, which passes it to `accelerator.prepare(...)`");
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_deepspeed_optimizer_in_config_and_code() {
  return std::make_unique<DeepSpeedOptimizerInConfigAndCode>();
}

}  // namespace lint::rules
