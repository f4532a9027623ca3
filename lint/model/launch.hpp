// A launch: the documents that belong together (config file, script, launch command) and the effective
// configuration resolved from them with the real precedence of each tool. Every effective value keeps the
// assignment that decided it and the ones it beat.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/model/document.hpp"
#include "lint/model/setting.hpp"
#include "lint/parse/shell_workdir.hpp"

namespace lint::model {

/// How the training processes are started.
enum class Launcher : std::uint8_t {
  Unknown,           ///< a file linted alone whose launcher is not known
  AccelerateLaunch,  ///< `accelerate launch` (a config file alone implies it)
  Torchrun,          ///< `torchrun` / `python -m torch.distributed.run`
  Python,            ///< plain `python script.py`
  DeepSpeed,         ///< `deepspeed` launcher
  Torchtitan,        ///< `run_train.sh` / `torchrun -m torchtitan.train`
};

std::string_view to_string(Launcher l);

struct Effective {
  std::string key;
  Value value;                             ///< Unknown when not statically known
  const Setting* decided_by = nullptr;     ///< the winning assignment (origin Default for a default)
  std::vector<const Setting*> overridden;  ///< assignments that lost, in precedence order
  std::string reason;                      ///< why the winner won, when it is not obvious (precedence rule)
};

/// What rules derive from a resolved launch and several of them ask for: each is computed once per launch
/// (Launch::derived).
enum class Derived : std::uint8_t {
  DeepSpeedState,     ///< model::deepspeed_state
  ScriptFlags,        ///< model::script_flags(const Launch&)
  QuantizationFacts,  ///< model::quantization_facts
  TrainingShape,      ///< memory::read_training_shape
  Count,
};

/// A module of the project that the training script imports names from and calls (`from model import
/// LlamaLoraModel`, then `LlamaLoraModel()`): what those names do when called (loading the model) happens in the
/// launch. Not among `documents`: it is not the script, and rules that read the script do not read it.
struct ImportedModule {
  const Document* document = nullptr;
  std::vector<std::string> names;  ///< the imported names the script calls (functions or classes of the module)
  /// The module's facts when the run left it unparsed (model::python_may_matter) and the binder read it for the
  /// argument parser it builds (`parse_options()` in `utils/options.py`); the document itself stays unparsed.
  std::shared_ptr<const PythonFacts> read_for_parser;

  /// The module's facts: the run's, else those read for its parser; nullptr when neither.
  [[nodiscard]] const PythonFacts* python() const {
    return document != nullptr && document->python ? document->python.get() : read_for_parser.get();
  }
};

class Launch {
 public:
  Launch() = default;
  // Effective values point into settings_: copying would leave them pointing into the original. Moving a deque
  // keeps its elements in place, so moves are fine (and vector reallocation must use them).
  Launch(const Launch&) = delete;
  Launch& operator=(const Launch&) = delete;
  Launch(Launch&&) noexcept = default;
  Launch& operator=(Launch&&) noexcept = default;

  std::string name;  ///< display name: the launch script or the single file
  Launcher launcher = Launcher::Unknown;
  std::vector<const Document*> documents;       ///< every file of the launch
  bool per_file = true;                         ///< a single file linted alone
  const Document* command_document = nullptr;   ///< the launch script, if any
  source::Region command_region;                ///< the launch command in it
  std::optional<parse::LaunchCommand> command;  ///< the launch command, when the launch has one
  /// Where the command runs when its script or CI step moves it (a `cd`, a working-directory): paths it names are
  /// looked up there first (bind::referenced_files).
  std::optional<parse::WorkDir> command_workdir;
  /// The `deepspeed -H/--hostfile` file, when the command names one that was read (its lines: hostfile.hpp). Not
  /// among `documents`: it is no config file.
  const Document* hostfile = nullptr;
  /// Modules of the project the training script imports names from and calls (bound launches only).
  std::vector<ImportedModule> imported_modules;

  /// Adds an assignment; returns a stable pointer.
  const Setting* add(Setting s);
  /// Decides `key`: the winner and the losers, in precedence order (first = winner).
  void decide(std::string_view key, std::vector<const Setting*> ranked, std::string reason = {});
  /// Sets an effective value that is derived (no single assignment decided it) or unknown.
  void set_unknown(std::string_view key, std::string reason = {});

  [[nodiscard]] const Effective* get(std::string_view key) const;
  /// The effective value, or Unknown.
  [[nodiscard]] const Value& value(std::string_view key) const;
  [[nodiscard]] const std::map<std::string, Effective, std::less<>>& effective() const { return effective_; }
  [[nodiscard]] const std::deque<Setting>& settings() const { return settings_; }
  /// Every assignment of `key` in the launch, in insertion order.
  [[nodiscard]] std::vector<const Setting*> assignments(std::string_view key) const;

  /// The world size (number of training processes), when known.
  [[nodiscard]] std::optional<std::int64_t> world_size() const;
  /// True when FSDP is known to be on.
  [[nodiscard]] bool fsdp_enabled() const;
  /// The effective FSDP version (1 or 2) when known.
  [[nodiscard]] std::optional<int> fsdp_version() const;

  /// `compute(*this)`, computed the first time `slot` is asked for and kept with the launch: a dozen rules ask for
  /// the same DeepSpeed state or training shape of each launch. Thread-safe (several threads may ask at once);
  /// `compute` reads only the launch, and each slot holds one type T. add(), decide() and set_unknown() forget what
  /// was derived; the public members must not change once something was.
  template <typename T, typename Compute>
  [[nodiscard]] const T& derived(Derived slot, Compute compute) const {
    DerivedSlot& s = derived_->slots[static_cast<std::size_t>(slot)];
    std::call_once(s.once, [&] {
      s.value = std::make_shared<const T>(compute(*this));
      derived_->any.store(true, std::memory_order_release);
    });
    return *static_cast<const T*>(s.value.get());
  }

 private:
  struct DerivedSlot {
    std::once_flag once;
    std::shared_ptr<const void> value;
  };
  /// On the heap: std::once_flag cannot move, a Launch must.
  struct DerivedValues {
    std::array<DerivedSlot, static_cast<std::size_t>(Derived::Count)> slots;
    std::atomic<bool> any{false};  ///< some slot was computed
  };
  void forget_derived();

  std::unique_ptr<DerivedValues> derived_ = std::make_unique<DerivedValues>();
  std::deque<Setting> settings_;
  std::map<std::string, Effective, std::less<>> effective_;
};

}  // namespace lint::model
