#include "lint/model/python_pack.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

using lint::model::PyArg;
using lint::model::PyCall;
using lint::model::PythonFacts;
using lint::model::Value;
using lint::source::Region;
using lint::source::SourceFile;

namespace {

// Every member compared, so that a member the codec leaves out fails here (not only in the findings it changes).
bool same(const Region& a, const Region& b) {
  return a == b;
}

bool same(const Value& a, const Value& b) {
  if (a.kind != b.kind || a.boolean != b.boolean || a.integer != b.integer || a.text != b.text ||
      a.qualifier != b.qualifier || !same(a.region, b.region) || a.items.size() != b.items.size() ||
      a.fields.size() != b.fields.size())
    return false;
  // The double's bits: a NaN default is a value too.
  if (std::memcmp(&a.number, &b.number, sizeof a.number) != 0) return false;
  for (std::size_t i = 0; i < a.items.size(); ++i) {
    if (!same(a.items[i], b.items[i])) return false;
  }
  for (std::size_t i = 0; i < a.fields.size(); ++i) {
    if (a.fields[i].key != b.fields[i].key || !same(a.fields[i].value, b.fields[i].value)) return false;
  }
  return true;
}

bool same(const PythonFacts& a, const PythonFacts& b) {
  if (a.calls.size() != b.calls.size() || a.classes.size() != b.classes.size() ||
      a.attribute_assignments.size() != b.attribute_assignments.size() || a.imports != b.imports ||
      a.called_imports != b.called_imports || a.syntax_errors.size() != b.syntax_errors.size())
    return false;
  for (std::size_t i = 0; i < a.calls.size(); ++i) {
    const PyCall& x = a.calls[i];
    const PyCall& y = b.calls[i];
    if (x.callee != y.callee || x.name != y.name || x.receiver != y.receiver || !same(x.region, y.region) ||
        !same(x.callee_region, y.callee_region) || x.has_unresolved_unpacking != y.has_unresolved_unpacking ||
        x.function != y.function || x.order != y.order || x.args.size() != y.args.size())
      return false;
    for (std::size_t k = 0; k < x.args.size(); ++k) {
      const PyArg& p = x.args[k];
      const PyArg& q = y.args[k];
      if (p.name != q.name || p.position != q.position || !same(p.value, q.value) || !same(p.region, q.region) ||
          !same(p.name_region, q.name_region) || p.from_unpacked_dict != q.from_unpacked_dict)
        return false;
    }
  }
  for (std::size_t i = 0; i < a.classes.size(); ++i) {
    const auto& x = a.classes[i];
    const auto& y = b.classes[i];
    if (x.name != y.name || x.bases != y.bases || x.decorators != y.decorators || x.fields != y.fields ||
        x.field_truths != y.field_truths || !same(x.region, y.region))
      return false;
  }
  for (std::size_t i = 0; i < a.attribute_assignments.size(); ++i) {
    const auto& x = a.attribute_assignments[i];
    const auto& y = b.attribute_assignments[i];
    if (x.target != y.target || x.attribute != y.attribute || !same(x.value, y.value) || !same(x.region, y.region) ||
        x.function != y.function)
      return false;
  }
  for (std::size_t i = 0; i < a.syntax_errors.size(); ++i) {
    if (!same(a.syntax_errors[i].region, b.syntax_errors[i].region) ||
        a.syntax_errors[i].message != b.syntax_errors[i].message)
      return false;
  }
  return true;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

PythonFacts facts_of(std::string text) {
  const SourceFile file("train.py", std::move(text));
  return lint::model::read_python_facts(file);
}

}  // namespace

TEST_CASE("packed Python facts unpack to the same facts, on every Python file of the fixtures and real-world cases",
          "[model][python_pack]") {
  std::size_t files = 0;
  std::size_t calls = 0;
  for (const char* tree : {"fixtures", "tests/realworld", "examples"}) {
    for (const auto& e :
         std::filesystem::recursive_directory_iterator(std::filesystem::path(LAUNCHLINT_SOURCE_DIR) / tree)) {
      if (!e.is_regular_file() || e.path().extension() != ".py") continue;
      const PythonFacts facts = facts_of(read(e.path()));
      const std::string packed = lint::model::pack_python_facts(facts);
      INFO(e.path().string());
      CHECK(same(lint::model::unpack_python_facts(packed), facts));
      ++files;
      calls += facts.calls.size();
    }
  }
  CHECK(files > 200);
  CHECK(calls > 1000);
}

TEST_CASE("packing keeps every member: values of each kind, classes, attribute assignments, syntax errors",
          "[model][python_pack]") {
  const PythonFacts facts = facts_of(R"(import torch
from transformers import TrainingArguments as TA
from dataclasses import dataclass

@dataclass
class Args(TA):
    fp16: bool = True
    lr: float = 2e-5

cfg = {"a": [1, -7, 2.5, None, True, "x"], "nested": {"k": torch.bfloat16}}
args = TA(output_dir="out", bf16=True, learning_rate=-1e-3, fsdp_config=cfg, **cfg)
def main():
    accelerator.state.fsdp_plugin.sharding_strategy = 2
    TA(output_dir=, bf16=True)
)");
  REQUIRE(!facts.calls.empty());
  REQUIRE(!facts.classes.empty());
  REQUIRE(!facts.attribute_assignments.empty());
  REQUIRE(!facts.syntax_errors.empty());
  REQUIRE(!facts.imports.empty());
  CHECK(same(lint::model::unpack_python_facts(lint::model::pack_python_facts(facts)), facts));
  // A changed member is seen by the comparison this test relies on.
  PythonFacts changed = lint::model::unpack_python_facts(lint::model::pack_python_facts(facts));
  changed.calls.back().args.back().value.integer += 1;
  CHECK_FALSE(same(changed, facts));
}

TEST_CASE("a repeated string is packed once", "[model][python_pack]") {
  const auto packed_size = [](const std::string& dir) {
    std::string text = "from transformers import TrainingArguments\n";
    for (int i = 0; i < 200; ++i) text += "TrainingArguments(output_dir='" + dir + "')\n";
    return lint::model::pack_python_facts(facts_of(text)).size();
  };
  // The same 200 calls, the directory 100 bytes longer: the packed form grows by those 100 bytes once, and by a few
  // bytes a call for its regions (longer extents, later offsets, wider columns), not by 200 copies (20,000 bytes).
  const std::size_t short_form = packed_size("o");
  const std::size_t long_form = packed_size("o" + std::string(100, 'x'));
  CHECK(long_form - short_form >= 100);
  CHECK(long_form - short_form < 100 + 200 * 10);
}

TEST_CASE("damaged packed facts are refused, never misread", "[model][python_pack]") {
  const std::string packed = lint::model::pack_python_facts(
      facts_of("from transformers import TrainingArguments\nTrainingArguments(output_dir='o', fsdp=['full_shard'])\n"));
  for (std::size_t n = 0; n < packed.size(); ++n)
    CHECK_THROWS_AS(lint::model::unpack_python_facts(packed.substr(0, n)), std::out_of_range);
  CHECK_THROWS_AS(lint::model::unpack_python_facts(packed + "x"), std::out_of_range);
  // Each byte changed in turn: either refused or unpacked into some facts, never a crash (the sanitizer run checks
  // the reads).
  for (std::size_t i = 0; i < packed.size(); ++i) {
    std::string bad = packed;
    bad[i] = static_cast<char>(bad[i] ^ 0x5A);
    try {
      (void)lint::model::unpack_python_facts(bad);
    } catch (const std::out_of_range&) {
    }
  }
}

TEST_CASE("release_python packs once and restore_python gives the same facts back", "[model][python_pack]") {
  lint::model::Document doc;
  doc.python = std::make_unique<PythonFacts>(facts_of("import torch\ntorch.distributed.init_process_group('nccl')\n"));
  const PythonFacts before = *doc.python;
  CHECK(lint::model::release_python(doc));
  CHECK_FALSE(doc.python);
  REQUIRE(doc.packed_python);
  const std::string* packed = doc.packed_python.get();
  lint::model::restore_python(doc);
  REQUIRE(doc.python);
  CHECK(same(*doc.python, before));
  CHECK(lint::model::release_python(doc));
  CHECK(doc.packed_python.get() == packed);  // not packed again
  lint::model::Document none;
  CHECK_FALSE(lint::model::release_python(none));
  lint::model::restore_python(none);
  CHECK_FALSE(none.python);
}
