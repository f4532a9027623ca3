// DeepSpeed and quantization facts of a launch, through every door a launch opens.
#include "lint/model/deepspeed_facts.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>

#include "lint/driver/driver.hpp"
#include "lint/model/quantization_facts.hpp"

namespace fs = std::filesystem;
using lint::model::DeepSpeedReader;

namespace {

/// Writes `files` into a fresh folder and runs the pipeline there without rules; returns the bound launch.
struct Case {
  fs::path root;
  lint::driver::RunResult result;

  explicit Case(const std::map<std::string, std::string>& files) {
    root = fs::temp_directory_path() / ("ds-facts-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(std::hash<std::string>{}(files.begin()->second)) + "-" +
                                        std::to_string(files.size()));
    fs::remove_all(root);
    for (const auto& [name, text] : files) {
      fs::create_directories((root / name).parent_path());
      std::ofstream(root / name) << text;
    }
    lint::driver::RunOptions opt;
    opt.paths = {root.string()};
    opt.jobs = 1;
    result = lint::driver::run({}, opt);
  }
  ~Case() { fs::remove_all(root); }
  Case(const Case&) = delete;
  Case& operator=(const Case&) = delete;

  const lint::model::Launch& bound() const {
    for (const auto& l : result.launches) {
      if (!l.per_file) return l;
    }
    FAIL("no bound launch");
    return result.launches.front();
  }
};

const char* kTrainer =
    "from transformers import HfArgumentParser, TrainingArguments\n"
    "parser = HfArgumentParser(TrainingArguments)\n"
    "(args,) = parser.parse_args_into_dataclasses()\n";

}  // namespace

TEST_CASE("deepspeed_state: a JSON through --deepspeed, read by the Trainer", "[model][deepspeed]") {
  Case c({{"launch.sh", "torchrun --nproc_per_node 4 train.py --deepspeed ds.json\n"},
          {"train.py", kTrainer},
          {"ds.json", R"({"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 3}})"}});
  const auto st = lint::model::deepspeed_state(c.bound());
  CHECK(st.on);
  CHECK(st.config != nullptr);
  CHECK(st.zero_stage == 3);
  CHECK(st.offload == false);
  CHECK(st.reader == DeepSpeedReader::Integration);
}

TEST_CASE("deepspeed_state: \"auto\" stage is 2 under accelerate's integration, 0 under plain DeepSpeed",
          "[model][deepspeed]") {
  Case hf({{"launch.sh", "deepspeed --num_gpus 2 train.py --deepspeed ds.json\n"},
           {"train.py", kTrainer},
           {"ds.json", R"({"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": "auto"}})"}});
  CHECK(lint::model::deepspeed_state(hf.bound()).zero_stage == 2);
  Case raw({{"launch.sh", "deepspeed --num_gpus 2 train.py --deepspeed --deepspeed_config ds.json\n"},
            {"train.py", "import deepspeed\nengine, _, _, _ = deepspeed.initialize(args=None, model=None)\n"},
            {"ds.json", R"({"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": "auto"}})"}});
  const auto st = lint::model::deepspeed_state(raw.bound());
  CHECK(st.reader == DeepSpeedReader::Raw);
  CHECK(st.zero_stage == 0);
}

TEST_CASE("deepspeed_state: accelerate's section, deepspeed_config_file bound relative to the launch",
          "[model][deepspeed]") {
  Case inline_stage({{"launch.sh", "accelerate launch --config_file acc.yaml train.py\n"},
                     {"train.py", kTrainer},
                     {"acc.yaml",
                      "compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\nnum_processes: 2\n"
                      "deepspeed_config:\n  zero_stage: 3\n  offload_optimizer_device: cpu\n"}});
  const auto a = lint::model::deepspeed_state(inline_stage.bound());
  CHECK(a.on);
  CHECK(a.zero_stage == 3);
  CHECK(a.offload == true);
  Case file({{"launch.sh", "accelerate launch --config_file cfg/acc.yaml train.py\n"},
             {"train.py", kTrainer},
             {"cfg/acc.yaml",
              "compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\nnum_processes: 2\n"
              "deepspeed_config:\n  deepspeed_config_file: ds/z1.json\n"},
             {"ds/z1.json", R"({"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 1}})"}});
  const auto b = lint::model::deepspeed_state(file.bound());
  CHECK(b.config != nullptr);
  CHECK(b.zero_stage == 1);
}

TEST_CASE("deepspeed_state: TrainingArguments(deepspeed=dict) and Lightning strategy names", "[model][deepspeed]") {
  Case dict({{"launch.sh", "torchrun --nproc_per_node 2 train.py\n"},
             {"train.py",
              "from transformers import TrainingArguments\n"
              "args = TrainingArguments(output_dir='o', deepspeed={'zero_optimization': {'stage': 3}})\n"}});
  CHECK(lint::model::deepspeed_state(dict.bound()).zero_stage == 3);
  Case pl({{"launch.sh", "python train.py\n"},
           {"train.py",
            "import lightning.pytorch as pl\n"
            "trainer = pl.Trainer(strategy='deepspeed_stage_3_offload', devices=1)\n"}});
  const auto st = lint::model::deepspeed_state(pl.bound());
  CHECK(st.reader == DeepSpeedReader::Lightning);
  CHECK(st.zero_stage == 3);
  CHECK(st.offload == true);
}

TEST_CASE("quantization_facts: flags, storage, and run-time choices", "[model][quantization]") {
  Case flags({{"launch.sh",
               "accelerate launch --num_processes 2 sft.py --load_in_4bit --bnb_4bit_quant_storage bfloat16 "
               "--dtype bfloat16\n"},
              {"sft.py", "from trl import TrlParser, ModelConfig\nparser = TrlParser((ModelConfig,))\n"}});
  const auto q = lint::model::quantization_facts(flags.bound());
  REQUIRE(q.loads.size() == 1);
  CHECK(q.loads[0].bits == 4);
  CHECK(q.loads[0].storage == std::optional<std::string>("bfloat16"));
  CHECK(q.loads[0].model_dtype == std::optional<std::string>("bfloat16"));
  Case both({{"launch.sh", "torchrun --nproc_per_node 2 train.py\n"},
             {"train.py",
              "from transformers import BitsAndBytesConfig, TrainingArguments\n"
              "args = TrainingArguments(output_dir='o')\n"
              "a = BitsAndBytesConfig(load_in_8bit=True)\nb = BitsAndBytesConfig(load_in_4bit=True)\n"}});
  CHECK(lint::model::quantization_facts(both.bound()).loads.empty());
}

TEST_CASE("deepspeed_state: computed once per launch, again once the launch changes", "[model][deepspeed]") {
  lint::model::Launch l;
  const lint::model::DeepSpeedState& first = lint::model::deepspeed_state(l);
  CHECK(&first == &lint::model::deepspeed_state(l));  // the same object: not computed twice
  CHECK_FALSE(first.on);
  lint::model::Setting s;
  s.key = std::string(lint::model::keys::kDistributedType);
  s.value = lint::model::Value::of_string("DEEPSPEED");
  l.decide(lint::model::keys::kDistributedType, {l.add(s)});
  CHECK(lint::model::deepspeed_state(l).on);  // add() and decide() forget what was derived
  CHECK(lint::model::deepspeed_state(l).reader == DeepSpeedReader::Integration);
}
