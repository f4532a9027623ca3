// The driver's overlay: in-memory texts replace files on disk (unsaved editor buffers, fixes not yet written).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "lint/driver/driver.hpp"
#include "rules/registry.hpp"

namespace fs = std::filesystem;

namespace {

std::size_t count(const lint::driver::RunResult& r, std::string_view code) {
  std::size_t n = 0;
  for (const auto& d : r.diagnostics) n += d.code == code ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("overlay texts replace the files of a bound launch", "[driver]") {
  const fs::path dir = fs::temp_directory_path() / ("launchlint-overlay-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "fsdp.yaml") << "distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n"
                                      "  fsdp_sharding_strategy: SHARD_GRAD_OP\n"
                                      "  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n";
  std::ofstream(dir / "launch.sh") << "accelerate launch --config_file fsdp.yaml train.py\n";
  const std::string train = "from accelerate import Accelerator\naccelerator = Accelerator()\n";
  std::ofstream(dir / "train.py") << train;

  lint::driver::RunOptions opts;
  opts.paths = {dir.generic_string()};
  opts.selection.select = {"FSDP001"};
  opts.jobs = 1;
  CHECK(count(lint::driver::run(lint::rules::rule_table(), opts), "FSDP001") == 1);

  // The script's unsaved text enables checkpointing: the config's finding goes, the disk is untouched.
  const std::string key = (dir / "train.py").lexically_normal().generic_string();
  opts.overlay[key] = train + "model.gradient_checkpointing_enable()\n";
  const auto with_overlay = lint::driver::run(lint::rules::rule_table(), opts);
  CHECK(count(with_overlay, "FSDP001") == 0);
  CHECK(with_overlay.sources.at(key)->text() == opts.overlay[key]);
  std::ifstream in(dir / "train.py");
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == train);

  // The overlay of the config file itself.
  opts.overlay.clear();
  opts.overlay[(dir / "fsdp.yaml").lexically_normal().generic_string()] =
      "distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_sharding_strategy: FULL_SHARD\n";
  CHECK(count(lint::driver::run(lint::rules::rule_table(), opts), "FSDP001") == 0);
  fs::remove_all(dir);
}
