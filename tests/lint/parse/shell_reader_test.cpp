#include "lint/parse/shell_reader.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "lint/parse/integer.hpp"

using lint::parse::find_flag;
using lint::parse::find_launch_commands;
using lint::parse::int_of;
using lint::parse::LaunchCommand;
using lint::parse::LaunchTool;
using lint::parse::parse_int;
using lint::parse::script_arguments;
using lint::source::SourceFile;

namespace {

std::vector<LaunchCommand> commands(std::string text, bool makefile = false) {
  const SourceFile file(makefile ? "Makefile" : "run.sh", std::move(text));
  std::vector<lint::parse::ParseError> errors;
  auto out = find_launch_commands(file, makefile, &errors);
  CHECK(errors.empty());
  return out;
}

const LaunchCommand& only(const std::vector<LaunchCommand>& cmds) {
  REQUIRE(cmds.size() == 1);
  return cmds.front();
}

}  // namespace

TEST_CASE("accelerate launch: flags in both forms, store-true flags, the script and its arguments") {
  const auto cmds = commands(
      "accelerate launch --config_file cfg.yaml --num-processes=8 --multi_gpu train.py --fsdp \"full_shard "
      "auto_wrap\"\n");
  const LaunchCommand& c = only(cmds);
  CHECK(c.tool == LaunchTool::AccelerateLaunch);
  REQUIRE(c.flags.size() == 3);
  CHECK(c.flags[0].name == "config_file");
  CHECK(c.flags[0].value->text == "cfg.yaml");
  CHECK(c.flags[1].name == "num_processes");  // dashes become underscores
  CHECK(c.flags[1].value->text == "8");
  CHECK(c.flags[2].name == "multi_gpu");
  CHECK_FALSE(c.flags[2].value.has_value());  // store-true: train.py is not its value
  REQUIRE(c.script);
  CHECK(c.script->text == "train.py");
  REQUIRE(c.script_args.size() == 2);
  CHECK(c.script_args[1].text == "full_shard auto_wrap");
  // The flag's region runs from the flag to the end of its value.
  CHECK(c.flags[0].region.begin.column == 19);
  CHECK(c.flags[0].region.end.column == 41);
}

TEST_CASE("launchers are recognised behind wrappers and module forms") {
  CHECK(only(commands("srun --nodes 2 torchrun --nproc_per_node 4 train.py\n")).tool == LaunchTool::Torchrun);
  CHECK(only(commands("python -m torch.distributed.run --nproc_per_node=2 train.py\n")).tool == LaunchTool::Torchrun);
  CHECK(only(commands("python3 -m accelerate.commands.launch train.py\n")).tool == LaunchTool::AccelerateLaunch);
  CHECK(only(commands("exec env A=1 deepspeed --num_gpus 8 train.py\n")).tool == LaunchTool::DeepSpeed);
  CHECK(only(commands("nohup python -u train.py --bf16\n")).tool == LaunchTool::Python);
  CHECK(only(commands("axolotl train cfg.yml\n")).tool == LaunchTool::Axolotl);
  CHECK(only(commands("llamafactory-cli train sft.yaml\n")).tool == LaunchTool::LlamaFactory);
  const auto tt_cmds = commands("NGPU=4 CONFIG_FILE=./llama.toml ./run_train.sh --training.steps 10\n");
  const LaunchCommand& tt = only(tt_cmds);
  CHECK(tt.tool == LaunchTool::TorchtitanRunTrain);
  CHECK(tt.env.at("NGPU").text == "4");
  CHECK(tt.env.at("CONFIG_FILE").text == "./llama.toml");
}

TEST_CASE("uv run: its own options are skipped; a .py file or -m module runs with Python") {
  const auto py_cmds = commands("uv run --with torch -p 3.11 --frozen train.py --lr 1e-5\n");
  const LaunchCommand& py = only(py_cmds);
  CHECK(py.tool == LaunchTool::Python);
  REQUIRE(py.script);
  CHECK(py.script->text == "train.py");
  REQUIRE(py.script_args.size() == 2);
  CHECK(py.script_args[0].text == "--lr");
  const auto mod_cmds = commands("uv run --no-sync -m pkg.train --x 1\n");
  const LaunchCommand& mod = only(mod_cmds);
  CHECK(mod.tool == LaunchTool::Python);
  CHECK(mod.module);
  CHECK(mod.script->text == "pkg.train");
  CHECK(only(commands("uv run -m torch.distributed.run --nproc_per_node 2 train.py\n")).tool == LaunchTool::Torchrun);
  CHECK(only(commands("uv run --project . accelerate launch train.py\n")).tool == LaunchTool::AccelerateLaunch);
  CHECK(only(commands("uv run -- torchrun train.py\n")).tool == LaunchTool::Torchrun);
  CHECK(commands("uv run pytest tests\n").empty());
  CHECK(commands("uv sync\n").empty());
}

TEST_CASE("torchrun's flags without a value do not take the next word") {
  const auto cmds = commands("torchrun --nproc_per_node 2 --virtual-local-rank --local-ranks-filter 0 train.py\n");
  const LaunchCommand& c = only(cmds);
  REQUIRE(c.script);
  CHECK(c.script->text == "train.py");
  REQUIRE(find_flag(c, "virtual_local_rank") != nullptr);
  CHECK_FALSE(find_flag(c, "virtual_local_rank")->value.has_value());
  CHECK(find_flag(c, "local_ranks_filter")->value->text == "0");
}

TEST_CASE("llamafactory-cli reads a config only from a .yaml, .yml or .json first argument") {
  CHECK(only(commands("llamafactory-cli train sft.yaml lr=1e-5\n")).script->text == "sft.yaml");
  CHECK(only(commands("llamafactory-cli train cfg.json\n")).script->text == "cfg.json");
  const auto cli_cmds = commands("llamafactory-cli train --model_name_or_path m --stage sft\n");
  const LaunchCommand& cli = only(cli_cmds);
  CHECK(cli.tool == LaunchTool::LlamaFactory);
  CHECK_FALSE(cli.script.has_value());
  // A word not known statically may be a config.
  CHECK(only(commands("llamafactory-cli train \"$CFG\"\n")).script.has_value());
}

TEST_CASE("trl's training commands run TRL's own script through accelerate launch") {
  const auto cmds =
      commands("trl sft --config recipe.yaml --accelerate_config fsdp.yaml --num_processes 8 --learning_rate 1e-5\n");
  const LaunchCommand& c = only(cmds);
  CHECK(c.tool == LaunchTool::AccelerateLaunch);
  CHECK(c.subcommand == "trl sft");
  CHECK(c.module);
  CHECK(c.script->text == "trl.scripts.sft");
  REQUIRE(c.flags.size() == 2);
  CHECK(c.flags[0].name == "config_file");
  CHECK(c.flags[0].value->text == "fsdp.yaml");
  CHECK(c.flags[1].name == "num_processes");
  CHECK(c.flags[1].value->text == "8");
  REQUIRE(c.script_args.size() == 4);
  CHECK(c.script_args[0].text == "--config");
  CHECK(c.script_args[3].text == "1e-5");
  // A built-in accelerate config of the installed package is not a file of the project: not bound.
  CHECK(only(commands("trl grpo --accelerate_config zero3 --config r.yaml\n")).flags.empty());
  CHECK(commands("trl env\n").empty());
}

TEST_CASE("commands that are not launches are not read as launches") {
  CHECK(commands("python -c 'print(1)'\n").empty());
  CHECK(commands("echo accelerate launch train.py\n").empty());
  CHECK(commands("pip install accelerate\n").empty());
}

TEST_CASE("words expand with the script's variables; what is not known stays unknown") {
  const auto cmds = commands(
      "NP=4\n"
      "export FSDP_SHARDING_STRATEGY=SHARD_GRAD_OP\n"
      "torchrun --nproc_per_node $NP --nnodes ${NODES:-2} train.py\n"
      "torchrun --nproc_per_node $(nvidia-smi -L | wc -l) train.py\n"
      "if true; then NP=8; fi\n"
      "torchrun --nproc_per_node $NP train.py\n");
  REQUIRE(cmds.size() == 3);
  CHECK(int_of(&*find_flag(cmds[0], "nproc_per_node")->value) == 4);
  CHECK(int_of(&*find_flag(cmds[0], "nnodes")->value) == 2);  // the script's own default
  CHECK(cmds[0].env.at("FSDP_SHARDING_STRATEGY").text == "SHARD_GRAD_OP");
  CHECK_FALSE(find_flag(cmds[1], "nproc_per_node")->value->known);
  CHECK_FALSE(int_of(&*find_flag(cmds[1], "nproc_per_node")->value));
  // An assignment inside a compound statement makes the variable unknown afterwards.
  CHECK_FALSE(find_flag(cmds[2], "nproc_per_node")->value->known);
}

TEST_CASE("Makefile recipes are read as shell at their own positions") {
  const auto cmds =
      commands("train:\n\t@accelerate launch --config_file c.yaml train.py\nOTHER = torchrun x.py\n", true);
  const LaunchCommand& c = only(cmds);
  CHECK(c.tool == LaunchTool::AccelerateLaunch);
  CHECK(c.region.begin.line == 2);
  CHECK(c.region.begin.column == 3);
}

TEST_CASE("a script past the nesting limit gives one error and no commands") {
  const SourceFile file("run.sh", std::string(300, '(') + "\naccelerate launch train.py\n");
  std::vector<lint::parse::ParseError> errors;
  CHECK(find_launch_commands(file, false, &errors).empty());
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message.find("too deeply nested") != std::string::npos);
}

TEST_CASE("script arguments in HfArgumentParser style") {
  const auto cmds = commands("python train.py --fsdp 'full_shard offload' --bf16 --fsdp-config=cfg.json --lr 1e-5\n");
  const auto args = script_arguments(only(cmds).script_args);
  REQUIRE(args.size() == 4);
  CHECK(args[0].name == "fsdp");
  CHECK(args[0].value->text == "full_shard offload");
  CHECK(args[1].name == "bf16");
  CHECK_FALSE(args[1].value.has_value());
  CHECK(args[2].name == "fsdp_config");
  CHECK(args[2].value->text == "cfg.json");
  CHECK(args[3].value->text == "1e-5");
}

TEST_CASE("integers are read one way: base 10, whole text, as Python's int()") {
  CHECK(parse_int("8") == 8);
  CHECK(parse_int(" 8 ") == 8);
  CHECK(parse_int("+8") == 8);
  CHECK(parse_int("-1") == -1);
  CHECK_FALSE(parse_int("8a"));
  CHECK_FALSE(parse_int(""));
  CHECK_FALSE(parse_int("++8"));
  CHECK_FALSE(parse_int("0x10"));
  CHECK_FALSE(parse_int("99999999999999999999"));  // overflow is not a number
  CHECK(parse_int("9223372036854775807") == INT64_MAX);
}

TEST_CASE("an unquoted expansion holding several words is split: `-m module` before the script's arguments") {
  const auto cmds = commands(
      "ENTRYPOINT=${ENTRYPOINT:-\"-m verl.trainer.sft_trainer\"}\n"
      "torchrun --standalone --nproc-per-node=8 ${ENTRYPOINT} data.train_files=\"$HOME/x\" data.train_batch_size=96\n");
  const LaunchCommand& c = only(cmds);
  CHECK(c.tool == LaunchTool::Torchrun);
  CHECK(c.module);
  REQUIRE(c.script);
  CHECK(c.script->text == "verl.trainer.sft_trainer");
  REQUIRE(c.script_args.size() == 2);
  CHECK(c.script_args[1].text == "data.train_batch_size=96");
  // Quoted, the same value stays one word.
  const auto quoted = commands("OPTS=\"a b\"\npython train.py \"$OPTS\"\n");
  const LaunchCommand& q = only(quoted);
  REQUIRE(q.script_args.size() == 1);
  CHECK(q.script_args[0].text == "a b");
}

TEST_CASE("srun / mpirun before the launcher are recorded as its spawner; numactl is not") {
  CHECK(only(commands("srun --ntasks=${GPUS} --kill-on-bad-exit=1 python -u train.py\n")).spawner == "srun");
  CHECK(only(commands("mpirun -np 4 python train.py\n")).spawner == "mpirun");
  CHECK(only(commands("numactl --cpunodebind=0 python train.py\n")).spawner.empty());
  CHECK(only(commands("python train.py\n")).spawner.empty());
}

TEST_CASE("files the script writes before a command are listed with it") {
  const auto cmds = commands(
      "python first.py\n"
      "cat > get_model.py << EOF\nprint(1)\nEOF\n"
      "echo x >> notes.txt 2>&1\n"
      "python get_model.py > /dev/null\n");
  REQUIRE(cmds.size() == 2);
  CHECK(cmds[0].files_written_before.empty());
  CHECK(cmds[1].files_written_before.sorted() == std::vector<std::string>{"get_model.py", "notes.txt"});
}

TEST_CASE("files the script downloads before a command are listed with it") {
  const auto cmds = commands(
      "curl -sSL -o ./tools/a.py https://example.com/a.py\n"
      "wget -q --output-document=b.py https://example.com/b.py\n"
      "cd docs\n"
      "curl -Lo c.py https://example.com/c.py\n"
      "wget -O - https://example.com/d.sh | bash\n"
      "python c.py\n");
  REQUIRE(cmds.size() == 1);
  CHECK(cmds[0].files_written_before.sorted() == std::vector<std::string>{"b.py", "docs/c.py", "tools/a.py"});
}

TEST_CASE("the files written before each command: one list per script, looked up by path and by path suffix") {
  lint::parse::WrittenFiles w;
  w.add("./tools/a.py");
  w.add("b.py");
  w.add("/abs/c.py");
  w.add("../up.py");
  w.add("b.py");  // written again: keeps its first place
  REQUIRE(w.size() == 4);
  CHECK(w.contains("b.py", 2));
  CHECK_FALSE(w.contains("b.py", 1));
  CHECK(w.contains("/abs/c.py", 3));
  CHECK(w.names("tools/a.py", 1));
  CHECK(w.names("run/tools/a.py", 1));
  CHECK_FALSE(w.names("runtools/a.py", 1));
  CHECK_FALSE(w.names("a.py", 1));
  CHECK_FALSE(w.names("x/b.py", 1));  // written after the command
  CHECK(w.names("x/b.py", 2));
  CHECK_FALSE(w.names("/abs/c.py", 4));  // absolute and `..` paths are looked up as written only
  CHECK_FALSE(w.names("x/../up.py", 4));
  CHECK(w.sorted(4) == std::vector<std::string>{"../up.py", "./tools/a.py", "/abs/c.py", "b.py"});
}

TEST_CASE("a script of many heredocs, each run after it is written, shares one list of written files") {
  std::string script;
  constexpr int kScripts = 2000;
  for (int i = 0; i < kScripts; ++i)
    script += "cat > s" + std::to_string(i) + ".py <<EOF\nprint(1)\nEOF\npython s" + std::to_string(i) + ".py\n";
  const auto cmds = commands(script);
  REQUIRE(cmds.size() == kScripts);
  CHECK(cmds.back().files_written_before.files == cmds.front().files_written_before.files);
  CHECK(cmds.front().files_written_before.count == 1);
  CHECK(cmds.back().files_written_before.count == kScripts);
  CHECK(cmds.back().files_written_before.contains("s1999.py"));
  CHECK_FALSE(cmds[10].files_written_before.contains("s11.py"));
}

TEST_CASE("a word of unknown value before the script holds launcher flags: `torchrun $DISTRIBUTED_ARGS train.py`") {
  const auto cmds = commands(
      "GPUS=$(nvidia-smi -L | wc -l)\nDISTRIBUTED_ARGS=\"--nproc_per_node $GPUS --nnodes 1\"\n"
      "torchrun $DISTRIBUTED_ARGS finetune.py --deepspeed ds.json\n");
  const LaunchCommand& c = only(cmds);
  CHECK(c.opaque_launcher_args);
  REQUIRE(c.script);
  CHECK(c.script->text == "finetune.py");
  REQUIRE(c.script_args.size() == 2);
  // accelerate reads every flag: the unknown word stays where it was.
  const auto acc = commands("accelerate launch $ARGS train.py\n");
  const LaunchCommand& a = only(acc);
  CHECK_FALSE(a.opaque_launcher_args);
  // Known, the same variable is split into flags.
  const auto known = commands("ARGS=\"--nproc_per_node 4\"\ntorchrun $ARGS train.py\n");
  const LaunchCommand& k = only(known);
  CHECK_FALSE(k.opaque_launcher_args);
  REQUIRE(find_flag(k, "nproc_per_node") != nullptr);
}
