#include "lint/model/quantization_facts.hpp"

#include <algorithm>
#include <set>

namespace lint::model {

std::optional<std::string> dtype_name(const Value& v) {
  std::string t;
  if (v.kind == ValueKind::Enum && (v.qualifier == "torch" || v.qualifier == "numpy"))
    t = v.text;
  else if (v.kind == ValueKind::String)
    t = v.text;
  else
    return std::nullopt;
  if (t.starts_with("torch.")) t = t.substr(6);
  if (t == "bf16") t = "bfloat16";
  if (t == "fp16" || t == "half") t = "float16";
  if (t == "fp32" || t == "float") t = "float32";
  return t;
}

namespace {

/// A model's `from_pretrained` (not a tokenizer's, a processor's or a config's).
bool is_model_loader(const PyCall& c) {
  if (c.name != "from_pretrained") return false;
  for (std::string_view not_model :
       {"Tokenizer", "Processor", "Config", "FeatureExtractor", "PeftModel", "tokenizer", "processor"}) {
    if (c.callee.find(not_model) != std::string::npos) return false;
  }
  return true;
}

bool is_true(const Value& v) {
  return v.kind == ValueKind::Bool && v.boolean;
}

/// HfArgumentParser's string_to_bool for a flag value; a bare flag is true.
std::optional<bool> flag_truth(const ScriptFlag& f) {
  if (!f.value) return true;
  if (!f.value->known) return std::nullopt;
  std::string l = f.value->text;
  for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (l == "yes" || l == "true" || l == "t" || l == "y" || l == "1") return true;
  if (l == "no" || l == "false" || l == "f" || l == "n" || l == "0") return false;
  return std::nullopt;
}

void python_facts(const Document& doc, QuantizationFacts& out) {
  const PythonFacts& py = *doc.python;
  std::vector<QuantizedLoad> loads;
  std::set<std::string> dtypes;
  bool dtype_unknown = false;
  for (const PyCall& c : py.calls) {
    if (c.callee.starts_with("unsloth")) out.unsloth.push_back(Site{doc.path(), c.callee_region, c.callee});
    if (c.name == "BitsAndBytesConfig") {
      for (int bits : {8, 4}) {
        const PyArg* a = c.keyword(bits == 8 ? "load_in_8bit" : "load_in_4bit");
        if (a == nullptr || !is_true(a->value)) continue;
        QuantizedLoad q;
        q.bits = bits;
        q.site = Site{doc.path(), a->region, "BitsAndBytesConfig(" + a->name + "=True)"};
        if (const PyArg* s = c.keyword("bnb_4bit_quant_storage")) {
          q.storage = dtype_name(s->value);
          q.storage_site = Site{doc.path(), s->region, "bnb_4bit_quant_storage=" + s->value.display()};
        }
        loads.push_back(std::move(q));
      }
      continue;
    }
    if (!is_model_loader(c)) continue;
    bool quantized = c.keyword("quantization_config") != nullptr;
    for (int bits : {8, 4}) {
      const PyArg* a = c.keyword(bits == 8 ? "load_in_8bit" : "load_in_4bit");
      if (a == nullptr || !is_true(a->value)) continue;
      quantized = true;
      QuantizedLoad q;
      q.bits = bits;
      q.site = Site{doc.path(), a->region, "from_pretrained(" + a->name + "=True)"};
      loads.push_back(std::move(q));
    }
    if (quantized) {
      const PyArg* d = c.keyword("dtype");
      if (d == nullptr) d = c.keyword("torch_dtype");
      if (d != nullptr) {
        if (auto n = dtype_name(d->value))
          dtypes.insert(*n);
        else
          dtype_unknown = true;
      }
    }
    if (const PyArg* dm = c.keyword("device_map")) {
      const Value& v = dm->value;
      const bool none = v.kind == ValueKind::None || v.kind == ValueKind::Unknown;
      if (!none) {
        Site s{doc.path(), dm->region, "device_map=" + v.display()};
        out.device_maps.push_back(s);
        if (v.kind == ValueKind::String &&
            (v.text == "auto" || v.text == "balanced" || v.text == "balanced_low_0" || v.text == "sequential"))
          out.auto_device_maps.push_back(s);
      }
    }
    if (const PyArg* lc = c.keyword("low_cpu_mem_usage"); lc != nullptr && is_true(lc->value))
      out.low_cpu_mem_usage.push_back(Site{doc.path(), lc->region, "low_cpu_mem_usage=True"});
  }
  // A script that builds both an 8-bit and a 4-bit configuration chooses at run time: neither is known.
  const bool has8 = std::any_of(loads.begin(), loads.end(), [](const QuantizedLoad& q) { return q.bits == 8; });
  const bool has4 = std::any_of(loads.begin(), loads.end(), [](const QuantizedLoad& q) { return q.bits == 4; });
  if (has8 && has4) return;
  for (QuantizedLoad& q : loads) {
    if (dtype_unknown || dtypes.size() > 1)
      q.model_dtype.reset();
    else if (dtypes.size() == 1)
      q.model_dtype = *dtypes.begin();
    out.loads.push_back(std::move(q));
  }
}

/// How a script argument is written, for messages: `--load_in_4bit true`, or `load_in_4bit: true` in a YAML.
std::string spelled(const ScriptFlag& f) {
  if (f.from_yaml) return f.name + ": " + (f.value ? f.value->text : std::string());
  return "--" + f.name + (f.value ? " " + f.value->text : std::string());
}

/// Whether the launched script is LLaMA-Factory's entry point: it imports `llamafactory` (or `llmtuner`, its name
/// before 0.8), whose `run_exp` parses the command line with LLaMA-Factory's own argument classes.
bool llamafactory_entry(const Launch& l) {
  const Document* script = launch_script(l);
  if (script == nullptr || !script->python) return false;
  for (const auto& [local, qualified] : script->python->imports) {
    if (qualified == "llamafactory" || qualified.starts_with("llamafactory.") || qualified == "llmtuner" ||
        qualified.starts_with("llmtuner."))
      return true;
  }
  return false;
}

void flag_facts(const Launch& l, QuantizationFacts& out) {
  const auto& flags = script_flags(l);
  // TRL ModelConfig: --load_in_8bit / --load_in_4bit / --bnb_4bit_quant_storage / --dtype
  // (trl/trainer/model_config.py); peft's examples/sft: --use_8bit_quantization / --use_4bit_quantization /
  // --bnb_4bit_quant_storage_dtype, the model loaded in the storage dtype when it is a float (examples/sft/utils.py).
  struct Spelling {
    const char* flag;
    int bits;
  };
  for (const Spelling sp : {Spelling{"load_in_8bit", 8}, Spelling{"use_8bit_quantization", 8},
                            Spelling{"load_in_4bit", 4}, Spelling{"use_4bit_quantization", 4}}) {
    const ScriptFlag* f = find_script_flag(flags, sp.flag);
    if (f == nullptr || flag_truth(*f) != std::optional<bool>(true)) continue;
    QuantizedLoad q;
    q.bits = sp.bits;
    q.front_end = LoaderFrontEnd::ScriptFlags;
    q.site = Site{f->path, f->region, spelled(*f)};
    const bool peft_example = std::string_view(sp.flag).starts_with("use_");
    const ScriptFlag* s =
        find_script_flag(flags, peft_example ? "bnb_4bit_quant_storage_dtype" : "bnb_4bit_quant_storage");
    if (s != nullptr && s->value) {
      q.storage = s->value->known ? dtype_name(Value::of_string(s->value->text)) : std::nullopt;
      q.storage_site = Site{s->path, s->region, spelled(*s)};
    }
    if (peft_example) {
      // The example loads the model in the storage dtype when that is a float, else in float32.
      q.model_dtype.reset();
    } else {
      const ScriptFlag* d = find_script_flag(flags, "dtype");
      if (d == nullptr) d = find_script_flag(flags, "torch_dtype");
      if (d != nullptr && d->value) {
        q.model_dtype = d->value->known ? dtype_name(Value::of_string(d->value->text)) : std::nullopt;
        q.dtype_site = Site{d->path, d->region, spelled(*d)};
      } else {
        q.model_dtype.reset();  // ModelConfig's default, which the script may override
      }
    }
    out.loads.push_back(std::move(q));
  }
  // LLaMA-Factory's own entry point (`src/train.py` / `train_bash.py` calling `run_exp`) given its arguments on the
  // command line (`deepspeed src/train.py --quantization_bit 8 --use_unsloth true ...`): the same keys as its YAML.
  if (!llamafactory_entry(l)) return;
  if (const ScriptFlag* f = find_script_flag(flags, "quantization_bit"); f != nullptr && f->value && f->value->known) {
    const ScriptFlag* m = find_script_flag(flags, "quantization_method");
    const bool bnb =
        m == nullptr || (m->value && m->value->known && (m->value->text == "bnb" || m->value->text == "bitsandbytes"));
    if (bnb && (f->value->text == "8" || f->value->text == "4")) {
      QuantizedLoad q;
      q.bits = f->value->text == "8" ? 8 : 4;
      q.front_end = LoaderFrontEnd::LlamaFactory;
      q.site = Site{f->path, f->region, spelled(*f)};
      q.storage = "compute_dtype";
      q.model_dtype = "compute_dtype";
      out.loads.push_back(std::move(q));
    }
  }
  if (const ScriptFlag* f = find_script_flag(flags, "use_unsloth");
      f != nullptr && flag_truth(*f) == std::optional<bool>(true))
    out.unsloth.push_back(Site{f->path, f->region, spelled(*f)});
}

void yaml_facts(const Document& doc, QuantizationFacts& out) {
  const parse::Node* root = doc.root_map();
  if (root == nullptr) return;
  auto truthy = [&](std::string_view key) -> const parse::Entry* {
    const parse::Entry* e = root->find_entry(key);
    return e != nullptr && e->value.kind == parse::NodeKind::Bool && e->value.boolean ? e : nullptr;
  };
  if (doc.kind == DocKind::AxolotlConfig) {
    if (const parse::Entry* e = truthy("load_in_8bit")) {
      QuantizedLoad q;
      q.bits = 8;
      q.front_end = LoaderFrontEnd::Axolotl;
      q.site = Site{doc.path(), e->key.region, "load_in_8bit: true"};
      out.loads.push_back(std::move(q));
    }
    const parse::Node* adapter = root->find("adapter");
    if (const parse::Entry* e = truthy("load_in_4bit");
        e != nullptr && adapter != nullptr && adapter->kind == parse::NodeKind::String && adapter->text == "qlora") {
      // axolotl builds the 4-bit config itself with bnb_4bit_quant_storage=torch.bfloat16 (loaders/model.py).
      QuantizedLoad q;
      q.bits = 4;
      q.front_end = LoaderFrontEnd::Axolotl;
      q.site = Site{doc.path(), e->key.region, "load_in_4bit: true"};
      q.storage = "bfloat16";
      q.model_dtype.reset();
      out.loads.push_back(std::move(q));
    }
  } else if (doc.kind == DocKind::LlamaFactoryConfig) {
    const parse::Entry* bits = root->find_entry("quantization_bit");
    const parse::Node* method = root->find("quantization_method");
    const bool bnb = method == nullptr || (method->kind == parse::NodeKind::String &&
                                           (method->text == "bnb" || method->text == "bitsandbytes"));
    if (bits != nullptr && bnb && bits->value.kind == parse::NodeKind::Int &&
        (bits->value.integer == 8 || bits->value.integer == 4)) {
      QuantizedLoad q;
      q.bits = static_cast<int>(bits->value.integer);
      q.front_end = LoaderFrontEnd::LlamaFactory;
      q.site = Site{doc.path(), bits->value.region, "quantization_bit: " + bits->value.text};
      // LLaMA-Factory stores 4-bit weights in the compute dtype, the model's dtype (model_utils/quantization.py).
      q.storage = "compute_dtype";
      q.model_dtype = "compute_dtype";
      out.loads.push_back(std::move(q));
    }
    if (const parse::Entry* e = truthy("use_unsloth"))
      out.unsloth.push_back(Site{doc.path(), e->key.region, "use_unsloth: true"});
  }
}

/// Whether a site of a module the script imports from runs when the script calls what it imports: inside a
/// function of one of those names, or in `__init__` of a class of one of those names (the last class defined
/// before the site). Module-level code is left out: it may sit under `if __name__ == "__main__":`.
bool runs_when_called(const Document& d, const Site& s, const std::vector<std::string>& names) {
  const PyCall* at = nullptr;
  for (const PyCall& c : d.python->calls) {
    if (c.region.begin_byte <= s.region.begin_byte && s.region.end_byte <= c.region.end_byte) at = &c;
  }
  if (at == nullptr || at->function.empty()) return false;
  const auto named = [&names](const std::string& n) { return std::find(names.begin(), names.end(), n) != names.end(); };
  if (named(at->function)) return true;
  if (at->function != "__init__") return false;
  const PyClass* cls = nullptr;
  for (const PyClass& k : d.python->classes) {
    if (k.region.begin_byte < s.region.begin_byte) cls = &k;
  }
  return cls != nullptr && named(cls->name);
}

/// The loads of the modules the training script imports from and calls (Launch::imported_modules) that run when
/// it calls them: `from model import LlamaLoraModel` loads the model under the launch's ZeRO-3.
void imported_facts(const Launch& l, QuantizationFacts& out) {
  for (const ImportedModule& m : l.imported_modules) {
    const Document& d = *m.document;
    if (!d.python || std::find(l.documents.begin(), l.documents.end(), &d) != l.documents.end()) continue;
    QuantizationFacts mine;
    python_facts(d, mine);
    const auto keep = [&](const Site& s) { return runs_when_called(d, s, m.names); };
    for (QuantizedLoad& q : mine.loads) {
      if (keep(q.site)) out.loads.push_back(std::move(q));
    }
    for (auto [from, to] :
         {std::pair{&mine.device_maps, &out.device_maps}, std::pair{&mine.auto_device_maps, &out.auto_device_maps},
          std::pair{&mine.low_cpu_mem_usage, &out.low_cpu_mem_usage}}) {
      for (Site& s : *from) {
        if (keep(s)) to->push_back(std::move(s));
      }
    }
  }
}

QuantizationFacts read_quantization_facts(const Launch& l) {
  QuantizationFacts out;
  for (const Document* d : l.documents) {
    if (d->kind == DocKind::PythonScript && d->python) python_facts(*d, out);
    if (d->kind == DocKind::AxolotlConfig || d->kind == DocKind::LlamaFactoryConfig) yaml_facts(*d, out);
  }
  imported_facts(l, out);
  flag_facts(l, out);
  // TRL's scripts set `model_kwargs["device_map"] = get_kbit_device_map()` exactly when they quantize
  // (trl/scripts/sft.py, dpo.py, grpo.py): a per-process device map whenever the launch loads quantized.
  if (!out.loads.empty()) {
    if (const Document* script = launch_script(l)) {
      for (const PyCall& c : script->python->calls) {
        if (c.name == "get_kbit_device_map")
          out.device_maps.push_back(Site{script->path(), c.region, "device_map=get_kbit_device_map()"});
      }
    }
  }
  return out;
}

}  // namespace

const QuantizationFacts& quantization_facts(const Launch& l) {
  return l.derived<QuantizationFacts>(Derived::QuantizationFacts, read_quantization_facts);
}

}  // namespace lint::model
