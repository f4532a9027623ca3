// The tool schemas: how each tool spells fsdp_config keys and which of two spellings it uses.
#include "lint/model/accelerate/schema.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "lint/driver/driver.hpp"
#include "lint/model/axolotl/axolotl.hpp"
#include "lint/model/trainer/schema.hpp"

namespace accelerate = lint::model::accelerate;
namespace trainer = lint::model::trainer;

TEST_CASE("accelerate adds a missing fsdp_ prefix; the Trainer and axolotl strip it") {
  CHECK(accelerate::fsdp_config_key("sharding_strategy") == "fsdp_sharding_strategy");
  CHECK(accelerate::fsdp_config_key("fsdp_sharding_strategy") == "fsdp_sharding_strategy");
  REQUIRE(accelerate::find_fsdp_config_key("version") != nullptr);
  CHECK(accelerate::find_fsdp_config_key("version")->canonical == lint::model::keys::kFsdpVersion);
  CHECK(accelerate::find_fsdp_config_key("no_such_key") == nullptr);
  CHECK(trainer::fsdp_config_key("fsdp_version") == "version");
  CHECK(trainer::fsdp_config_key("version") == "version");
  CHECK(lint::model::axolotl::fsdp_config_key("fsdp_offload_params") == "offload_params");
}

TEST_CASE("the Trainer uses fsdp_x over x wherever each is written; the last of equal spellings") {
  using V = std::vector<std::string_view>;
  CHECK(trainer::fsdp_config_pick(V{"fsdp_version", "version"}, "version") == 0U);
  CHECK(trainer::fsdp_config_pick(V{"version", "fsdp_version"}, "version") == 1U);
  CHECK(trainer::fsdp_config_pick(V{"version", "x", "version"}, "version") == 2U);
  CHECK_FALSE(trainer::fsdp_config_pick(V{"x"}, "version"));
  const auto one = lint::model::Value::of_int(1);
  const auto three = lint::model::Value::of_int(3);
  CHECK(trainer::fsdp_version(nullptr) == 2);  // the 5.x default
  CHECK(trainer::fsdp_version(&one) == 1);
  CHECK_FALSE(trainer::fsdp_version(&three));
}

TEST_CASE("a Trainer fsdp_config is recognised by the keys the Trainer reads and the accelerate-style keys it drops") {
  auto classify = [](std::string json) { return lint::driver::load_document("cfg.json", std::move(json), true)->kind; };
  using lint::model::DocKind;
  CHECK(classify(R"({"fsdp_sharding_strategy": "FULL_SHARD", "fsdp_offload_params": true})") ==
        DocKind::TrainerFsdpConfig);
  CHECK(classify(R"({"version": 2, "reshard_after_forward": true})") == DocKind::TrainerFsdpConfig);
  CHECK(classify(R"({"version": 2, "name": "x", "other": 1})") == DocKind::Unknown);
  CHECK(trainer::is_arguments_class("SFTConfig"));
  CHECK(trainer::default_gradient_checkpointing("SFTConfig"));
  CHECK_FALSE(trainer::default_gradient_checkpointing("TrainingArguments"));
  CHECK(trainer::parse_cli_bool("Yes") == true);
  CHECK_FALSE(trainer::parse_cli_bool("maybe"));
}

TEST_CASE("the launcher exports the later of x and fsdp_x in dict order") {
  const auto doc = lint::driver::load_document(
      "a.yaml", "distributed_type: FSDP\nfsdp_config:\n  sync_module_states: true\n  fsdp_sync_module_states: false\n",
      true);
  const lint::parse::Node* fsdp = doc->root_map()->find("fsdp_config");
  REQUIRE(fsdp != nullptr);
  const lint::parse::Entry* e = accelerate::launcher_entry(*fsdp, "fsdp_sync_module_states");
  REQUIRE(e != nullptr);
  CHECK(e->key.text == "fsdp_sync_module_states");
}
