// Streaming memory (docs/limits.md "Memory"): a run that does not keep its launches gives back the tree of each
// launch config once its per-file rules ran, keeping what binding reads, and reads it again (with the content check
// of its text) for the batch of launches that uses it.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lint/bind/file_refs.hpp"
#include "lint/driver/driver.hpp"
#include "rules/registry.hpp"

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

/// Every finding of a run, one line each, with its message, severity, region and related locations.
std::string rendered(const lint::driver::RunResult& r) {
  std::ostringstream out;
  for (const lint::rule::Diagnostic& d : r.diagnostics) {
    out << d.path << ':' << d.region.begin.line << ':' << d.region.begin.column << '-' << d.region.end.line << ':'
        << d.region.end.column << ' ' << d.code << ' ' << static_cast<int>(d.severity) << ' ' << d.message << " ["
        << d.setting << "]";
    for (const auto& rel : d.related) out << " | " << rel.path << ':' << rel.region.begin.line << ' ' << rel.message;
    out << (d.suppressed ? " suppressed" : "") << '\n';
  }
  return out.str();
}

}  // namespace

TEST_CASE("a launch config's tree is given back, kept for binding, and read again with its content checked",
          "[driver][streaming]") {
  const fs::path dir = fs::temp_directory_path() / ("launchlint-streaming-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path path = dir / "accelerate.yaml";
  const std::string text =
      "compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\ndeepspeed_config:\n"
      "  zero_stage: 3\n  deepspeed_config_file: ds_old.json\n  deepspeed_config_file: ds.json\n"
      "  offload_optimizer_device: none\nnum_processes: 8\nmixed_precision: bf16\n";
  std::ofstream(path, std::ios::binary) << text;
  auto doc = lint::driver::load_document(path.generic_string(), slurp(path), false);
  doc->source->release(lint::driver::kMaxFileBytes);  // as a file read from disk is, once loaded
  REQUIRE(doc->kind == lint::model::DocKind::AccelerateConfig);
  const std::size_t keys = doc->root_map()->entries.size();
  const std::string root_display = doc->root_map()->find("num_processes")->text;
  const std::vector<std::string> named = lint::bind::named_deepspeed_candidates(*doc, *doc);
  REQUIRE_FALSE(named.empty());

  REQUIRE(lint::driver::release_config(*doc));
  CHECK(doc->config->released);
  CHECK_FALSE(lint::driver::release_config(*doc));  // once
  REQUIRE(doc->root_map() != nullptr);
  CHECK(doc->root_map()->entries.size() == 1);  // deepspeed_config, with its two deepspeed_config_file entries
  CHECK(doc->root_map()->find("deepspeed_config")->entries.size() == 2);
  CHECK(lint::bind::named_deepspeed_candidates(*doc, *doc) == named);  // binding reads the same

  REQUIRE(lint::driver::reload_config(*doc));
  CHECK_FALSE(doc->config->released);
  REQUIRE(doc->root_map() != nullptr);
  CHECK(doc->root_map()->entries.size() == keys);
  CHECK(doc->root_map()->find("num_processes")->text == root_display);
  CHECK(doc->root_map()->find("num_processes")->region.begin.line == 8);
  CHECK(lint::driver::reload_config(*doc));  // a tree not given back: nothing to do

  // Changed on disk since: the tree read again would be another file's; none is kept.
  REQUIRE(lint::driver::release_config(*doc));
  doc->source->release_again();
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "distributed_type: FSDP\nnum_processes: 2\n";
  CHECK_FALSE(lint::driver::reload_config(*doc));
  CHECK(doc->root_map() == nullptr);
  CHECK_FALSE(doc->config->released);
  fs::remove_all(dir);
}

TEST_CASE("scripts and unknown files keep what they have", "[driver][streaming]") {
  auto py = lint::driver::load_document("train.py", "from accelerate import Accelerator\nAccelerator()\n", true);
  CHECK_FALSE(lint::driver::release_config(*py));
  auto unknown = lint::driver::load_document("data.yaml", "rows:\n  - 1\n", false);
  CHECK_FALSE(lint::driver::release_config(*unknown));
}

TEST_CASE("launches streamed give the findings of launches kept", "[driver][streaming]") {
  // The CLI's lint run streams (keep_launches off); explain and the language server keep their launches and every
  // tree. Every rule, on the fixtures and the real-world cases, with one thread and with two.
  for (const char* tree : {"fixtures", "tests/realworld", "examples"}) {
    for (unsigned jobs : {1U, 2U}) {
      lint::driver::RunOptions opts;
      opts.paths = {(fs::path(LAUNCHLINT_SOURCE_DIR) / tree).generic_string()};
      opts.jobs = jobs;
      opts.keep_launches = true;
      const std::string kept = rendered(lint::driver::run(lint::rules::rule_table(), opts));
      opts.keep_launches = false;
      const lint::driver::RunResult streamed = lint::driver::run(lint::rules::rule_table(), opts);
      INFO(tree << " --jobs " << jobs);
      CHECK(rendered(streamed) == kept);
      CHECK(streamed.launches.empty());
      CHECK_FALSE(kept.empty());
    }
  }
}

TEST_CASE("a file that gave nothing is kept as its path alone, and read again when a command names it",
          "[driver][streaming]") {
  const fs::path dir = fs::temp_directory_path() / ("launchlint-quiet-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto write = [&](const char* name, const char* text) { std::ofstream(dir / name, std::ios::binary) << text; };
  write("data.yaml", "rows:\n  - 1\n");                     // a YAML launchlint does not know
  write("model.py", "import torch\nx = torch.zeros(3)\n");  // Python the pre-filter leaves unparsed
  write("train.py", "print('hi')\n");                       // the same, but a launch runs it
  write("acc.yaml", "distributed_type: FSDP\nnum_processes: 2\nfsdp_config:\n  fsdp_sharding_strategy: FULL_SHARD\n");
  write("launch.sh", "accelerate launch --config_file acc.yaml train.py\n");
  lint::driver::RunOptions opts;
  opts.paths = {dir.generic_string()};
  opts.jobs = 1;
  opts.keep_launches = true;
  const lint::driver::RunResult kept = lint::driver::run(lint::rules::rule_table(), opts);
  opts.keep_launches = false;
  const lint::driver::RunResult streamed = lint::driver::run(lint::rules::rule_table(), opts);
  CHECK(kept.quiet.empty());
  std::vector<std::string> quiet;
  for (std::size_t i = 0; i < streamed.quiet.size(); ++i)
    quiet.push_back(fs::path(streamed.quiet[i]).filename().string());
  // train.py was read again for its launch (and parsed): a document of the run like the launch's other files.
  CHECK(quiet == std::vector<std::string>{"data.yaml", "model.py"});
  const auto has = [](const lint::driver::RunResult& r, const char* name) {
    return std::any_of(r.documents.begin(), r.documents.end(),
                       [&](const auto& d) { return fs::path(d->path()).filename() == name; });
  };
  CHECK(has(streamed, "train.py"));
  CHECK_FALSE(has(streamed, "data.yaml"));
  CHECK(streamed.files_checked == kept.files_checked);
  CHECK(streamed.files_checked == 5);
  CHECK(rendered(streamed) == rendered(kept));
  CHECK_FALSE(rendered(streamed).empty());
  fs::remove_all(dir);
}

TEST_CASE("a path list is sorted, holds each path once and finds each", "[driver][streaming]") {
  const lint::source::PathList list({"b/x.yaml", "a.py", "b/x.yaml", "a/b.py", ""});
  REQUIRE(list.size() == 4);
  CHECK(list[0].empty());
  CHECK(list[1] == "a.py");
  CHECK(list[2] == "a/b.py");
  CHECK(list[3] == "b/x.yaml");
  CHECK(list.index_of("a/b.py") == std::optional<std::size_t>(2));
  CHECK(list.index_of("b/x.yaml") == std::optional<std::size_t>(3));
  CHECK(list.index_of("") == std::optional<std::size_t>(0));
  CHECK_FALSE(list.index_of("a"));
  CHECK_FALSE(list.index_of("c"));
  CHECK_FALSE(lint::source::PathList().index_of("a"));
}
