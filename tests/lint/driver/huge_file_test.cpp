// Huge config files (docs/limits.md "Huge files"): read shallow first, in full only when they are launch configs.
#include <catch2/catch.hpp>
#include <string>

#include "lint/driver/driver.hpp"
#include "lint/model/classify.hpp"
#include "lint/parse/readers.hpp"

TEST_CASE("a big config is read shallow first, in full only when it is a launch config") {
  std::string rows;
  while (rows.size() < lint::driver::kShallowFirstBytes) rows += "  - path: org/dataset\n    type: alpaca\n";

  // Not a launch config: only the shallow tree.
  auto data = lint::driver::load_document("data.yaml", "rows:\n" + rows, false);
  CHECK(data->kind == lint::model::DocKind::Unknown);
  REQUIRE(data->config->has_root);
  CHECK(data->config->root.find("rows")->elided);

  // An axolotl config: read in full, its datasets left out, its settings kept.
  auto axolotl = lint::driver::load_document(
      "axolotl.yaml",
      "base_model: org/m\nfsdp_config:\n  nested:\n    deep: 1\nmicro_batch_size: 2\ndatasets:\n" + rows, false);
  CHECK(axolotl->kind == lint::model::DocKind::AxolotlConfig);
  REQUIRE(axolotl->config->has_root);
  CHECK(axolotl->config->root.find("datasets")->elided);
  CHECK(axolotl->config->root.find("fsdp_config")->find("nested")->find("deep")->integer == 1);

  // A repeated key in a dataset: read in full (YML003 reports it).
  auto repeated = lint::driver::load_document(
      "axolotl.yaml", "base_model: org/m\nmicro_batch_size: 2\ndatasets:\n" + rows + "  - path: a\n    path: b\n",
      false);
  CHECK(repeated->kind == lint::model::DocKind::AxolotlConfig);
  CHECK_FALSE(repeated->config->root.find("datasets")->elided);

  // Small files are always read in full.
  auto small = lint::driver::load_document("data.yaml", "rows:\n  - a: 1\n", false);
  CHECK_FALSE(small->config->root.find("rows")->elided);
}

TEST_CASE("the TOML screen rules out only text that cannot be a torchtitan config") {
  using lint::model::toml_may_be_torchtitan;
  CHECK(toml_may_be_torchtitan("[job]\ndump_folder = 'x'\n[training]\nsteps = 1\n"));
  CHECK(toml_may_be_torchtitan("[parallelism]\ndata_parallel_shard_degree = -1\n"));
  CHECK(toml_may_be_torchtitan("job.dump_folder = 'x'\nmodel = {name = 'llama3'}\n"));
  CHECK(toml_may_be_torchtitan("  [ \"job\" ]\n['model']\n"));
  CHECK(toml_may_be_torchtitan("[\"j\\u006fb\"]\n[model]\n"));  // an escape could spell any name
  CHECK(toml_may_be_torchtitan("[[training]]\n[[metrics]]\n"));
  CHECK_FALSE(toml_may_be_torchtitan("[package]\nname = 'x'\n[dependencies]\nmodel = '1'\n"));
  // A superset: strings at the start of a line count as names too.
  CHECK(toml_may_be_torchtitan("[data]\nrows = [\n  'job',\n  'model',\n]\n"));
  CHECK_FALSE(toml_may_be_torchtitan("[model]\nname = 'x'\n"));
}

TEST_CASE("a big TOML that cannot be a torchtitan config is not parsed unless its errors would be reported") {
  std::string rows = "[data]\n";
  while (rows.size() < lint::driver::kShallowFirstBytes) rows += "row_" + std::to_string(rows.size()) + " = 1\n";
  auto doc = lint::driver::load_document("data.toml", rows, false);
  CHECK(doc->kind == lint::model::DocKind::Unknown);
  CHECK_FALSE(doc->config->has_root);
  CHECK_FALSE(doc->report_parse_errors);
  // Named on the command line: checked by toml++ in pieces (its syntax errors are reported), no tree kept.
  auto named = lint::driver::load_document("data.toml", rows, true);
  CHECK(named->kind == lint::model::DocKind::Unknown);
  CHECK_FALSE(named->config->has_root);
  CHECK(named->report_parse_errors);
  CHECK(named->config->errors.empty());
  // A torchtitan config is parsed and classified.
  auto titan =
      lint::driver::load_document("train.toml", "[job]\ndump_folder = 'x'\n[training]\nsteps = 1\n" + rows, false);
  CHECK(titan->kind == lint::model::DocKind::TorchtitanConfig);
  CHECK(titan->config->has_root);
}

TEST_CASE("a big named TOML checked in pieces reports the errors of a full read", "[pieces]") {
  std::string rows;
  for (int i = 0; rows.size() < lint::driver::kShallowFirstBytes; ++i) {
    rows += "[[rows]]\nid = " + std::to_string(i) + "\ntext = \"\"\"\n[not_a_header]\n\"\"\"\n";
  }
  for (const std::string& tail : {std::string(), std::string("[[rows]]\nid = = 1\n"), std::string("[rows]\nx = 1\n"),
                                  std::string("[other]\nx = \"\xC3\xA9\"\ny = \xC3\xA9\n")}) {
    CAPTURE(tail);
    auto doc = lint::driver::load_document("data.toml", rows + tail, true);
    const lint::source::SourceFile file("data.toml", rows + tail);
    const auto full = lint::parse::read_toml(file);
    CHECK(doc->kind == lint::model::DocKind::Unknown);
    CHECK(doc->report_parse_errors);
    REQUIRE(doc->config->errors.size() == full.errors.size());
    for (std::size_t i = 0; i < full.errors.size(); ++i) {
      CHECK(doc->config->errors[i].message == full.errors[i].message);
      CHECK(doc->config->errors[i].region == full.errors[i].region);
    }
    CHECK(doc->config->errors.empty() == tail.empty());
  }
}
