#include "lint/memory/shape.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "lint/driver/driver.hpp"
#include "lint/memory/estimate.hpp"
#include "rules/registry.hpp"

using lint::memory::Optimizer;
using lint::memory::Strategy;
using lint::memory::Training;
using lint::memory::TrainingShape;

namespace {

/// The shape of the launch whose name starts with `name` (bound launches are named after their command).
TrainingShape shape_of(const std::string& path, const std::string& name) {
  lint::driver::RunOptions opts;
  opts.paths = {std::string(LAUNCHLINT_SOURCE_DIR) + "/" + path};
  opts.selection.select = std::vector<std::string>{"LL001"};
  opts.jobs = 1;
  const auto result = lint::driver::run(lint::rules::rule_table(), opts);
  for (const auto& l : result.launches) {
    if (l.name.find(name) != std::string::npos) return lint::memory::read_training_shape(l);
  }
  FAIL("no launch named " << name);
  return {};
}

}  // namespace

TEST_CASE("shape of accelerate + peft script: LoRA, FSDP1 strategy, world size", "[memory]") {
  const auto s = shape_of("examples/7b-lora-shard-grad-op", "launch.sh");
  REQUIRE(s.model_id.known());
  CHECK(*s.model_id.value == "meta-llama/Llama-2-7b-hf");
  REQUIRE(s.geometry);
  CHECK(s.geometry->decoder_layer_class == "LlamaDecoderLayer");
  CHECK(s.training.value == Training::Lora);
  CHECK(s.lora_r.value == 16);
  CHECK(*s.lora_targets.value == std::vector<std::string>{"q_proj", "k_proj", "v_proj", "o_proj"});
  CHECK(s.base_bytes.value == 2);
  CHECK(s.optimizer.value == Optimizer::AdamW);
  CHECK(s.world_size.value == 8);
  CHECK(s.strategy == Strategy::Fsdp1);
  CHECK(s.sharding == "SHARD_GRAD_OP");
  CHECK(s.checkpointing.value == false);
  CHECK(s.use_orig_params == false);
  CHECK_FALSE(s.seq_len.known());
  CHECK_FALSE(s.micro_batch.known());
}

TEST_CASE("the bundled example's estimates are within 10% of the measured table", "[memory]") {
  const auto s = shape_of("examples/7b-lora-shard-grad-op", "launch.sh");
  const double gib = 1024.0 * 1024.0 * 1024.0;
  const auto sgo = lint::memory::estimate_launch(s);
  const auto full = lint::memory::estimate_launch(s, std::string("FULL_SHARD"));
  // Measured (docs/measurements/fsdp-7b-lora.md, use_orig_params=False as in the example): SHARD_GRAD_OP 23.6,
  // FULL_SHARD 11.9 GiB per GPU on 8 ranks; with activation checkpointing 15.5 and 3.8; DDP 23.8 and 14.1.
  CHECK(std::abs(sgo.peak / gib / 23.6 - 1.0) <= 0.10);
  CHECK(std::abs(full.peak / gib / 11.9 - 1.0) <= 0.10);
  auto ac = s;
  ac.checkpointing.value = true;
  CHECK(std::abs(lint::memory::estimate_launch(ac).peak / gib / 15.5 - 1.0) <= 0.10);
  CHECK(std::abs(lint::memory::estimate_launch(ac, std::string("FULL_SHARD")).peak / gib / 3.8 - 1.0) <= 0.10);
  auto ddp = s;
  ddp.strategy = lint::memory::Strategy::Ddp;
  CHECK(std::abs(lint::memory::estimate_launch(ddp).peak / gib / 23.8 - 1.0) <= 0.10);
  ddp.checkpointing.value = true;
  CHECK(std::abs(lint::memory::estimate_launch(ddp).peak / gib / 14.1 - 1.0) <= 0.10);
  // Unknown sequence length and micro-batch make a range around the central estimate.
  CHECK(sgo.peak_low < sgo.peak);
  CHECK(sgo.peak_high > sgo.peak);
  CHECK(sgo.unknowns.size() == 2);
}

TEST_CASE("shape of TRL SFTConfig: full fine-tune, micro-batch, max_length", "[memory]") {
  const auto s = shape_of("fixtures/estimated-out-of-memory/bad_ddp_8b_full_finetune", "launch.sh");
  CHECK(*s.model_id.value == "meta-llama/Llama-3.1-8B");
  CHECK(s.training.value == Training::Full);
  CHECK(s.micro_batch.value == 4);
  CHECK(s.seq_len.value == 4096);
  CHECK(s.mixed_precision.value == std::string("bf16"));
  CHECK(s.strategy == Strategy::Ddp);
  CHECK(s.world_size.value == 8);
}

TEST_CASE("shape of axolotl YAML: adapter, rank, all-linear targets, sequence_len", "[memory]") {
  const auto s = shape_of("fixtures/parallel-degree-vs-heads/bad_tp_does_not_divide_heads.yaml", "bad_tp");
  CHECK(*s.model_id.value == "meta-llama/Llama-3.2-3B");
  CHECK(s.training.value == Training::Lora);
  CHECK(s.lora_r.value == 16);
  CHECK(*s.lora_targets.value == std::vector<std::string>{"all-linear"});
  CHECK(s.seq_len.value == 4096);
  CHECK(s.micro_batch.value == 1);
  CHECK(s.tp_degree.value == 16);
}

TEST_CASE("shape of LLaMA-Factory + DeepSpeed: full, ZeRO-3, micro-batch", "[memory]") {
  const auto s = shape_of("fixtures/batch-size-mismatch/bad_llamafactory", "train.sh");
  CHECK(*s.model_id.value == "meta-llama/Meta-Llama-3-8B-Instruct");
  CHECK(s.training.value == Training::Full);
  CHECK(s.zero_stage.value == 3);
  CHECK(s.micro_batch.value == 2);
  CHECK(s.grad_accum.value == 4);
  CHECK(s.strategy == Strategy::DeepSpeed);
}

TEST_CASE("shape of torchtitan TOML: flavor, seq_len, TP degree", "[memory]") {
  const auto s = shape_of("fixtures/parallel-degree-vs-heads/bad_tp_does_not_divide_kv_heads.toml", "bad_tp");
  CHECK(*s.model_id.value == "llama3/8B");
  REQUIRE(s.geometry);
  CHECK(s.geometry->kv_heads == 8);
  CHECK(s.seq_len.value == 8192);
  CHECK(s.tp_degree.value == 16);
}

TEST_CASE("estimates for unknown models are not guessed", "[memory]") {
  const auto s = shape_of("fixtures/wrap-class-not-in-model/ok_unknown_model.py", "ok_unknown");
  CHECK_FALSE(s.model_id.known());
  const auto e = lint::memory::estimate_launch(s);
  CHECK_FALSE(e.available);
  CHECK(e.unavailable == "the launched model is not known");
}

TEST_CASE("memory model physics: sharding, checkpointing and offload move the peak the right way", "[memory]") {
  lint::memory::Inputs in;
  in.geometry = *lint::memory::find_geometry("meta-llama/Llama-3.1-8B");
  in.training = Training::Full;
  in.strategy = Strategy::Fsdp1;
  in.sharding = "FULL_SHARD";
  const auto full = lint::memory::estimate(in);
  in.sharding = "SHARD_GRAD_OP";
  const auto sgo = lint::memory::estimate(in);
  CHECK(sgo.peak > full.peak);
  in.sharding = "FULL_SHARD";
  in.checkpointing = true;
  const auto ac = lint::memory::estimate(in);
  CHECK(ac.peak < full.peak);
  in.offload_params = true;
  const auto off = lint::memory::estimate(in);
  CHECK(off.steady == 64.0 * 1024 * 1024);  // nothing on the GPU between steps but the two cuBLAS workspaces
  CHECK(off.peak < ac.peak);
  in.offload_params = false;
  in.world_size = 64;
  CHECK(lint::memory::estimate(in).steady < ac.steady);
  // ZeRO stages shard more as the stage rises (optimizer state, then gradients, then parameters).
  in.strategy = Strategy::DeepSpeed;
  in.world_size = 8;
  double last = 1e30;
  for (int stage = 0; stage <= 3; ++stage) {
    in.zero_stage = stage;
    const double peak = lint::memory::estimate(in).peak;
    CHECK(peak < last);
    last = peak;
  }
}

TEST_CASE("a local model folder's config.json gives the geometry", "[memory]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("launchlint_memory_local_model-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "checkpoints" / "tiny");
  std::ofstream(dir / "checkpoints" / "tiny" / "config.json")
      << R"({"model_type": "mistral", "hidden_size": 1024, "num_hidden_layers": 4, "num_attention_heads": 16,
             "num_key_value_heads": 4, "intermediate_size": 4096, "vocab_size": 32000})";
  std::ofstream(dir / "train.py") << "from transformers import AutoModelForCausalLM, Trainer, TrainingArguments\n"
                                     "model = AutoModelForCausalLM.from_pretrained(\"checkpoints/tiny\")\n"
                                     "args = TrainingArguments(output_dir=\"out\", fsdp=\"full_shard\")\n"
                                     "Trainer(model=model, args=args).train()\n";
  lint::driver::RunOptions opts;
  opts.paths = {dir.generic_string()};
  opts.selection.select = std::vector<std::string>{"LL001"};
  opts.jobs = 1;
  const auto result = lint::driver::run(lint::rules::rule_table(), opts);
  REQUIRE_FALSE(result.launches.empty());
  const auto s = lint::memory::read_training_shape(result.launches.front());
  REQUIRE(s.geometry);
  CHECK(s.geometry->decoder_layer_class == "MistralDecoderLayer");
  CHECK(s.geometry->kv_heads == 4);
  CHECK(s.geometry->source.ends_with("config.json"));
  fs::remove_all(dir);
}

namespace {

TrainingShape shape_of_script(const std::string& folder, const std::string& script) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / (folder + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "train.py") << script;
  lint::driver::RunOptions opts;
  opts.paths = {dir.generic_string()};
  opts.selection.select = std::vector<std::string>{"LL001"};
  opts.jobs = 1;
  const auto result = lint::driver::run(lint::rules::rule_table(), opts);
  TrainingShape s;
  if (!result.launches.empty()) s = lint::memory::read_training_shape(result.launches.front());
  fs::remove_all(dir);
  return s;
}

}  // namespace

TEST_CASE("QLoRA: BitsAndBytesConfig, prepare_model_for_kbit_training and their memory terms", "[memory]") {
  const std::string head =
      "import torch\n"
      "from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments\n"
      "from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training\n"
      "bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=\"nf4\", bnb_4bit_use_double_quant=True)\n"
      "model = AutoModelForCausalLM.from_pretrained(\"meta-llama/Llama-3.1-8B\", quantization_config=bnb)\n";
  const std::string tail =
      "model = get_peft_model(model, LoraConfig(r=16, target_modules=[\"q_proj\", \"v_proj\"]))\n"
      "args = TrainingArguments(output_dir=\"out\", per_device_train_batch_size=1, bf16=True)\n"
      "Trainer(model=model, args=args).train()\n";
  const auto prepped =
      shape_of_script("launchlint_memory_qlora_prep", head + "model = prepare_model_for_kbit_training(model)\n" + tail);
  REQUIRE(prepped.geometry);
  CHECK(prepped.training.value == Training::QLora);
  CHECK(prepped.kbit_prep.value == true);
  CHECK(prepped.double_quant.value == true);
  const auto plain = shape_of_script("launchlint_memory_qlora_plain", head + tail);
  CHECK(plain.training.value == Training::QLora);
  CHECK_FALSE(plain.kbit_prep.known());

  auto in = lint::memory::central_inputs(prepped);
  REQUIRE(in);
  CHECK(in->kbit_prep);
  in->strategy = Strategy::Single;
  in->world_size = 1;
  in->seq_len = 2048;
  const auto with_prep = lint::memory::estimate(*in);
  in->kbit_prep = false;
  const auto without = lint::memory::estimate(*in);
  const double gib = 1024.0 * 1024.0 * 1024.0;
  auto term = [](const lint::memory::Estimate& e, const std::string& name) {
    for (const auto& t : e.breakdown)
      if (t.name == name) return t.bytes;
    return 0.0;
  };
  // Llama-3.1-8B: 6.98B linear weights at 0.5 B + 1/64 B (double-quantized absmax), 1.05B embedding and head
  // parameters at 2 B, fp32 (4 B) after prepare_model_for_kbit_training.
  CHECK(term(without, "parameters") / gib == Approx(5.33).epsilon(0.03));
  CHECK(term(with_prep, "parameters") / gib == Approx(7.29).epsilon(0.03));
  // The fp32 residual stream: more activations, and a bf16 copy of the fp32 head for its backward.
  CHECK(with_prep.peak > without.peak + 1.0 * gib);
  CHECK(with_prep.reserved >= with_prep.peak);
}

namespace {

/// The central inputs of a Trainer script that names `ds.json`, written beside it with `zero`'s text.
std::optional<lint::memory::Inputs> deepspeed_inputs(const std::string& tag, const std::string& zero) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("launchlint_memory_ds_" + tag + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "train.py") << "from transformers import AutoModelForCausalLM, Trainer, TrainingArguments\n"
                                     "model = AutoModelForCausalLM.from_pretrained(\"meta-llama/Llama-3.1-8B\")\n"
                                     "args = TrainingArguments(output_dir=\"out\", bf16=True, deepspeed=\"ds.json\")\n"
                                     "Trainer(model=model, args=args).train()\n";
  std::ofstream(dir / "ds.json") << R"({"bf16": {"enabled": "auto"}, "zero_optimization": )" << zero << "}";
  lint::driver::RunOptions opts;
  opts.paths = {dir.generic_string()};
  opts.selection.select = std::vector<std::string>{"LL001"};
  opts.jobs = 1;
  const auto result = lint::driver::run(lint::rules::rule_table(), opts);
  std::optional<lint::memory::Inputs> in;
  for (const auto& l : result.launches) {
    if (l.name.find("train.py") != std::string::npos)
      in = lint::memory::central_inputs(lint::memory::read_training_shape(l));
  }
  fs::remove_all(dir);
  return in;
}

}  // namespace

TEST_CASE("DeepSpeed buckets: \"auto\" is hidden^2, a number is read, absent is DeepSpeed's default", "[memory]") {
  const auto autos = deepspeed_inputs("auto", R"({"stage": 3, "reduce_bucket_size": "auto"})");
  REQUIRE(autos);
  CHECK(autos->strategy == Strategy::DeepSpeed);
  CHECK(autos->zero_stage == 3);
  CHECK(autos->ds_reduce_bucket == 4096.0 * 4096.0);
  CHECK(autos->ds_max_live == 1e9);
  const auto given =
      deepspeed_inputs("given", R"({"stage": 3, "reduce_bucket_size": 2e8, "stage3_max_live_parameters": 3e8})");
  REQUIRE(given);
  CHECK(given->ds_reduce_bucket == 2e8);
  CHECK(given->ds_max_live == 3e8);
  const auto absent = deepspeed_inputs("absent", R"({"stage": 3})");
  REQUIRE(absent);
  CHECK(absent->ds_reduce_bucket == 5e8);
  // ZeRO-3 keeps the reduce bucket between steps: DeepSpeed's default 5e8 costs ~0.93 GiB more than "auto".
  const double gib = 1024.0 * 1024.0 * 1024.0;
  const double d = (lint::memory::estimate(*absent).steady - lint::memory::estimate(*autos).steady) / gib;
  CHECK(d == Approx(0.90).margin(0.05));
  // The window of gathered parameters: a LoRA run with checkpointing peaks at the end of forward, where ZeRO-3 still
  // holds stage3_max_live_parameters (plus the head) gathered: 1e8 instead of 1e9 is 0.9e9 x 2 B less.
  auto lora = *autos;
  lora.training = Training::Lora;
  lora.checkpointing = true;
  auto narrow = lora;
  narrow.ds_max_live = 1e8;
  const double saved = (lint::memory::estimate(lora).peak - lint::memory::estimate(narrow).peak) / gib;
  CHECK(saved == Approx(0.9e9 * 2 / gib).margin(0.01));
}
