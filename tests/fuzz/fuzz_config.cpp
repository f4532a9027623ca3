// libFuzzer harness: the project config (launchlint.toml / pyproject.toml), and the launches it declares run
// through the pipeline.
#include <sstream>

#include "lint/config/project_config.hpp"
#include "lint/driver/driver.hpp"
#include "rules/registry.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "tests/fuzz/fuzz_tempdir.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path dir = lint::fuzz::fresh_dir();
  const std::string text = lint::fuzz::as_text(data, size);
  const bool pyproject = size > 0 && data[0] == '#';
  const std::filesystem::path path = dir / (pyproject ? "pyproject.toml" : "launchlint.toml");
  lint::fuzz::write_file(path, text);
  lint::fuzz::write_file(dir / "accelerate.yaml", "distributed_type: FSDP\nnum_processes: 2\n");
  lint::fuzz::write_file(dir / "train.py", "from transformers import TrainingArguments\nTrainingArguments(fsdp='full_shard')\n");
  std::string error;
  const auto config = lint::config::load_config(path.string(), error);
  if (!config) return 0;
  lint::driver::RunOptions options;
  options.paths = {dir.string()};
  options.jobs = 1;
  options.declared_launches = config->launches;
  options.exclude = config->exclude.value_or(lint::config::default_excludes());
  options.exclude.insert(options.exclude.end(), config->extend_exclude.begin(), config->extend_exclude.end());
  options.per_file_ignores = config->per_file_ignores;
  if (config->select) options.selection.select = *config->select;
  options.selection.ignore = config->ignore;
  options.selection.severity = config->severity;
  (void)lint::driver::run(lint::rules::rule_table(), options);
  return 0;
}
