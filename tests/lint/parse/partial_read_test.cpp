// Partial reads of big config files (parse::ReadPolicy): what is kept, what becomes a stub, and that errors are
// those of a full read.
#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "lint/parse/readers.hpp"

using lint::parse::ConfigDocument;
using lint::parse::Node;
using lint::parse::NodeKind;
using lint::parse::ReadPolicy;

namespace {

ReadPolicy shallow_policy() {
  ReadPolicy p;
  p.shallow = true;
  return p;
}

ReadPolicy data_policy() {
  ReadPolicy p;
  p.elide_root_keys = {"datasets", "test_datasets"};
  return p;
}

std::optional<ConfigDocument> yaml(const std::string& text, const ReadPolicy& policy) {
  const lint::source::SourceFile file("config.yaml", text);
  return lint::parse::read_yaml(file, policy);
}

ConfigDocument full_yaml(const std::string& text) {
  const lint::source::SourceFile file("config.yaml", text);
  return lint::parse::read_yaml(file);
}

const std::string kAxolotl =
    "base_model: org/model\n"
    "adapter: lora\n"
    "fsdp_config:\n"
    "  fsdp_offload_params: false\n"
    "  nested:\n"
    "    deep: 1\n"
    "datasets:\n"
    "  - path: org/a\n"
    "    type: alpaca\n"
    "  - path: org/b\n"
    "    type: [x, {y: 1}]\n"
    "micro_batch_size: 2\n";

}  // namespace

TEST_CASE("shallow YAML keeps root keys, scalars and mapping keys; deeper parts are stubs with exact regions") {
  const std::optional<ConfigDocument> doc = yaml(kAxolotl, shallow_policy());
  REQUIRE(doc);
  const ConfigDocument full = full_yaml(kAxolotl);
  REQUIRE(doc->errors.empty());
  REQUIRE(doc->root.entries.size() == full.root.entries.size());
  CHECK(doc->root.region == full.root.region);
  CHECK(doc->root.find("adapter")->text == "lora");
  CHECK(doc->root.find("micro_batch_size")->integer == 2);

  const Node* datasets = doc->root.find("datasets");
  REQUIRE(datasets != nullptr);
  CHECK(datasets->kind == NodeKind::Sequence);
  CHECK(datasets->elided);
  CHECK(datasets->items.empty());
  CHECK(datasets->region == full.root.find("datasets")->region);

  const Node* cfg = doc->root.find("fsdp_config");
  REQUIRE(cfg != nullptr);
  CHECK_FALSE(cfg->elided);
  CHECK(cfg->find("fsdp_offload_params")->kind == NodeKind::Bool);
  const Node* nested = cfg->find("nested");
  REQUIRE(nested != nullptr);
  CHECK(nested->kind == NodeKind::Mapping);
  CHECK(nested->elided);
  CHECK(nested->entries.empty());
  CHECK(nested->region == full.root.find("fsdp_config")->find("nested")->region);
}

TEST_CASE("shallow YAML reports the errors of a full read, also inside the parts left out") {
  for (const std::string& text : {
           std::string("a: 1\nlist:\n  - x: !!int abc\n"),               // constructor error deep in a stub
           std::string("a: 1\nlist:\n  - x: 1\n  - [unclosed\nb: 2\n"),   // syntax error
           std::string("a:\n  b:\n    c:\n      - <<\n"),                 // a merge key out of place
           std::string("a:\n  b:\n    ? [1, 2]\n    : 3\n"),              // unhashable key in a stub
           std::string("a: [1]\n---\nb: 2\n"),                             // a second document
       }) {
    INFO(text);
    const std::optional<ConfigDocument> doc = yaml(text, shallow_policy());
    REQUIRE(doc);
    const ConfigDocument full = full_yaml(text);
    REQUIRE(doc->errors.size() == full.errors.size());
    for (std::size_t i = 0; i < full.errors.size(); ++i) {
      CHECK(doc->errors[i].message == full.errors[i].message);
      CHECK(doc->errors[i].region == full.errors[i].region);
    }
    CHECK(doc->has_root == full.has_root);
    CHECK(doc->extra_document.has_value() == full.extra_document.has_value());
  }
}

TEST_CASE("shallow YAML gives up on a merge key inside a part left out; aliases into it are fine") {
  CHECK_FALSE(yaml("base: &b {x: 1}\nlist:\n  - <<: *b\n    y: 2\n", shallow_policy()));
  const std::optional<ConfigDocument> doc = yaml("base: &b {x: 1}\nlist:\n  - *b\nc: *b\n", shallow_policy());
  REQUIRE(doc);
  CHECK(doc->root.find("list")->elided);
  CHECK(doc->root.find("c")->find("x")->integer == 1);
}

TEST_CASE("a root sequence read shallow is one stub") {
  const std::optional<ConfigDocument> doc = yaml("- a: 1\n- b: 2\n", shallow_policy());
  REQUIRE(doc);
  CHECK(doc->has_root);
  CHECK(doc->root.kind == NodeKind::Sequence);
  CHECK(doc->root.elided);
}

TEST_CASE("data keys are stubs when plain; everything else is read in full") {
  const std::optional<ConfigDocument> doc = yaml(kAxolotl, data_policy());
  REQUIRE(doc);
  const ConfigDocument full = full_yaml(kAxolotl);
  const Node* datasets = doc->root.find("datasets");
  REQUIRE(datasets != nullptr);
  CHECK(datasets->elided);
  CHECK(datasets->region == full.root.find("datasets")->region);
  const Node* deep = doc->root.find("fsdp_config")->find("nested")->find("deep");
  REQUIRE(deep != nullptr);
  CHECK(deep->integer == 1);
  // A key of the same name deeper down is not a data key.
  const std::optional<ConfigDocument> inner = yaml("a:\n  datasets: [1, 2]\n", data_policy());
  REQUIRE(inner);
  CHECK_FALSE(inner->root.find("a")->find("datasets")->elided);
  CHECK(inner->root.find("a")->find("datasets")->items.size() == 2);
}

TEST_CASE("data keys holding what a YAML rule reports are read in full") {
  for (const std::string& text : {
           std::string("base_model: m\ndatasets:\n  - path: a\n    path: b\n"),        // repeated key
           std::string("base_model: m\ndatasets:\n  - {1: a, 1.0: b}\n"),              // the same key for Python
           std::string("base_model: m\ndatasets:\n  - path: !!python/name:os.system x\n"),  // a tag
           std::string("base_model: m\ndatasets:\n  - !custom {path: a}\n"),
           std::string("base_model: m\ndatasets:\n  - &a {path: a}\n"),                // an anchor
           std::string("base_model: m\nd: &d {path: a}\ndatasets:\n  - *d\n"),         // an alias
           std::string("base_model: m\nd: &d {path: a}\ndatasets:\n  - <<: *d\n"),     // a merge
       }) {
    INFO(text);
    CHECK_FALSE(yaml(text, data_policy()));
  }
  // A tag on the list itself stays on the stub.
  const std::optional<ConfigDocument> tagged = yaml("base_model: m\ndatasets: !custom\n  - path: a\n", data_policy());
  REQUIRE(tagged);
  CHECK(tagged->root.find("datasets")->elided);
  CHECK(tagged->root.find("datasets")->tag == "!custom");
}

TEST_CASE("shallow JSON keeps what classification reads and the errors of a full read") {
  const std::string text =
      R"({"version": "1.0", "added_tokens": [{"id": 0}], "model": {"type": "BPE", "vocab": {"a": 0, "b": 1}},)"
      R"( "fp16": {"enabled": true}})";
  const lint::source::SourceFile file("tokenizer.json", text);
  const ConfigDocument doc = lint::parse::read_json_shallow(file);
  const ConfigDocument full = lint::parse::read_json(file);
  REQUIRE(doc.errors.empty());
  CHECK(doc.root.find("version")->text == "1.0");
  CHECK(doc.root.find("added_tokens")->elided);
  CHECK(doc.root.find("added_tokens")->region == full.root.find("added_tokens")->region);
  CHECK(doc.root.find("model")->find("type")->text == "BPE");
  CHECK(doc.root.find("model")->find("vocab")->elided);
  CHECK(doc.root.find("model")->find("vocab")->region == full.root.find("model")->find("vocab")->region);
  CHECK(doc.root.find("fp16")->find("enabled")->boolean);

  for (const std::string& bad : {std::string(R"({"a": {"b": {"c": [1, 2,]}}})"), std::string(R"({"a": [{"b": 1 "c": 2}]})"),
                                std::string(R"([1, 2] 3)")}) {
    INFO(bad);
    const lint::source::SourceFile f("x.json", bad);
    const ConfigDocument s = lint::parse::read_json_shallow(f);
    const ConfigDocument r = lint::parse::read_json(f);
    REQUIRE(s.errors.size() == 1);
    REQUIRE(r.errors.size() == 1);
    CHECK(s.errors[0].message == r.errors[0].message);
    CHECK(s.errors[0].region == r.errors[0].region);
  }
}
