#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "lint/bind/ci_workflow.hpp"
#include "lint/bind/declared_launch.hpp"
#include "lint/bind/file_refs.hpp"
#include "lint/driver/driver.hpp"

using lint::bind::ci_workflow_commands;
using lint::bind::declared_commands;
using lint::bind::DeclaredLaunch;
using lint::bind::path_candidates;
using lint::bind::referenced_files;
using lint::parse::LaunchTool;

namespace {

std::unique_ptr<lint::model::Document> doc(std::string path, std::string text) {
  return lint::driver::load_document(std::move(path), std::move(text), true);
}

}  // namespace

TEST_CASE("paths in a launch script are tried next to the script, then from the working directory") {
  const auto d = doc("scripts/run.sh", "accelerate launch --config_file ../cfg/a.yaml train.py\n");
  REQUIRE(d->launch_commands.size() == 1);
  const auto refs = referenced_files(*d, d->launch_commands[0]);
  CHECK(refs.accelerate_config == std::vector<std::string>{"cfg/a.yaml", "../cfg/a.yaml"});
  CHECK(refs.script == std::vector<std::string>{"scripts/train.py", "train.py"});
}

TEST_CASE("file references per tool") {
  const auto d = doc("run.sh",
                     "python -m pkg.train --fsdp_config fsdp.json --deepspeed ds.json\n"
                     "python train.py --fsdp_config '{\"version\": 2}'\n"
                     "accelerate launch -m axolotl.cli.train cfg.yml\n"
                     "CONFIG_FILE=llama.toml ./run_train.sh\n"
                     "llamafactory-cli train sft.yaml\n");
  REQUIRE(d->launch_commands.size() == 5);
  const auto m = referenced_files(*d, d->launch_commands[0]);
  CHECK(m.script == std::vector<std::string>{"pkg/train.py"});
  CHECK(m.trainer_fsdp_config == std::vector<std::string>{"fsdp.json"});
  CHECK(m.deepspeed == std::vector<std::string>{"ds.json"});
  CHECK(referenced_files(*d, d->launch_commands[1]).trainer_fsdp_config.empty());  // inline JSON, not a path
  CHECK(referenced_files(*d, d->launch_commands[2]).axolotl == std::vector<std::string>{"cfg.yml"});
  CHECK(referenced_files(*d, d->launch_commands[3]).torchtitan == std::vector<std::string>{"llama.toml"});
  CHECK(referenced_files(*d, d->launch_commands[4]).llamafactory == std::vector<std::string>{"sft.yaml"});
}

TEST_CASE("an unknown path word names no file") {
  const auto d = doc("run.sh", "accelerate launch --config_file $(pick) train.py\n");
  REQUIRE(d->launch_commands.size() == 1);
  CHECK(path_candidates(*d, *d->launch_commands[0].flags[0].value).empty());
}

TEST_CASE("CI workflow steps are read in place; their paths start at the repository root") {
  const auto d = doc("repo/.github/workflows/train.yml",
                     "on: push\n"
                     "jobs:\n"
                     "  t:\n"
                     "    steps:\n"
                     "      - run: echo hi\n"
                     "      - run: |\n"
                     "          accelerate launch --config_file configs/a.yaml train.py\n");
  const auto cmds = ci_workflow_commands(*d);
  REQUIRE(cmds.size() == 1);
  CHECK(cmds[0].tool == LaunchTool::AccelerateLaunch);
  CHECK(cmds[0].region.begin.line == 7);
  CHECK(cmds[0].region.begin.column == 11);
  CHECK(referenced_files(*d, cmds[0]).accelerate_config.front() == "repo/configs/a.yaml");
  CHECK(ci_workflow_commands(*doc("ci.yml", "run: accelerate launch train.py\n")).empty());  // not a workflow
}

TEST_CASE("declared launches: a command string in place, or a file list as accelerate launch") {
  const std::string toml = "[[launch]]\ncommand = \"torchrun --nproc_per_node 2 train.py\"\n";
  const auto cfg = doc("launchlint.toml", toml);
  DeclaredLaunch dl;
  dl.command = "torchrun --nproc_per_node 2 train.py";
  dl.command_begin = toml.find("torchrun");
  dl.command_end = dl.command_begin + dl.command.size();
  const auto cmds = declared_commands(dl, *cfg);
  REQUIRE(cmds.size() == 1);
  CHECK(cmds[0].tool == LaunchTool::Torchrun);
  CHECK(cmds[0].region.begin.line == 2);

  DeclaredLaunch files;
  files.files = {"cfg.yaml", "train.py"};
  const auto f = declared_commands(files, *cfg);
  REQUIRE(f.size() == 1);
  CHECK(f[0].tool == LaunchTool::AccelerateLaunch);
  CHECK(f[0].script->text == "train.py");
  CHECK(f[0].flags.at(0).value->text == "cfg.yaml");
}
