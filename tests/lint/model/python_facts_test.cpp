#include "lint/model/python_facts.hpp"

#include <catch2/catch.hpp>

#include "tests/support/reader_test_support.hpp"
#include "tests/support/time_limits.hpp"
#include <chrono>
#include <ctime>
#include <string>

using lint::model::extract_python_facts;
using lint::model::PyArg;
using lint::model::PyCall;
using lint::model::PythonFacts;
using lint::model::Value;
using lint::model::ValueKind;
using lint::parse::PythonTree;
using lint::source::Position;
using lint::source::SourceFile;

namespace {

/// Parses and extracts; the SourceFile outlives the facts' use in each test.
struct Extracted {
  explicit Extracted(std::string text) : file("train.py", std::move(text)) {
    const PythonTree tree = PythonTree::parse(file);
    facts = extract_python_facts(file, tree);
  }
  SourceFile file;
  PythonFacts facts;

  const PyCall& only(std::string_view name) const {
    const auto calls = facts.calls_named(name);
    REQUIRE(calls.size() == 1);
    return *calls.front();
  }
  std::string text_of(const lint::source::Region& r) const {
    return file.text().substr(r.begin_byte, r.end_byte - r.begin_byte);
  }
};

const Value& kw(const PyCall& call, std::string_view key) {
  const PyArg* a = call.keyword(key);
  REQUIRE(a != nullptr);
  return a->value;
}

bool is_enum(const Value& v, std::string_view qualifier, std::string_view member) {
  return v.kind == ValueKind::Enum && v.qualifier == qualifier && v.text == member;
}

std::string repeat(const std::string& s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

}  // namespace

TEST_CASE("python_facts: imports of every form", "[python_facts]") {
  const Extracted x(
      "import os\n"
      "import torch.distributed.fsdp as F\n"
      "import torch.distributed\n"
      "from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy\n"
      "from . import sibling\n"
      "from ..pkg.mod import (helper as h, other)\n");
  const auto& im = x.facts.imports;
  CHECK(im.at("os") == "os");
  CHECK(im.at("F") == "torch.distributed.fsdp");
  CHECK(im.at("torch") == "torch");
  CHECK(im.at("FSDP") == "torch.distributed.fsdp.FullyShardedDataParallel");
  CHECK(im.at("ShardingStrategy") == "torch.distributed.fsdp.ShardingStrategy");
  CHECK(im.at("sibling") == ".sibling");
  CHECK(im.at("h") == "..pkg.mod.helper");
  CHECK(im.at("other") == "..pkg.mod.other");
}

TEST_CASE("python_facts: FullyShardedDataParallel through an alias, with enum arguments", "[python_facts]") {
  const Extracted x(
      "from torch.distributed.fsdp import FullyShardedDataParallel as FSDP\n"
      "from torch.distributed.fsdp import ShardingStrategy, BackwardPrefetch, StateDictType\n"
      "import torch\n"
      "def wrap(model):\n"
      "    return FSDP(model, sharding_strategy=ShardingStrategy.SHARD_GRAD_OP,\n"
      "                backward_prefetch=BackwardPrefetch.BACKWARD_PRE, dtype=torch.bfloat16,\n"
      "                sd=StateDictType.FULL_STATE_DICT)\n");
  const PyCall& c = x.only("FullyShardedDataParallel");
  CHECK(c.callee == "torch.distributed.fsdp.FullyShardedDataParallel");
  CHECK(c.receiver.empty());
  CHECK(c.function == "wrap");
  CHECK(x.text_of(c.callee_region) == "FSDP");
  CHECK(c.region.begin == Position{5, 12});
  CHECK(c.order == c.region.begin_byte);
  CHECK(is_enum(kw(c, "sharding_strategy"), "ShardingStrategy", "SHARD_GRAD_OP"));
  CHECK(is_enum(kw(c, "backward_prefetch"), "BackwardPrefetch", "BACKWARD_PRE"));
  CHECK(is_enum(kw(c, "dtype"), "torch", "bfloat16"));
  CHECK(is_enum(kw(c, "sd"), "StateDictType", "FULL_STATE_DICT"));
  CHECK(x.text_of(kw(c, "sharding_strategy").region) == "ShardingStrategy.SHARD_GRAD_OP");
  const PyArg* model = c.positional(0);
  REQUIRE(model != nullptr);
  CHECK(model->value.kind == ValueKind::Unknown);  // a parameter
  CHECK(c.positional(1) == nullptr);
  const PyArg* sharding = c.keyword("sharding_strategy");
  CHECK(x.text_of(sharding->region) == "sharding_strategy=ShardingStrategy.SHARD_GRAD_OP");
  CHECK(x.text_of(sharding->name_region) == "sharding_strategy");
}

TEST_CASE("python_facts: a module alias and fully qualified enums", "[python_facts]") {
  const Extracted x(
      "import torch.distributed.fsdp as F\n"
      "from torch.distributed.fsdp import ShardingStrategy as SS\n"
      "F.FullyShardedDataParallel(m, sharding_strategy=torch.distributed.fsdp.ShardingStrategy.FULL_SHARD)\n"
      "F.FullyShardedDataParallel(m, sharding_strategy=SS.HYBRID_SHARD)\n"
      "F.FullyShardedDataParallel(m, sharding_strategy=F.ShardingStrategy.NO_SHARD)\n");
  const auto calls = x.facts.calls_named("FullyShardedDataParallel");
  REQUIRE(calls.size() == 3);
  CHECK(calls[0]->callee == "torch.distributed.fsdp.FullyShardedDataParallel");
  CHECK(calls[0]->receiver == "F");
  CHECK(is_enum(kw(*calls[0], "sharding_strategy"), "ShardingStrategy", "FULL_SHARD"));
  CHECK(is_enum(kw(*calls[1], "sharding_strategy"), "ShardingStrategy", "HYBRID_SHARD"));
  CHECK(is_enum(kw(*calls[2], "sharding_strategy"), "ShardingStrategy", "NO_SHARD"));
}

TEST_CASE("python_facts: an un-imported dotted call stays as written", "[python_facts]") {
  const Extracted x("foo.bar.baz(1)\nmodel.gradient_checkpointing_enable()\nself.model.train()\n");
  CHECK(x.only("baz").callee == "foo.bar.baz");
  CHECK(x.only("baz").receiver == "foo.bar");
  const PyCall& g = x.only("gradient_checkpointing_enable");
  CHECK(g.callee == "model.gradient_checkpointing_enable");
  CHECK(g.receiver == "model");
  CHECK(g.args.empty());
  CHECK(g.function.empty());
  CHECK(x.only("train").receiver == "self.model");
}

TEST_CASE("python_facts: methods of computed objects have no receiver", "[python_facts]") {
  const Extracted x("AutoModel.from_pretrained('m').gradient_checkpointing_enable()\nmodels[0].cuda()\n");
  const PyCall& g = x.only("gradient_checkpointing_enable");
  CHECK(g.receiver.empty());
  CHECK(g.callee == "gradient_checkpointing_enable");
  CHECK(x.only("from_pretrained").callee == "AutoModel.from_pretrained");
  CHECK(x.only("cuda").receiver.empty());
  // Calls are in source order: the outer call starts where the inner one does, and comes first.
  REQUIRE(x.facts.calls.size() == 3);
  CHECK(x.facts.calls[0].name == "gradient_checkpointing_enable");
  CHECK(x.facts.calls[1].name == "from_pretrained");
}

TEST_CASE("python_facts: TrainingArguments literals", "[python_facts]") {
  const Extracted x(
      "from transformers import TrainingArguments\n"
      "args = TrainingArguments(output_dir=\"x\", fsdp=\"full_shard auto_wrap\", fsdp_config={\"version\": 2},\n"
      "                         gradient_checkpointing=True)\n");
  const PyCall& c = x.only("TrainingArguments");
  CHECK(c.callee == "transformers.TrainingArguments");
  CHECK(kw(c, "output_dir").kind == ValueKind::String);
  CHECK(kw(c, "output_dir").text == "x");
  CHECK(kw(c, "fsdp").text == "full_shard auto_wrap");
  const Value& cfg = kw(c, "fsdp_config");
  REQUIRE(cfg.kind == ValueKind::Dict);
  REQUIRE(cfg.field("version") != nullptr);
  CHECK(cfg.field("version")->kind == ValueKind::Int);
  CHECK(cfg.field("version")->integer == 2);
  CHECK(kw(c, "gradient_checkpointing").kind == ValueKind::Bool);
  CHECK(kw(c, "gradient_checkpointing").boolean);
  CHECK_FALSE(c.has_unresolved_unpacking);
}

TEST_CASE("python_facts: module constants and local assignments", "[python_facts]") {
  const Extracted x(
      "from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy\n"
      "STRATEGY = ShardingStrategy.SHARD_GRAD_OP\n"
      "LIMIT: bool = True\n"
      "ALIAS = STRATEGY\n"
      "class Config:\n"
      "    LIMIT = 'class attribute, not the module constant'\n"
      "def main(model):\n"
      "    prefetch = 'BACKWARD_POST'\n"
      "    a = b = 3\n"
      "    FSDP(model, sharding_strategy=STRATEGY, limit_all_gathers=LIMIT, backward_prefetch=prefetch,\n"
      "         alias=ALIAS, a=a, b=b)\n");
  const PyCall& c = x.only("FullyShardedDataParallel");
  const Value& s = kw(c, "sharding_strategy");
  CHECK(is_enum(s, "ShardingStrategy", "SHARD_GRAD_OP"));
  // A value reached through a name keeps the place where it is written.
  CHECK(s.region.begin == Position{2, 12});
  CHECK(x.text_of(c.keyword("sharding_strategy")->region) == "sharding_strategy=STRATEGY");
  CHECK(kw(c, "limit_all_gathers").kind == ValueKind::Bool);
  CHECK(kw(c, "backward_prefetch").text == "BACKWARD_POST");
  CHECK(is_enum(kw(c, "alias"), "ShardingStrategy", "SHARD_GRAD_OP"));
  CHECK(kw(c, "a").integer == 3);
  CHECK(kw(c, "b").integer == 3);
}

TEST_CASE("python_facts: reassigned names are Unknown", "[python_facts]") {
  const Extracted x(
      "TWICE = 'a'\n"
      "TWICE = 'b'\n"
      "GLOBAL = 'x'\n"
      "def setup():\n"
      "    global GLOBAL\n"
      "    GLOBAL = 'y'\n"
      "def main(param):\n"
      "    aug = 1\n"
      "    aug += 1\n"
      "    looped = 1\n"
      "    for looped in range(3):\n"
      "        pass\n"
      "    with open('f') as handle:\n"
      "        pass\n"
      "    handle = 'h'\n"
      "    t1, t2 = 1, 2\n"
      "    param = 5\n"
      "    f(twice=TWICE, glob=GLOBAL, aug=aug, looped=looped, handle=handle, t1=t1, param=param, nope=undefined)\n");
  const PyCall& c = x.only("f");
  for (const char* key : {"twice", "glob", "aug", "looped", "handle", "t1", "param", "nope"}) {
    CAPTURE(key);
    CHECK(kw(c, key).kind == ValueKind::Unknown);
    CHECK(kw(c, key).region.valid());
  }
}

TEST_CASE("python_facts: a local shadows a module constant; comprehension variables do not leak", "[python_facts]") {
  const Extracted x(
      "MODE = 'module'\n"
      "x = 'module x'\n"
      "def a():\n"
      "    MODE = 'local'\n"
      "    f(mode=MODE)\n"
      "def b():\n"
      "    ys = [x for x in range(3)]\n"
      "    g(mode=MODE, x=x)\n"
      "    h = lambda MODE: k(mode=MODE)\n");
  CHECK(kw(x.only("f"), "mode").text == "local");
  CHECK(kw(x.only("g"), "mode").text == "module");
  CHECK(kw(x.only("g"), "x").text == "module x");
  CHECK(kw(x.only("k"), "mode").kind == ValueKind::Unknown);  // the lambda's parameter
}

TEST_CASE("python_facts: ** of dict literals, dict() calls and names bound to them", "[python_facts]") {
  const Extracted x(
      "KW = dict(limit_all_gathers=True, **{'use_orig_params': False})\n"
      "def main(model, opts):\n"
      "    FSDP(model, **{\"sharding_strategy\": \"SHARD_GRAD_OP\"})\n"
      "    FSDP(model, **KW)\n"
      "    FSDP(model, **opts)\n"
      "    FSDP(*model_args)\n"
      "    FSDP(*[1, 2], x=3)\n");
  const auto calls = x.facts.calls_named("FSDP");
  REQUIRE(calls.size() == 5);
  const PyArg* s = calls[0]->keyword("sharding_strategy");
  REQUIRE(s != nullptr);
  CHECK(s->from_unpacked_dict);
  CHECK(s->value.text == "SHARD_GRAD_OP");
  CHECK(x.text_of(s->region) == "\"sharding_strategy\": \"SHARD_GRAD_OP\"");
  CHECK(x.text_of(s->name_region) == "\"sharding_strategy\"");
  CHECK_FALSE(calls[0]->has_unresolved_unpacking);

  CHECK(kw(*calls[1], "limit_all_gathers").boolean);
  CHECK(calls[1]->keyword("use_orig_params")->from_unpacked_dict);
  CHECK(kw(*calls[1], "use_orig_params").kind == ValueKind::Bool);
  CHECK_FALSE(calls[1]->has_unresolved_unpacking);

  CHECK(calls[2]->has_unresolved_unpacking);
  CHECK(calls[3]->has_unresolved_unpacking);

  CHECK_FALSE(calls[4]->has_unresolved_unpacking);
  REQUIRE(calls[4]->positional(1) != nullptr);
  CHECK(calls[4]->positional(1)->value.integer == 2);
}

TEST_CASE("python_facts: keyword() returns the last occurrence", "[python_facts]") {
  const Extracted x("f(**{'a': 1}, a=2)\n");  // a runtime error in Python, but the last one is what a rule reads
  CHECK(kw(x.only("f"), "a").integer == 2);
}

TEST_CASE("python_facts: literal values", "[python_facts]") {
  const Extracted x(
      "f(i=1_000, h=0x1F, o=0o17, b=0b101, neg=-5, big=123456789012345678901234567890,\n"
      "  minint=-9223372036854775808, fl=2.5e-3, nf=-1.5, s='a' \"b\" 'c', esc='tab\\there\\x41\\u00e9',\n"
      "  raw=r'\\n', by=b'x', fs=f'{x}', fs2=f'plain', n=None, t=True, fa=False, cx=1j,\n"
      "  l=[1, 'two', (3,)], tup=(1, 2), st={1}, d={'a': {'b': [1]}}, nk={1: 2}, lam=lambda: 1, cond=a if b else c)\n");
  const PyCall& c = x.only("f");
  CHECK(kw(c, "i").integer == 1000);
  CHECK(kw(c, "h").integer == 31);
  CHECK(kw(c, "o").integer == 15);
  CHECK(kw(c, "b").integer == 5);
  CHECK(kw(c, "neg").integer == -5);
  CHECK(kw(c, "neg").text == "-5");
  CHECK(x.text_of(kw(c, "neg").region) == "-5");
  CHECK(kw(c, "big").kind == ValueKind::Float);
  CHECK(kw(c, "big").text == "123456789012345678901234567890");
  CHECK(kw(c, "minint").kind == ValueKind::Int);
  CHECK(kw(c, "minint").integer == std::numeric_limits<std::int64_t>::min());
  CHECK(kw(c, "fl").kind == ValueKind::Float);
  CHECK(kw(c, "fl").text == "2.5e-3");
  CHECK(kw(c, "fl").number == Approx(0.0025));
  CHECK(kw(c, "nf").number == Approx(-1.5));
  CHECK(kw(c, "nf").text == "-1.5");
  CHECK(kw(c, "s").text == "abc");
  CHECK(kw(c, "esc").text == "tab\there\x41\xC3\xA9");
  CHECK(kw(c, "raw").text == "\\n");
  CHECK(kw(c, "by").kind == ValueKind::Unknown);
  CHECK(kw(c, "fs").kind == ValueKind::Unknown);
  CHECK(kw(c, "fs2").kind == ValueKind::Unknown);
  CHECK(kw(c, "n").kind == ValueKind::None);
  CHECK(kw(c, "t").boolean);
  CHECK(kw(c, "fa").kind == ValueKind::Bool);
  CHECK_FALSE(kw(c, "fa").boolean);
  CHECK(kw(c, "cx").kind == ValueKind::Unknown);
  const Value& l = kw(c, "l");
  REQUIRE(l.kind == ValueKind::List);
  REQUIRE(l.items.size() == 3);
  CHECK(l.items[1].text == "two");
  CHECK(l.items[2].kind == ValueKind::List);
  CHECK(kw(c, "tup").kind == ValueKind::List);
  CHECK(kw(c, "st").kind == ValueKind::Unknown);
  const Value& d = kw(c, "d");
  REQUIRE(d.kind == ValueKind::Dict);
  REQUIRE(d.field("a") != nullptr);
  CHECK(d.field("a")->field("b")->items.size() == 1);
  CHECK(kw(c, "nk").kind == ValueKind::Unknown);
  CHECK(kw(c, "lam").kind == ValueKind::Unknown);
  CHECK(kw(c, "cond").kind == ValueKind::Unknown);
}

TEST_CASE("python_facts: calls and imported callables as values are Objects", "[python_facts]") {
  const Extracted x(
      "import functools\n"
      "from torch.distributed.fsdp.wrap import transformer_auto_wrap_policy\n"
      "def local_policy(*a): pass\n"
      "policy = functools.partial(transformer_auto_wrap_policy, transformer_layer_cls={Block})\n"
      "FSDP(m, auto_wrap_policy=policy, p2=transformer_auto_wrap_policy, p3=local_policy, p4=make()().x())\n");
  const PyCall& c = x.only("FSDP");
  CHECK(kw(c, "auto_wrap_policy").kind == ValueKind::Object);
  CHECK(kw(c, "auto_wrap_policy").text == "functools.partial");
  CHECK(kw(c, "p2").kind == ValueKind::Object);
  CHECK(kw(c, "p2").text == "torch.distributed.fsdp.wrap.transformer_auto_wrap_policy");
  CHECK(kw(c, "p3").kind == ValueKind::Unknown);
  CHECK(kw(c, "p4").kind == ValueKind::Unknown);
  const PyCall& partial = x.only("partial");
  REQUIRE(partial.positional(0) != nullptr);
  CHECK(partial.positional(0)->value.text == "torch.distributed.fsdp.wrap.transformer_auto_wrap_policy");
}

TEST_CASE("python_facts: attribute assignments", "[python_facts]") {
  const Extracted x(
      "def main(accelerator, model):\n"
      "    accelerator.state.fsdp_plugin.auto_wrap_policy = fsdp_auto_wrap_policy(model)\n"
      "    accelerator.state.fsdp_plugin.sharding_strategy = 'SHARD_GRAD_OP'\n"
      "    accelerator.state.x += 1\n"
      "    items[0].y = 2\n");
  REQUIRE(x.facts.attribute_assignments.size() == 2);
  const auto& a = x.facts.attribute_assignments[0];
  CHECK(a.target == "accelerator.state.fsdp_plugin.auto_wrap_policy");
  CHECK(a.attribute == "auto_wrap_policy");
  CHECK(a.value.kind == ValueKind::Object);
  CHECK(a.value.text == "fsdp_auto_wrap_policy");
  CHECK(a.function == "main");
  CHECK(a.region.begin == Position{2, 5});
  CHECK(x.facts.attribute_assignments[1].value.text == "SHARD_GRAD_OP");
}

TEST_CASE("python_facts: methods report the method name as their function", "[python_facts]") {
  const Extracted x(
      "class Trainer:\n"
      "    @decorate(1)\n"
      "    def setup(self, strategy=pick()):\n"
      "        def inner():\n"
      "            deep()\n"
      "        self.model.gradient_checkpointing_enable()\n"
      "top()\n");
  CHECK(x.only("decorate").function.empty());
  CHECK(x.only("pick").function.empty());  // defaults are evaluated where the def is
  CHECK(x.only("deep").function == "inner");
  CHECK(x.only("gradient_checkpointing_enable").function == "setup");
  CHECK(x.only("gradient_checkpointing_enable").receiver == "self.model");
  CHECK(x.only("top").function.empty());
}

TEST_CASE("python_facts: a file with a syntax error still yields the calls elsewhere", "[python_facts]") {
  const Extracted x(
      "from torch.distributed.fsdp import FullyShardedDataParallel as FSDP\n"
      "def broken(:\n"
      "    pass\n"
      "model = FSDP(net, sharding_strategy='FULL_SHARD')\n");
  REQUIRE(x.facts.syntax_errors.size() == 1);
  CHECK(x.facts.syntax_errors.front().region.begin.line == 2);
  const PyCall& c = x.only("FullyShardedDataParallel");
  CHECK(kw(c, "sharding_strategy").text == "FULL_SHARD");
}

TEST_CASE("python_facts: regions count code points, with tabs, multi-byte text and CRLF", "[python_facts]") {
  const Extracted x("s = '\xC3\xA9\xE2\x82\xAC'\r\n\tx = f(\xC3\xA9=1)  # \xF0\x9F\x98\x80\r\n");
  const PyCall& c = x.only("f");
  CHECK(c.region.begin == Position{2, 6});
  const PyArg* a = c.keyword("\xC3\xA9");
  REQUIRE(a != nullptr);
  CHECK(a->region.begin == Position{2, 8});
  CHECK(a->region.end == Position{2, 11});
  CHECK(a->value.region.begin == Position{2, 10});
  // The same positions as SourceFile computes them.
  CHECK(c.region == x.file.region(c.region.begin_byte, c.region.end_byte));
  CHECK(a->value.region == x.file.region(a->value.region.begin_byte, a->value.region.end_byte));
}

TEST_CASE("python_facts: edge inputs", "[python_facts]") {
  SECTION("an empty file") {
    const Extracted x("");
    CHECK(x.facts.calls.empty());
    CHECK(x.facts.syntax_errors.empty());
  }
  SECTION("invalid UTF-8 in a string literal") {
    const Extracted x("f(a='\xFF\xFE', b='\xC3')\n");
    const PyCall& c = x.only("f");
    CHECK(kw(c, "a").text == "\xFF\xFE");
    CHECK(c.keyword("b") != nullptr);
  }
  SECTION("100k nested parentheses") {
    const auto start = std::chrono::steady_clock::now();
    const Extracted x("f(a=1)\nx = " + repeat("(", 100000) + "1" + repeat(")", 100000) + "\n");
    CHECK_FALSE(x.facts.syntax_errors.empty());
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 2.0 * lint::testing::kTimeFactor);
  }
  SECTION("deep but legal nesting resolves to a depth cap, then Unknown") {
    const Extracted x("f(a=" + repeat("[", 150) + "1" + repeat("]", 150) + ")\n");
    const Value* v = &kw(x.only("f"), "a");
    int depth = 0;
    while (v->kind == ValueKind::List && !v->items.empty()) {
      v = &v->items.front();
      ++depth;
    }
    CHECK(depth < 150);
    CHECK(v->kind == ValueKind::Unknown);
  }
  SECTION("self-referential and long name chains") {
    std::string text = "a = b\nb = a\nn0 = 1\n";
    for (int i = 1; i < 500; ++i) text += "n" + std::to_string(i) + " = n" + std::to_string(i - 1) + "\n";
    text += "f(a=a, n=n499, m=n10)\n";
    const Extracted x(text);
    const PyCall& c = x.only("f");
    CHECK(kw(c, "a").kind == ValueKind::Unknown);
    CHECK(kw(c, "m").integer == 1);
  }
  SECTION("names that double their value on every line stay within the value budget") {
    // a60 would hold 2^60 items if names were copied without a bound.
    std::string text = "a0 = ['" + repeat("x", 100) + "']\n";
    for (int i = 1; i <= 60; ++i) {
      text += "a" + std::to_string(i) + " = [a" + std::to_string(i - 1) + ", a" + std::to_string(i - 1) + "]\n";
    }
    text += "f(small=a3, big=a60, after=1)\n";
    const std::clock_t start = std::clock();
    const Extracted x(text);
    CHECK(lint::testing::cpu_seconds_since(start) < 2.0 * lint::testing::kTimeFactor);
    const PyCall& c = x.only("f");
    CHECK(kw(c, "small").kind == ValueKind::List);
    CHECK(kw(c, "small").items.size() == 2);
    CHECK(kw(c, "big").kind == ValueKind::Unknown);
  }
}

TEST_CASE("python_facts: a large file extracts quickly", "[python_facts]") {
  std::string text = "from torch.distributed.fsdp import FullyShardedDataParallel as FSDP\nK = {'a': 1}\n";
  text +=
      repeat("def f(model):\n    x = FSDP(model, sharding_strategy='FULL_SHARD', **K)\n    return g(x)[0].y\n", 20000);
  const SourceFile file("big.py", text);
  const PythonTree tree = PythonTree::parse(file);
  const auto start = std::chrono::steady_clock::now();
  const PythonFacts facts = extract_python_facts(file, tree);
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 5.0 * lint::testing::kTimeFactor);
  CHECK(facts.calls_named("FullyShardedDataParallel").size() == 20000);
}
