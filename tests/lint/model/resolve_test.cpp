// The resolver's precedence per tool, through the real readers and the binder (in memory: no file is on disk).
#include "lint/model/resolve.hpp"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "lint/bind/binder.hpp"
#include "lint/driver/driver.hpp"
#include "lint/model/query.hpp"

using lint::model::Document;
using lint::model::Launch;
using lint::model::Launcher;
using lint::model::Origin;
using lint::model::SourceKind;
using lint::model::ValueKind;
namespace keys = lint::model::keys;

namespace {

/// Files of one project; the launch commands of `run.sh` are bound and resolved.
class Project {
 public:
  Project& file(std::string path, std::string text) {
    docs_.push_back(lint::driver::load_document(std::move(path), std::move(text), true));
    return *this;
  }
  /// The launches of every command in the files, in order.
  std::vector<Launch> launches() {
    lint::bind::DocumentSet set(docs_, [](const std::string& path) {
      auto d = std::make_unique<Document>();
      d->source = std::make_shared<lint::source::SourceFile>(path, "");
      d->read_error = "not on disk in this test";
      return d;
    });
    std::vector<Launch> out;
    for (const auto& site : lint::bind::collect_commands(set, {}))
      out.push_back(lint::model::resolve_bound(lint::bind::bind_command(set, site)));
    return out;
  }
  Launch only() {
    auto all = launches();
    REQUIRE(all.size() == 1);
    return std::move(all.front());
  }
  Launch alone(std::size_t i) { return lint::model::resolve_file(*docs_.at(i)); }

 private:
  std::vector<std::unique_ptr<Document>> docs_;
};

constexpr const char* kFsdpConfig =
    "compute_environment: LOCAL_MACHINE\n"
    "distributed_type: FSDP\n"
    "num_processes: 8\n"
    "fsdp_config:\n"
    "  fsdp_version: 1\n"
    "  fsdp_sharding_strategy: SHARD_GRAD_OP\n";

}  // namespace

TEST_CASE("accelerate launch: a flag beats the config file, which beats the launcher's default") {
  Project p;
  p.file("cfg.yaml", kFsdpConfig)
      .file("run.sh", "accelerate launch --config_file cfg.yaml --fsdp_sharding_strategy FULL_SHARD train.py\n");
  const Launch l = p.only();
  CHECK(l.launcher == Launcher::AccelerateLaunch);
  const auto* e = l.get(keys::kShardingStrategy);
  REQUIRE(e->decided_by != nullptr);
  CHECK(e->value.text == "FULL_SHARD");
  CHECK(e->decided_by->origin == Origin::LaunchFlag);
  REQUIRE(e->overridden.size() == 1);
  CHECK(e->overridden[0]->origin == Origin::ConfigFile);
  CHECK(lint::model::query::world_size(l) == 8);
  CHECK(lint::model::query::launch_command(l) != nullptr);
  CHECK(lint::model::query::accelerate_config(l) != nullptr);
}

TEST_CASE("accelerate launch: the FSDP variables it always exports overwrite the script's own") {
  Project p;
  p.file("cfg.yaml", kFsdpConfig)
      .file("run.sh", "export FSDP_SHARDING_STRATEGY=NO_SHARD\naccelerate launch --config_file cfg.yaml train.py\n");
  const Launch l = p.only();
  const auto* e = l.get(keys::kShardingStrategy);
  CHECK(e->value.text == "SHARD_GRAD_OP");
  REQUIRE(e->overridden.size() == 1);
  CHECK(e->overridden[0]->source == SourceKind::EnvOverwrittenByLauncher);
}

TEST_CASE("torchrun: the script's plugin beats the inherited environment, which beats the plugin default") {
  Project p;
  p.file("train.py",
         "from accelerate import FullyShardedDataParallelPlugin\n"
         "plugin = FullyShardedDataParallelPlugin(sharding_strategy='SHARD_GRAD_OP')\n")
      .file("run.sh",
            "export ACCELERATE_USE_FSDP=true FSDP_SHARDING_STRATEGY=NO_SHARD FSDP_OFFLOAD_PARAMS=true\n"
            "torchrun --nproc_per_node 4 --nnodes 2 train.py\n");
  const Launch l = p.only();
  CHECK(l.launcher == Launcher::Torchrun);
  CHECK(l.value(keys::kShardingStrategy).text == "SHARD_GRAD_OP");
  CHECK(l.get(keys::kShardingStrategy)->decided_by->origin == Origin::PluginObject);
  CHECK(l.value(keys::kOffloadParams).kind == ValueKind::Bool);
  CHECK(l.value(keys::kOffloadParams).boolean);  // environment over the plugin default (False)
  CHECK(l.world_size() == 8);
}

TEST_CASE("Trainer: fsdp_x beats x in fsdp_config, as transformers' prefix-stripping loop does") {
  // transformers 5.17 training_args.py:2743-2745 pops each `fsdp_`-prefixed key and assigns it to the bare name,
  // so {"fsdp_version": 1, "version": 2} is FSDP1 whatever the order (HF001 reads it the same way).
  for (const char* dict : {"{'fsdp_version': 1, 'version': 2}", "{'version': 2, 'fsdp_version': 1}"}) {
    Project p;
    p.file("train.py", std::string("from transformers import TrainingArguments\n"
                                   "args = TrainingArguments(fsdp='full_shard', fsdp_config=") +
                           dict + ")\n");
    const Launch l = p.alone(0);
    CHECK(l.fsdp_version() == 1);
  }
}

TEST_CASE("Trainer: under FSDP1 its strategy word never decides the strategy") {
  Project p;
  p.file("train.py",
         "from transformers import TrainingArguments\n"
         "args = TrainingArguments(fsdp='shard_grad_op', fsdp_config={'version': 1})\n");
  const Launch alone = p.alone(0);
  CHECK(alone.get(keys::kShardingStrategy)->decided_by == nullptr);  // FSDP_SHARDING_STRATEGY or FULL_SHARD

  p.file("cfg.yaml", kFsdpConfig).file("run.sh", "accelerate launch --config_file cfg.yaml train.py\n");
  const Launch l = p.only();
  const auto* e = l.get(keys::kShardingStrategy);
  CHECK(e->value.text == "SHARD_GRAD_OP");
  CHECK(e->decided_by->origin == Origin::ConfigFile);
  bool word_lost = false;
  for (const auto* s : e->overridden) word_lost |= s->source == SourceKind::TrainerFsdp1StrategyWord;
  CHECK(word_lost);
}

TEST_CASE("torchtitan: NGPU from the environment, else run_train.sh's default of 8") {
  Project p;
  p.file("llama.toml", "[parallelism]\ndata_parallel_shard_degree = -1\n[activation_checkpoint]\nmode = 'full'\n")
      .file("run.sh", "NGPU=4 CONFIG_FILE=llama.toml ./run_train.sh\n./run_train.sh --job.config_file llama.toml\n");
  auto ls = p.launches();
  REQUIRE(ls.size() == 2);
  CHECK(ls[0].world_size() == 4);
  CHECK(ls[1].world_size() == 8);
  CHECK(ls[1].get(keys::kWorldSize)->decided_by->source == SourceKind::LauncherDefault);
  CHECK(ls[0].fsdp_enabled());
  CHECK(ls[0].fsdp_version() == 2);
  CHECK(lint::model::query::activation_checkpointing(ls[0]).state == lint::model::query::CheckpointingState::State::On);
}

TEST_CASE("deepspeed and LLaMA-Factory: process counts from flags and environment, unknown otherwise") {
  Project p;
  p.file("run.sh",
         "deepspeed --num_gpus 4 --num_nodes 2 train.py\n"
         "deepspeed --hostfile hosts --num_gpus 4 train.py\n"
         "NPROC_PER_NODE=4 NNODES=2 llamafactory-cli train sft.yaml\n"
         "llamafactory-cli train sft.yaml\n");
  auto ls = p.launches();
  REQUIRE(ls.size() == 4);
  CHECK(ls[0].world_size() == 8);
  CHECK_FALSE(ls[1].world_size());
  CHECK(ls[2].world_size() == 8);
  CHECK_FALSE(ls[3].world_size());  // all visible GPUs: not statically known, and not 1
}

TEST_CASE("axolotl: a missing fsdp_version is 1, and fsdp_config keys are read with or without fsdp_") {
  Project p;
  p.file("cfg.yml",
         "base_model: x\nfsdp: [full_shard, auto_wrap]\nfsdp_config:\n  fsdp_activation_checkpointing: true\n");
  const Launch l = p.alone(0);
  CHECK(l.fsdp_version() == 1);
  CHECK(l.value(keys::kActivationCheckpointing).kind == ValueKind::Bool);
}

TEST_CASE("an accelerate config alone is `accelerate launch --config_file` it") {
  Project p;
  p.file("cfg.yaml", "compute_environment: LOCAL_MACHINE\ndistributed_type: NO\n");
  const Launch l = p.alone(0);
  CHECK(l.launcher == Launcher::AccelerateLaunch);
  CHECK(l.world_size() == 1);  // accelerate's default for NO
  CHECK_FALSE(l.fsdp_enabled());
}
