#include "lint/memory/shape.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "lint/model/deepspeed_facts.hpp"
#include "lint/model/launch_command.hpp"
#include "lint/model/lazy_config.hpp"
#include "lint/model/query.hpp"
#include "lint/model/resolve.hpp"
#include "lint/parse/integer.hpp"
#include "lint/parse/readers.hpp"
#include "lint/source/access_log.hpp"
#include "lint/source/read_boundary.hpp"

namespace lint::memory {

namespace {

using model::Value;
using model::ValueKind;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::optional<std::int64_t> int_of(const Value& v) {
  if (v.kind == ValueKind::Int) return v.integer;
  if (v.kind == ValueKind::String) return parse::parse_int(v.text);
  return std::nullopt;
}

std::optional<std::int64_t> int_of(const parse::Node& n) {
  if (n.kind == parse::NodeKind::Int) return n.integer;
  return int_of(model::value_of(n));
}

std::vector<std::string> split_names(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s + ",") {
    if (c == ',' || c == ' ' || c == '[' || c == ']' || c == '"' || c == '\'') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

std::vector<std::string> names_of(const Value& v) {
  if (v.kind == ValueKind::String) return split_names(v.text);
  std::vector<std::string> out;
  if (v.kind == ValueKind::List) {
    for (const Value& i : v.items) {
      if (i.kind == ValueKind::String) out.push_back(i.text);
    }
  }
  return out;
}

Optimizer optimizer_named(std::string name) {
  name = lower(std::move(name));
  if (name.find("8bit") != std::string::npos || name.find("8_bit") != std::string::npos) return Optimizer::Adam8bit;
  if (name.find("adafactor") != std::string::npos) return Optimizer::Adafactor;
  if (name.find("sgd") != std::string::npos) return Optimizer::Sgd;
  if (name.find("adam") != std::string::npos) return Optimizer::AdamW;
  return Optimizer::Unknown;
}

int dtype_bytes(const std::string& t) {
  const std::string s = lower(t);
  if (s.find("float32") != std::string::npos || s == "fp32" || s.find("float") == 0) return 4;
  if (s.find("16") != std::string::npos) return 2;
  return 0;
}

struct Reader {
  const model::Launch& launch;
  TrainingShape& shape;
  std::optional<Site> trainer_config;  ///< a Trainer / TRL config call: without PEFT it trains every weight
  /// `from_pretrained(..., tp_plan="auto")` without a size: transformers' tensor parallelism over every process.
  std::optional<Site> tp_plan_auto;

  Site site_of(const model::Document& doc, const source::Region& r, std::string spelled) const {
    return Site{doc.path(), r, std::move(spelled)};
  }

  void set_model(const std::string& id, Site s) {
    if (id.empty() || shape.model_id.known()) return;
    shape.model_id.set(id, std::move(s));
  }
  /// A model named on the script's command line (or its recipe YAML) replaces the script's own default.
  void override_model(const std::string& id, Site s) {
    if (id.empty()) return;
    if (shape.model_id.known() && !shape.model_id.site.spelled.starts_with("from_pretrained")) return;
    shape.model_id.value.reset();
    shape.model_id.set(id, std::move(s));
  }

  // --- config files (axolotl, LLaMA-Factory, torchtitan, DeepSpeed) --------------------------------------
  void config(const model::Document& doc) {
    const parse::Node* root = doc.root_map();
    if (root == nullptr) return;
    auto entry = [&](const parse::Node& map, std::string_view key) -> const parse::Entry* {
      return map.find_entry(key);
    };
    auto int_key = [&](const parse::Node& map, std::string_view key, Read<std::int64_t>& into) {
      if (const parse::Entry* e = entry(map, key)) {
        if (auto v = int_of(e->value); v && *v > 0) into.set(*v, site_of(doc, e->value.region, std::string(key)));
      }
    };
    switch (doc.kind) {
      case model::DocKind::AxolotlConfig: {
        if (const parse::Entry* e = entry(*root, "base_model"); e && e->value.kind == parse::NodeKind::String)
          set_model(e->value.text, site_of(doc, e->value.region, "base_model"));
        if (const parse::Entry* e = entry(*root, "adapter"); e && e->value.kind == parse::NodeKind::String) {
          const std::string a = lower(e->value.text);
          shape.training.set(a == "qlora" ? Training::QLora : Training::Lora, site_of(doc, e->value.region, "adapter"));
        } else if (!shape.training.known()) {
          shape.training.set(Training::Full, site_of(doc, {}, "adapter (not set: full fine-tune)"));
        }
        if (const parse::Entry* e = entry(*root, "load_in_4bit");
            e && e->value.kind == parse::NodeKind::Bool && e->value.boolean)
          shape.training.set(Training::QLora, site_of(doc, e->value.region, "load_in_4bit"));
        int_key(*root, "lora_r", shape.lora_r);
        dropout_key(doc, *root);
        if (const parse::Entry* e = entry(*root, "lora_target_linear");
            e && e->value.kind == parse::NodeKind::Bool && e->value.boolean)
          shape.lora_targets.set({"all-linear"}, site_of(doc, e->value.region, "lora_target_linear"));
        else if (const parse::Entry* t = entry(*root, "lora_target_modules"))
          shape.lora_targets.set(names_of(model::value_of(t->value)),
                                 site_of(doc, t->value.region, "lora_target_modules"));
        int_key(*root, "sequence_len", shape.seq_len);
        int_key(*root, "micro_batch_size", shape.micro_batch);
        int_key(*root, "gradient_accumulation_steps", shape.grad_accum);
        int_key(*root, "tensor_parallel_size", shape.tp_degree);
        int_key(*root, "context_parallel_size", shape.cp_degree);
        if (const parse::Entry* e = entry(*root, "optimizer"); e && e->value.kind == parse::NodeKind::String)
          shape.optimizer.set(optimizer_named(e->value.text), site_of(doc, e->value.region, "optimizer"));
        mixed_flag(doc, *root);
        break;
      }
      case model::DocKind::LlamaFactoryConfig: {
        if (const parse::Entry* e = entry(*root, "model_name_or_path"); e && e->value.kind == parse::NodeKind::String)
          set_model(e->value.text, site_of(doc, e->value.region, "model_name_or_path"));
        const parse::Entry* ft = entry(*root, "finetuning_type");
        const std::string kind = ft && ft->value.kind == parse::NodeKind::String ? lower(ft->value.text) : "lora";
        const parse::Entry* qb = entry(*root, "quantization_bit");
        const bool q4 = qb != nullptr && int_of(qb->value).value_or(0) == 4;
        shape.training.set(kind == "full" ? Training::Full : (q4 ? Training::QLora : Training::Lora),
                           site_of(doc, ft ? ft->value.region : source::Region{},
                                   ft ? "finetuning_type" : "finetuning_type (default lora)"));
        int_key(*root, "lora_rank", shape.lora_r);
        dropout_key(doc, *root);
        if (!shape.lora_r.known() && kind != "full")
          shape.lora_r.set(8, site_of(doc, {}, "lora_rank (LLaMA-Factory default 8)"));
        if (const parse::Entry* t = entry(*root, "lora_target")) {
          auto names = names_of(model::value_of(t->value));
          if (names.size() == 1 && names[0] == "all") names = {"all-linear"};
          shape.lora_targets.set(names, site_of(doc, t->value.region, "lora_target"));
        } else if (kind != "full") {
          shape.lora_targets.set({"all-linear"}, site_of(doc, {}, "lora_target (LLaMA-Factory default all)"));
        }
        int_key(*root, "cutoff_len", shape.seq_len);
        int_key(*root, "per_device_train_batch_size", shape.micro_batch);
        int_key(*root, "gradient_accumulation_steps", shape.grad_accum);
        if (const parse::Entry* e = entry(*root, "optim"); e && e->value.kind == parse::NodeKind::String)
          shape.optimizer.set(optimizer_named(e->value.text), site_of(doc, e->value.region, "optim"));
        mixed_flag(doc, *root);
        break;
      }
      case model::DocKind::TorchtitanConfig: {
        if (const parse::Node* m = root->find("model"); m && m->is_map()) {
          const parse::Node* name = m->find("name");
          const parse::Entry* flavor = m->find_entry("flavor");
          if (name && flavor && name->kind == parse::NodeKind::String && flavor->value.kind == parse::NodeKind::String)
            set_model(name->text + "/" + flavor->value.text, site_of(doc, flavor->value.region, "model.flavor"));
        }
        if (const parse::Node* t = root->find("training"); t && t->is_map()) {
          int_key(*t, "seq_len", shape.seq_len);
          int_key(*t, "local_batch_size", shape.micro_batch);
          int_key(*t, "batch_size", shape.micro_batch);
        }
        if (const parse::Node* p = root->find("parallelism"); p && p->is_map()) {
          int_key(*p, "tensor_parallel_degree", shape.tp_degree);
          int_key(*p, "context_parallel_degree", shape.cp_degree);
        }
        if (const parse::Node* o = root->find("optimizer"); o && o->is_map()) {
          if (const parse::Entry* e = o->find_entry("name"); e && e->value.kind == parse::NodeKind::String)
            shape.optimizer.set(optimizer_named(e->value.text), site_of(doc, e->value.region, "optimizer.name"));
        }
        if (!shape.training.known()) shape.training.set(Training::Full, site_of(doc, {}, "torchtitan (full training)"));
        break;
      }
      case model::DocKind::AccelerateConfig: {
        // accelerate's ParallelismConfig from the config file (`parallelism_config: parallelism_config_tp_size: 2`).
        if (const parse::Node* p = root->find("parallelism_config"); p && p->is_map())
          int_key(*p, "parallelism_config_tp_size", shape.tp_degree);
        break;
      }
      case model::DocKind::DeepSpeedConfig: {
        if (const parse::Node* z = root->find("zero_optimization"); z && z->is_map()) {
          int_key(*z, "stage", shape.zero_stage);
          auto on_device = [&](std::string_view key) {
            const parse::Node* o = z->find(key);
            const parse::Node* d = o && o->is_map() ? o->find("device") : nullptr;
            return d != nullptr && d->kind == parse::NodeKind::String && (d->text == "cpu" || d->text == "nvme");
          };
          shape.offload_optimizer = on_device("offload_optimizer");
          shape.offload_params = on_device("offload_param");
          auto count_key = [&](std::string_view key, std::optional<double>& into) {
            const parse::Node* n = z->find(key);
            if (n == nullptr) return false;
            if (n->kind == parse::NodeKind::Int) into = static_cast<double>(n->integer);
            if (n->kind == parse::NodeKind::Float) into = n->number;
            return n->kind == parse::NodeKind::String && n->text == "auto";
          };
          shape.ds_reduce_bucket_auto = count_key("reduce_bucket_size", shape.ds_reduce_bucket);
          count_key("stage3_max_live_parameters", shape.ds_max_live);
        }
        int_key(*root, "train_micro_batch_size_per_gpu", shape.micro_batch);
        int_key(*root, "gradient_accumulation_steps", shape.grad_accum);
        break;
      }
      default:
        break;
    }
  }

  void dropout_key(const model::Document& doc, const parse::Node& root) {
    if (const parse::Entry* e = root.find_entry("lora_dropout");
        e && (e->value.kind == parse::NodeKind::Float || e->value.kind == parse::NodeKind::Int))
      shape.lora_dropout.set(e->value.number, site_of(doc, e->value.region, "lora_dropout"));
  }

  void mixed_flag(const model::Document& doc, const parse::Node& root) {
    for (std::string_view key : {"bf16", "fp16"}) {
      if (const parse::Entry* e = root.find_entry(key); e && e->value.kind == parse::NodeKind::Bool && e->value.boolean)
        shape.mixed_precision.set(std::string(key), site_of(doc, e->value.region, std::string(key)));
    }
  }

  // --- Python script ------------------------------------------------------------------------------------------
  void python(const model::Document& doc) {
    const model::PythonFacts& py = *doc.python;
    for (const model::PyCall& c : py.calls) {
      auto kw_int = [&](std::string_view key, Read<std::int64_t>& into) {
        if (const model::PyArg* a = c.keyword(key)) {
          if (auto v = int_of(a->value); v && *v > 0) into.set(*v, site_of(doc, a->region, std::string(key) + "="));
        }
      };
      // xtuner's lazy `llm=dict(type=AutoModelForCausalLM.from_pretrained, pretrained_model_name_or_path=...)`.
      if (const std::string lazy = model::lazy_config_type(c);
          lazy.ends_with(".from_pretrained") && lazy.find("Tokenizer") == std::string::npos &&
          lazy.find("Config") == std::string::npos && lazy.find("Processor") == std::string::npos) {
        if (const model::PyArg* a = c.keyword("pretrained_model_name_or_path");
            a != nullptr && a->value.kind == ValueKind::String)
          set_model(a->value.text, site_of(doc, a->region, "from_pretrained("));
        continue;
      }
      if (c.name == "from_pretrained" && c.receiver.find("Tokenizer") == std::string::npos &&
          c.receiver.find("Config") == std::string::npos && c.callee.find("Tokenizer") == std::string::npos) {
        const model::PyArg* a = c.positional(0);
        if (a == nullptr) a = c.keyword("pretrained_model_name_or_path");
        if (a != nullptr && a->value.kind == ValueKind::String)
          set_model(a->value.text, site_of(doc, a->region, "from_pretrained("));
        // transformers' own tensor parallelism: an explicit `tp_size=`, else `tp_plan="auto"` over all processes.
        if (c.keyword("tp_size") != nullptr) {
          kw_int("tp_size", shape.tp_degree);
        } else if (const model::PyArg* plan = c.keyword("tp_plan");
                   plan != nullptr && plan->value.kind == ValueKind::String && plan->value.text == "auto" &&
                   c.keyword("distributed_config") == nullptr) {
          tp_plan_auto = site_of(doc, plan->region, "tp_plan=\"auto\"");
        }
        for (std::string_view k : {"torch_dtype", "dtype"}) {
          if (const model::PyArg* d = c.keyword(k); d && d->value.known()) {
            const std::string t = d->value.kind == ValueKind::String ? d->value.text : d->value.display();
            if (int b = dtype_bytes(t)) shape.base_bytes.set(b, site_of(doc, d->region, std::string(k) + "="));
          }
        }
        if (c.keyword("quantization_config") != nullptr || c.keyword("load_in_4bit") != nullptr) {
          const model::PyArg* q = c.keyword("quantization_config");
          if (q == nullptr) q = c.keyword("load_in_4bit");
          if (shape.training.value != Training::QLora)
            shape.training.set(Training::QLora, site_of(doc, q->region, "quantization_config="));
        }
      } else if (c.name == "DistributedConfig" || c.name == "ParallelismConfig") {
        // transformers' DistributedConfig(tp_size=) for from_pretrained, accelerate's ParallelismConfig(tp_size=).
        kw_int("tp_size", shape.tp_degree);
      } else if (c.name == "BitsAndBytesConfig") {
        if (const model::PyArg* a = c.keyword("load_in_4bit"); a && model::truth_of(a->value).value_or(false))
          shape.training.set(Training::QLora, site_of(doc, a->region, "load_in_4bit="));
        // transformers' BitsAndBytesConfig defaults bnb_4bit_use_double_quant to False.
        const model::PyArg* dq = c.keyword("bnb_4bit_use_double_quant");
        shape.double_quant.set(dq ? model::truth_of(dq->value).value_or(false) : false,
                               site_of(doc, dq ? dq->region : c.callee_region, "bnb_4bit_use_double_quant"));
      } else if (c.name == "LoraConfig") {
        if (shape.training.value != Training::QLora)
          shape.training.set(Training::Lora, site_of(doc, c.callee_region, "LoraConfig("));
        kw_int("r", shape.lora_r);
        if (const model::PyArg* d = c.keyword("lora_dropout");
            d && (d->value.kind == ValueKind::Float || d->value.kind == ValueKind::Int))
          shape.lora_dropout.set(
              d->value.kind == ValueKind::Int ? static_cast<double>(d->value.integer) : d->value.number,
              site_of(doc, d->region, "lora_dropout="));
        if (!shape.lora_r.known()) shape.lora_r.set(8, site_of(doc, c.callee_region, "LoraConfig r (peft default 8)"));
        if (const model::PyArg* t = c.keyword("target_modules"); t && t->value.known()) {
          auto names = t->value.kind == ValueKind::String && t->value.text == "all-linear"
                           ? std::vector<std::string>{"all-linear"}
                           : names_of(t->value);
          shape.lora_targets.set(names, site_of(doc, t->region, "target_modules="));
        }
      } else if (c.name == "TrainingArguments" || c.name == "SFTConfig" || c.name == "Seq2SeqTrainingArguments" ||
                 c.name == "DPOConfig" || c.name == "GRPOConfig") {
        kw_int("per_device_train_batch_size", shape.micro_batch);
        kw_int("gradient_accumulation_steps", shape.grad_accum);
        kw_int("max_seq_length", shape.seq_len);
        kw_int("max_length", shape.seq_len);
        for (std::string_view k : {"bf16", "fp16"}) {
          if (const model::PyArg* a = c.keyword(k); a && model::truth_of(a->value).value_or(false))
            shape.mixed_precision.set(std::string(k), site_of(doc, a->region, std::string(k) + "="));
        }
        if (const model::PyArg* a = c.keyword("optim"); a && a->value.kind == ValueKind::String)
          shape.optimizer.set(optimizer_named(a->value.text), site_of(doc, a->region, "optim="));
        trainer_config = site_of(doc, c.callee_region, c.name + "(");
      } else if (c.name == "fsdp_auto_wrap_policy") {
        shape.peft_wrap_policy = true;
      } else if (c.name == "Trainer" || c.name == "SFTTrainer" || c.name == "DPOTrainer") {
        // The Trainer installs PEFT's wrap policy for a PEFT model under FSDP1 (update_fsdp_plugin_peft).
        shape.peft_wrap_policy = true;
        if (const model::PyArg* a = c.keyword("model"); a && a->value.kind == ValueKind::String)
          set_model(a->value.text, site_of(doc, a->region, "model="));
      } else if (c.name == "DataLoader") {
        if (!shape.micro_batch.known()) kw_int("batch_size", shape.micro_batch);
      } else if (c.keyword("max_length") != nullptr && c.keyword("truncation") != nullptr) {
        kw_int("max_length", shape.seq_len);  // the tokenizer's truncation length
      } else if (c.callee.starts_with("torch.optim.") || c.callee.starts_with("bitsandbytes.optim.") ||
                 c.name == "Adafactor" || c.name == "AdamW8bit" || c.name == "PagedAdamW8bit" ||
                 c.name == "PagedAdamW") {
        const Optimizer o = optimizer_named(c.name);
        if (o != Optimizer::Unknown) shape.optimizer.set(o, site_of(doc, c.callee_region, c.name + "("));
      } else if (c.name == "prepare_model_for_kbit_training") {
        shape.kbit_prep.set(true, site_of(doc, c.callee_region, "prepare_model_for_kbit_training("));
      } else if (c.name == "get_peft_model" && !shape.training.known()) {
        shape.training.set(Training::Lora, site_of(doc, c.callee_region, "get_peft_model("));
      }
    }
  }

  // --- launch command arguments (HfArgumentParser / TRL flags after the script) ------------------------------
  void command() {
    if (const parse::LaunchCommand* found = model::query::launch_command(launch);
        found != nullptr && launch.command_document != nullptr) {
      if (auto n = find_flag(*found, "nproc_per_node"))
        shape.gpus_per_node.set(*n, site_of(*launch.command_document, {}, "--nproc_per_node"));
    }
    // The script's arguments: a bound recipe YAML's keys, then the command line's flags (which override them).
    const std::vector<model::ScriptFlag>& flags = model::script_flags(launch);
    for (const model::ScriptFlag& f : flags) {
      if (f.value && !f.value->known) continue;
      const std::string& key = f.name;
      const std::string val = f.value ? f.value->text : std::string();
      const Site s{f.path, f.region, f.from_yaml ? key : "--" + key};
      auto as_int = [&]() -> std::optional<std::int64_t> { return int_of(Value::of_string(val)); };
      if (key == "model_name_or_path" || key == "model" || key == "base_model") {
        if (!val.empty()) override_model(val, s);
      } else if (key == "per_device_train_batch_size" || key == "micro_batch_size") {
        if (auto v = as_int()) shape.micro_batch.set(*v, s);
      } else if (key == "max_seq_length" || key == "max_length" || key == "seq_len") {
        if (auto v = as_int()) shape.seq_len.set(*v, s);
      } else if (key == "gradient_accumulation_steps") {
        if (auto v = as_int()) shape.grad_accum.set(*v, s);
      } else if (key == "lora_r") {
        if (auto v = as_int()) shape.lora_r.set(*v, s);
      } else if (key == "lora_dropout") {
        try {
          shape.lora_dropout.set(std::stod(val), s);
        } catch (...) {
        }
      }  // NOLINT
      else if (key == "use_peft" && (val.empty() || model::parse_truth(val).value_or(false)))
        shape.training.set(Training::Lora, s);
      else if (key == "lora_target_modules")
        shape.lora_targets.set(split_names(val), s);
      else if (key == "optim")
        shape.optimizer.set(optimizer_named(val), s);
      else if ((key == "bf16" || key == "fp16") && (val.empty() || model::parse_truth(val).value_or(false)))
        shape.mixed_precision.set(key, s);
      else if (key == "load_in_4bit" && (val.empty() || model::parse_truth(val).value_or(false)))
        shape.training.set(Training::QLora, s);
    }
  }

  static std::optional<std::int64_t> find_flag(const model::LaunchCommand& cmd, std::string_view name) {
    for (const model::Flag& f : cmd.flags) {
      if (f.name == name && f.value && f.value->known) return int_of(Value::of_string(f.value->text));
    }
    return std::nullopt;
  }

  // --- effective values resolved by the model ----------------------------------------------------------------
  void effective() {
    const model::Launch& l = launch;
    if (auto ws = model::query::world_size(l)) {
      const model::Effective* e = l.get(model::keys::kWorldSize);
      Site s;
      if (e && e->decided_by) s = Site{e->decided_by->path, e->decided_by->region, e->decided_by->spelled};
      shape.world_size.set(*ws, s);
      if (tp_plan_auto && !shape.tp_degree.known()) shape.tp_degree.set(*ws, *tp_plan_auto);
      const model::Value& machines = l.value(model::keys::kNumMachines);
      if (!shape.gpus_per_node.known() && machines.kind == ValueKind::Int && machines.integer > 0 &&
          *ws % machines.integer == 0)
        shape.gpus_per_node.set(*ws / machines.integer, s);
    }
    const model::Value& mp = l.value(model::keys::kMixedPrecision);
    if (mp.kind == ValueKind::String && !shape.mixed_precision.known()) {
      const model::Effective* e = l.get(model::keys::kMixedPrecision);
      shape.mixed_precision.set(
          lower(mp.text),
          e && e->decided_by ? Site{e->decided_by->path, e->decided_by->region, e->decided_by->spelled} : Site{});
    }
    const auto ac = model::activation_checkpointing(l);
    if (ac.state != model::CheckpointingState::State::Unknown) {
      Site s;
      if (ac.site) s = Site{ac.site->path, ac.site->region, ac.site->spelled};
      shape.checkpointing.set(ac.state == model::CheckpointingState::State::On, s);
    }
    const model::Value& dt = l.value(model::keys::kDistributedType);
    if (model::query::fsdp_enabled(l)) {
      const auto v = model::query::fsdp_version(l);
      shape.strategy = v == 2 ? Strategy::Fsdp2 : Strategy::Fsdp1;
      if (!v) shape.notes.push_back("FSDP version not known: FSDP1 assumed");
      if (shape.strategy == Strategy::Fsdp1) {
        const model::Value& s = l.value(model::keys::kShardingStrategy);
        shape.sharding = s.known() ? s.text : "FULL_SHARD";
      } else {
        const model::Value& r = l.value(model::keys::kReshardAfterForward);
        shape.sharding =
            r.kind == ValueKind::Bool ? (r.boolean ? "true" : "false") : (r.known() ? r.display() : "true");
      }
      if (auto b = model::truth_of(l.value(model::keys::kOffloadParams))) shape.offload_params = *b;
      if (auto b = model::truth_of(l.value(model::keys::kUseOrigParams))) shape.use_orig_params = *b;
      const model::Value& bp = l.value(model::keys::kBackwardPrefetch);
      if (bp.known()) shape.backward_prefetch = bp.text;
      const model::Value& wp = l.value(model::keys::kAutoWrapPolicy);
      if (wp.known()) shape.wrap_policy = wp.text;
    } else if (dt.kind == ValueKind::String && dt.text == "DEEPSPEED") {
      shape.strategy = Strategy::DeepSpeed;
    } else if (shape.zero_stage.known()) {
      shape.strategy = Strategy::DeepSpeed;
    } else if (dt.kind == ValueKind::String && (dt.text == "MULTI_GPU" || dt.text == "NO")) {
      shape.strategy = dt.text == "NO" ? Strategy::Single : Strategy::Ddp;
    } else if (auto ws = model::query::world_size(l)) {
      shape.strategy = *ws == 1 ? Strategy::Single : Strategy::Ddp;
    }
    for (const model::Setting* s : l.assignments(model::keys::kTransformerLayerCls)) {
      if (s->origin == model::Origin::Default) continue;
      shape.wrap_classes.push_back(Site{s->path, s->region, s->value.kind == ValueKind::List ? "" : s->value.text});
    }
  }

  // --- local config.json --------------------------------------------------------------------------------------
  void geometry() {
    if (!shape.model_id.known()) return;
    const std::string& id = *shape.model_id.value;
    namespace fs = std::filesystem;
    // A local model folder is looked up from the file that names it (never from the working directory, so the
    // result does not depend on where launchlint runs), and only inside the project boundary (SECURITY.md).
    std::vector<fs::path> bases;
    if (!shape.model_id.site.path.empty()) bases.push_back(fs::path(shape.model_id.site.path).parent_path());
    for (const fs::path& base : bases) {
      std::error_code ec;
      const fs::path cfg = (fs::path(id).is_absolute() ? fs::path(id) : base / id) / "config.json";
      if (!source::may_read(cfg.string())) {
        if (fs::path(id).is_absolute() || id.starts_with("."))
          shape.notes.push_back(cfg.string() + " is outside the project: not read (--allow-outside PATH reads it)");
        continue;
      }
      source::note_access(cfg.string());
      if (!fs::is_regular_file(cfg, ec) || fs::file_size(cfg, ec) > (1u << 20)) continue;
      std::ifstream in(cfg, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      const source::SourceFile file(cfg.string(), ss.str());
      const parse::ConfigDocument doc = parse::read_json(file);
      if (!doc.errors.empty() || !doc.has_root) {
        shape.notes.push_back(cfg.string() + " could not be read as JSON");
        return;
      }
      std::string why;
      if (auto g = geometry_from_config(doc.root, cfg.string(), why)) {
        g->id = id;
        shape.geometry = std::move(*g);
      } else {
        shape.notes.push_back(cfg.string() + ": " + why);
      }
      return;
    }
    if (const Geometry* g = find_geometry(id)) shape.geometry = *g;
  }
};

TrainingShape compute_training_shape(const model::Launch& launch) {
  TrainingShape shape;
  Reader r{launch, shape, std::nullopt, std::nullopt};
  // Config files first, then the script (whose explicit calls are more specific), then the command line
  // (HfArgumentParser flags override the script's defaults).
  for (const model::Document* d : launch.documents) {
    if (d->kind != model::DocKind::PythonScript) r.config(*d);
  }
  for (const model::Document* d : launch.documents) {
    if (d->kind == model::DocKind::PythonScript && d->python) r.python(*d);
  }
  r.command();
  if (!shape.training.known() && r.trainer_config) {
    Site s = *r.trainer_config;
    s.spelled += " without a PEFT or quantisation configuration: full fine-tune";
    shape.training.set(Training::Full, s);
  }
  r.effective();
  r.geometry();
  if (shape.training.value == Training::Lora || shape.training.value == Training::QLora) {
    if (!shape.lora_targets.known())
      shape.notes.push_back("LoRA target modules not read: attention projections assumed");
  }
  return shape;
}

}  // namespace

const TrainingShape& read_training_shape(const model::Launch& launch) {
  return launch.derived<TrainingShape>(model::Derived::TrainingShape, compute_training_shape);
}

}  // namespace lint::memory
