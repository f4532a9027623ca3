#include "lint/model/precedence.hpp"

#include <catch2/catch.hpp>

using lint::model::decide;
using lint::model::default_setting;
using lint::model::Launch;
using lint::model::Launcher;
using lint::model::Origin;
using lint::model::rank_table;
using lint::model::Setting;
using lint::model::SourceKind;
using lint::model::Value;

namespace {

Setting written(std::string_view key, Value v, SourceKind source, std::string path) {
  Setting s;
  s.key = std::string(key);
  s.value = std::move(v);
  s.path = std::move(path);
  s.origin = Origin::ConfigFile;
  s.source = source;
  return s;
}

}  // namespace

TEST_CASE("each launcher declares a rank table over source kinds") {
  for (Launcher l : {Launcher::AccelerateLaunch, Launcher::Torchrun, Launcher::Python, Launcher::DeepSpeed,
                     Launcher::Torchtitan, Launcher::Unknown}) {
    const auto& t = rank_table(l);
    CHECK_FALSE(t.launcher.empty());
    // knowledge of accelerate 1.15 / transformers 5.17: objects in the script beat the launcher, whose flags beat
    // the config file, which beats what the launcher exports by default, then the inherited environment, then
    // the libraries' defaults.
    CHECK(t.of(SourceKind::TorchCall) > t.of(SourceKind::PluginField));
    CHECK(t.of(SourceKind::PluginField) > t.of(SourceKind::TrainerArgument));
    CHECK(t.of(SourceKind::TrainerArgument) > t.of(SourceKind::LauncherFlag));
    CHECK(t.of(SourceKind::LauncherFlag) > t.of(SourceKind::ConfigFile));
    CHECK(t.of(SourceKind::ConfigFile) > t.of(SourceKind::LauncherDefault));
    CHECK(t.of(SourceKind::LauncherDefault) > t.of(SourceKind::InheritedEnv));
    CHECK(t.of(SourceKind::InheritedEnv) == t.of(SourceKind::EnvOverwrittenByLauncher));
    CHECK(t.of(SourceKind::InheritedEnv) > t.of(SourceKind::LibraryDefault));
    CHECK(t.never_decides[static_cast<std::size_t>(SourceKind::TrainerFsdp1StrategyWord)]);
  }
}

TEST_CASE("decide: the higher rank wins whatever the order; equal ranks go to the later assignment") {
  Launch l;
  l.launcher = Launcher::AccelerateLaunch;
  l.add(written("k", Value::of_string("flag"), SourceKind::LauncherFlag, "run.sh"));
  l.add(written("k", Value::of_string("cfg"), SourceKind::ConfigFile, "a.yaml"));
  l.add(written("k", Value::of_string("cfg2"), SourceKind::ConfigFile, "b.yaml"));
  decide(l, "k");
  const auto* e = l.get("k");
  REQUIRE(e != nullptr);
  CHECK(e->value.text == "flag");
  REQUIRE(e->overridden.size() == 2);
  CHECK(e->overridden[0]->value.text == "cfg2");  // later first among equals
  CHECK(e->overridden[1]->value.text == "cfg");
}

TEST_CASE("decide: a default is used only when nothing outranks it") {
  Launch l;
  l.launcher = Launcher::AccelerateLaunch;
  l.add(written("env", Value::of_string("SHARD_GRAD_OP"), SourceKind::EnvOverwrittenByLauncher, "run.sh"));
  decide(l, "env", default_setting("env", Value::of_string("FULL_SHARD"), SourceKind::LauncherDefault, "d"));
  CHECK(l.value("env").text == "FULL_SHARD");  // the launcher overwrites what the script exported
  REQUIRE(l.get("env")->overridden.size() == 1);

  l.add(written("cfg", Value::of_string("NO_SHARD"), SourceKind::ConfigFile, "a.yaml"));
  decide(l, "cfg", default_setting("cfg", Value::of_string("FULL_SHARD"), SourceKind::LauncherDefault, "d"));
  CHECK(l.value("cfg").text == "NO_SHARD");
  CHECK(l.get("cfg")->overridden.empty());  // the default was not added

  decide(l, "unset", std::nullopt, "not set");
  CHECK(l.get("unset")->decided_by == nullptr);
  CHECK(l.get("unset")->reason == "not set");
}

TEST_CASE("decide: a kind that never decides leaves the value unknown, with the table's reason") {
  Launch l;
  l.launcher = Launcher::Python;
  l.add(written("s", Value::of_string("SHARD_GRAD_OP"), SourceKind::TrainerFsdp1StrategyWord, "train.py"));
  decide(l, "s");
  CHECK(l.get("s")->decided_by == nullptr);
  CHECK(l.get("s")->reason == rank_table(Launcher::Python).undecided_reason);
  // Its note is presentation only: changing it changes nothing.
  Launch m;
  m.launcher = Launcher::Python;
  Setting w = written("s", Value::of_string("SHARD_GRAD_OP"), SourceKind::TrainerFsdp1StrategyWord, "train.py");
  w.note = "anything";
  m.add(w);
  decide(m, "s");
  CHECK(m.get("s")->decided_by == nullptr);
}
