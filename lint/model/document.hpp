// One input file after loading: what kind of launch file it is and its parsed content.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lint/model/python_facts.hpp"
#include "lint/parse/node.hpp"
#include "lint/parse/shell_reader.hpp"
#include "lint/source/source_file.hpp"

namespace lint::model {

/// The start of the read error of a folder a walk could not list (driver::discover): LL002 names the folder.
inline constexpr std::string_view kCannotListFolder = "cannot list this folder";

/// What a file is, decided by content (keys, names), not only by its name.
enum class DocKind : std::uint8_t {
  Unknown,             ///< not a launch file: skipped quietly
  AccelerateConfig,    ///< accelerate `--config_file` YAML or JSON
  TrainerFsdpConfig,   ///< HF Trainer `fsdp_config` JSON
  DeepSpeedConfig,     ///< DeepSpeed JSON
  TorchtitanConfig,    ///< torchtitan job TOML (v0.2.x)
  AxolotlConfig,       ///< axolotl-style YAML
  LlamaFactoryConfig,  ///< LLaMA-Factory training YAML (`llamafactory-cli train x.yaml`)
  TrainerArgsConfig,   ///< TrainingArguments fields in YAML, read by HfArgumentParser.parse_yaml_file / TRL --config
  PythonScript,        ///< a Python training script
  LaunchScript,        ///< a shell script / Makefile with launch commands
};

std::string_view to_string(DocKind kind);

/// A YAML / JSON / TOML document held on the heap: most documents of a run are not configs (Python files, shell
/// scripts, files launchlint does not know), and an empty box costs one pointer instead of a whole ConfigDocument.
/// Reading an empty box sees an empty ConfigDocument; `edit()` allocates.
class ConfigBox {
 public:
  ConfigBox() = default;
  ConfigBox& operator=(parse::ConfigDocument config) {
    edit() = std::move(config);
    return *this;
  }
  [[nodiscard]] const parse::ConfigDocument& operator*() const { return box_ ? *box_ : empty(); }
  [[nodiscard]] const parse::ConfigDocument* operator->() const { return &**this; }
  /// Whether a document is held (none for a file that is no config, or whose ConfigDocument was given back).
  [[nodiscard]] bool held() const { return box_ != nullptr; }
  /// The document, for writing (allocated on first use).
  parse::ConfigDocument& edit() {
    if (!box_) box_ = std::make_unique<parse::ConfigDocument>();
    return *box_;
  }

 private:
  static const parse::ConfigDocument& empty();
  std::unique_ptr<parse::ConfigDocument> box_;
};

/// A vector held on the heap and read like a const vector: most documents of a run have none of these (a launch
/// script's commands), and an empty one costs a pointer instead of a vector.
template <typename T>
class HeapVector {
 public:
  HeapVector& operator=(std::vector<T> items) {
    if (items.empty()) {
      box_.reset();
    } else {
      box_ = std::make_unique<std::vector<T>>(std::move(items));
    }
    return *this;
  }
  [[nodiscard]] const std::vector<T>& get() const { return box_ ? *box_ : empty_items(); }
  [[nodiscard]] auto begin() const { return get().begin(); }
  [[nodiscard]] auto end() const { return get().end(); }
  [[nodiscard]] std::size_t size() const { return get().size(); }
  [[nodiscard]] bool empty() const { return get().empty(); }
  [[nodiscard]] const T& operator[](std::size_t i) const { return get()[i]; }
  /// Moves the items out, leaving none.
  [[nodiscard]] std::vector<T> take() {
    std::vector<T> out = box_ ? std::move(*box_) : std::vector<T>{};
    box_.reset();
    return out;
  }

 private:
  static const std::vector<T>& empty_items() {
    static const std::vector<T> kEmpty;
    return kEmpty;
  }
  std::unique_ptr<std::vector<T>> box_;
};

/// LL002: why a file could not be read, and where (invalid UTF-8: the first bad byte; an invalid region: the whole
/// file). Held on the heap: nearly every file of a run was read, and its Document is kept to the end of the run.
class ReadError {
 public:
  ReadError& operator=(std::string message) {
    if (!box_) box_ = std::make_unique<Box>();
    box_->message = std::move(message);
    return *this;
  }
  [[nodiscard]] explicit operator bool() const { return box_ != nullptr; }
  [[nodiscard]] bool has_value() const { return box_ != nullptr; }
  [[nodiscard]] const std::string& operator*() const { return box_->message; }
  /// Where; set after the message.
  [[nodiscard]] source::Region region() const { return box_ ? box_->region : source::Region{}; }
  void set_region(const source::Region& region) {
    if (box_) box_->region = region;
  }

 private:
  struct Box {
    std::string message;
    source::Region region;
  };
  std::unique_ptr<Box> box_;
};

/// One file of a run. A run keeps one for every file it read to its end (the binder finds files by path, the report
/// and the result cache read what each was): what most files do not have is held on the heap.
struct Document {
  source::SourcePtr source;
  ConfigBox config;                     ///< YAML / JSON / TOML
  std::unique_ptr<PythonFacts> python;  ///< Python (on the heap: most documents are not parsed Python)
  /// A run that streams its launches keeps a parsed script's facts packed once its per-file rules ran, `python`
  /// given back until a launch needs them (model::release_python, model::restore_python: lint/model/python_pack.hpp).
  std::unique_ptr<const std::string> packed_python;
  HeapVector<parse::LaunchCommand> launch_commands;  ///< a launch script's launch commands, in order
  HeapVector<parse::ParseError> shell_errors;        ///< why a launch script could not be read for commands
  ReadError read_error;                              ///< LL002: why the file could not be read, and where
  /// Set while binding, before any launch is resolved: how many launch commands bind this file, and how many of
  /// those start one process by their own flags (model::single_process_command). A config that a larger launch
  /// shares is not judged by a single-process launch alone.
  int bound_launches = 0;
  int bound_single_process_launches = 0;
  parse::Format format = parse::Format::Other;
  DocKind kind = DocKind::Unknown;
  bool outside_project = false;      ///< a reference outside the project boundary: not read (LL002, info)
  bool report_parse_errors = false;  ///< parse errors are findings (a launch file, or named explicitly)
  bool explicitly_named = false;     ///< given on the command line rather than found in a directory
  bool keep_text = false;  ///< text made valid UTF-8 in memory (Python declaring another encoding): never released

  [[nodiscard]] const std::string& path() const { return source->path(); }
  /// Parse errors of whichever loader ran (LL001).
  [[nodiscard]] const std::vector<parse::ParseError>& parse_errors() const;
  /// The root mapping of a config document, or nullptr.
  [[nodiscard]] const parse::Node* root_map() const;
};

}  // namespace lint::model
