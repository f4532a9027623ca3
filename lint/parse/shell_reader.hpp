// The shell reader: launch commands found in shell scripts, sbatch scripts and Makefile recipes: `accelerate launch`, `torchrun`,
// `python -m torch.distributed.run`, `deepspeed`, `python train.py`, torchtitan's `run_train.sh`, `axolotl train`,
// `llamafactory-cli train`. Words are expanded with the variables the script assigned before the command;
// anything not statically known stays unknown.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/parse/node.hpp"
#include "lint/source/source_file.hpp"

namespace lint::parse {

/// One shell word after expansion.
struct Word {
  std::string text;        ///< the expanded text (partial when !known)
  bool known = true;       ///< false when it contains a command substitution or an unknown variable
  source::Region region;   ///< the word as written
};

enum class LaunchTool : std::uint8_t {
  AccelerateLaunch,   ///< accelerate launch [flags] script [args]
  Torchrun,           ///< torchrun / python -m torch.distributed.run|launch [flags] script [args]
  DeepSpeed,          ///< deepspeed [flags] script [args]
  Python,             ///< python script [args] (single process)
  TorchtitanRunTrain, ///< [NGPU=..] [CONFIG_FILE=..] ./run_train.sh [--job.config_file x] [args]
  Axolotl,            ///< axolotl train config.yml
  LlamaFactory,       ///< llamafactory-cli train|chat|webchat|api|export|eval config.yaml
};

std::string_view to_string(LaunchTool t);

/// The files a script writes (`> f`, `cat > f <<EOF`, `curl -o f URL`), in the order first written: one list per
/// script, shared by its launch commands, each of which sees those written before it (`WrittenBefore`). A copy per
/// command made a script of N heredocs each followed by its launch quadratic.
class WrittenFiles {
 public:
  /// Records `path` (nothing when it was written before).
  void add(std::string path);
  [[nodiscard]] std::size_t size() const { return order_.size(); }
  /// Whether `path` is one of the first `count` files written.
  [[nodiscard]] bool contains(std::string_view path, std::size_t count) const;
  /// Whether `candidate` is, or ends with `/` and, one of the first `count` files written, each compared as a
  /// relative path made lexically normal (an absolute one, or one that starts with `..`, is not compared). Costs
  /// one lookup per `/` of `candidate` within the length of the longest such path.
  [[nodiscard]] bool names(std::string_view candidate, std::size_t count) const;
  /// The first `count` files written, sorted.
  [[nodiscard]] std::vector<std::string> sorted(std::size_t count) const;

 private:
  std::vector<const std::string*> order_;                       ///< in the order first written
  std::map<std::string, std::size_t, std::less<>> first_;       ///< path -> its place in order_
  std::map<std::string, std::size_t, std::less<>> normal_;      ///< normal relative path -> first place written
  std::size_t longest_normal_ = 0;
};

/// The files a script wrote before one of its commands: the first `count` of its `WrittenFiles`.
struct WrittenBefore {
  std::shared_ptr<const WrittenFiles> files;
  std::size_t count = 0;

  [[nodiscard]] bool empty() const { return count == 0; }
  [[nodiscard]] bool contains(std::string_view path) const { return files && files->contains(path, count); }
  [[nodiscard]] bool names(std::string_view candidate) const { return files && files->names(candidate, count); }
  [[nodiscard]] std::vector<std::string> sorted() const { return files ? files->sorted(count) : std::vector<std::string>{}; }
};

/// A launcher flag with its value (`--num_processes 8`, `--fsdp_version=2`, `--multi_gpu`).
struct Flag {
  std::string name;           ///< without leading dashes, `-` replaced by `_` (`fsdp_sharding_strategy`)
  std::optional<Word> value;  ///< absent for store-true flags
  source::Region region;      ///< from the flag to the end of its value
};

struct LaunchCommand {
  LaunchTool tool = LaunchTool::Python;
  source::Region region;              ///< the whole command
  std::map<std::string, Word> env;    ///< environment in effect: exported / prefixed variables
  std::vector<Word> launcher_args;    ///< flags of the launcher, before the script
  std::vector<Flag> flags;            ///< the same, grouped
  std::optional<Word> script;         ///< the training script (or the config for axolotl/llamafactory)
  std::string spawner;                ///< `srun` / `mpirun` before the launcher: it may start several copies
  bool opaque_launcher_args = false;  ///< a word of unknown value among the launcher's flags (`torchrun $ARGS x.py`)
  WrittenBefore files_written_before;              ///< files the script writes earlier (`> f`, `cat > f <<EOF`)
  std::string subcommand;                         ///< llamafactory-cli: train, chat, webchat, api, export or eval
  bool module = false;                            ///< `-m module` instead of a script path
  std::vector<Word> script_args;                  ///< arguments after the script
};

/// Finds every launch command of a shell script (or a Makefile, whose recipe lines are read as shell).
/// `makefile` selects recipe extraction. Never fails: unparseable text yields no commands. A script past the hard
/// limits, or a bash grammar that does not load in the tree-sitter runtime (an ABI mismatch: a build problem),
/// yields no commands and one error in `errors`, as the Python reader reports them.
std::vector<LaunchCommand> find_launch_commands(const source::SourceFile& file, bool makefile,
                                                std::vector<ParseError>* errors = nullptr);

/// The last occurrence of a launcher flag (`name` without dashes, `-` as `_`), or nullptr.
const Flag* find_flag(const LaunchCommand& c, std::string_view name);

/// `--name value` / `--name=value` among a script's arguments (HfArgumentParser style).
struct ScriptArg {
  std::string name;           ///< without dashes, `-` as `_`
  std::optional<Word> value;  ///< absent for a bare flag
  source::Region region;      ///< from the name to the end of the value
};
std::vector<ScriptArg> script_arguments(const std::vector<Word>& args);
/// The last argument named `name`, or nullptr.
const ScriptArg* find_arg(const std::vector<ScriptArg>& args, std::string_view name);

/// An integer word (decimal, the whole word), when statically known.
std::optional<std::int64_t> int_of(const Word* w);

}  // namespace lint::parse
