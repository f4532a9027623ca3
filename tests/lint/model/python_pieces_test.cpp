// A big Python file read in pieces (model::read_python_facts_in_pieces, parse::PythonPieces) gives the facts of
// the whole file's tree. Tiny piece sizes force every statement boundary to be a piece boundary.
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "lint/model/python_calls_read.hpp"
#include "lint/model/python_facts.hpp"

using lint::model::PythonFacts;
using lint::model::read_python_facts;
using lint::model::read_python_facts_in_pieces;
using lint::model::Value;
using lint::parse::PythonPieces;
using lint::parse::PythonTree;
using lint::source::Region;
using lint::source::SourceFile;

namespace {

void dump(std::ostream& out, const Region& r) {
  out << r.begin.line << ':' << r.begin.column << '-' << r.end.line << ':' << r.end.column << '@' << r.begin_byte << '-'
      << r.end_byte;
}

void dump(std::ostream& out, const Value& v) {
  out << static_cast<int>(v.kind) << '{' << v.boolean << ',' << v.integer << ',' << v.number << ",'" << v.text << "','"
      << v.qualifier << "',";
  dump(out, v.region);
  for (const Value& item : v.items) {
    out << " [";
    dump(out, item);
    out << ']';
  }
  for (const auto& f : v.fields) {
    out << ' ' << f.key << '=';
    dump(out, f.value);
  }
  out << '}';
}

/// Everything the facts hold, one line per fact.
std::string dump(const PythonFacts& facts) {
  std::ostringstream out;
  for (const auto& c : facts.calls) {
    out << "call " << c.callee << " name=" << c.name << " receiver=" << c.receiver << " function=" << c.function
        << " order=" << c.order << " unpacking=" << c.has_unresolved_unpacking << ' ';
    dump(out, c.region);
    out << ' ';
    dump(out, c.callee_region);
    out << '\n';
    for (const auto& a : c.args) {
      out << "  arg " << a.name << " #" << a.position << " dict=" << a.from_unpacked_dict << ' ';
      dump(out, a.region);
      out << ' ';
      dump(out, a.name_region);
      out << ' ';
      dump(out, a.value);
      out << '\n';
    }
  }
  for (const auto& a : facts.attribute_assignments) {
    out << "attr " << a.target << ' ' << a.attribute << " function=" << a.function << ' ';
    dump(out, a.region);
    out << ' ';
    dump(out, a.value);
    out << '\n';
  }
  for (const auto& c : facts.classes) {
    out << "class " << c.name;
    for (const auto& b : c.bases) out << " base=" << b;
    for (const auto& d : c.decorators) out << " decorator=" << d;
    for (const auto& f : c.fields) out << " field=" << f;
    out << ' ';
    dump(out, c.region);
    out << '\n';
  }
  for (const auto& [local, qualified] : facts.imports) out << "import " << local << '=' << qualified << '\n';
  for (const auto& e : facts.syntax_errors) {
    out << "error " << e.message << ' ';
    dump(out, e.region);
    out << '\n';
  }
  return out.str();
}

std::string whole(const SourceFile& file) {
  const PythonTree tree = PythonTree::parse(file);
  return dump(lint::model::extract_python_facts(file, tree));
}

/// A script with every kind of statement boundary: strings, brackets and continuations that hold lines at column
/// 0, decorators, `else`/`except`/`finally` at column 0, module constants read before and after they are bound,
/// names bound again later, imports changed later, `global`, `**` of module dicts, nested functions and classes.
const char* const kScript = R"PY("""Docstring.
x = 1
"""
import torch
import torch.distributed as dist
from dataclasses import dataclass
from transformers import TrainingArguments, Trainer
from accelerate import Accelerator as Acc

LR = 2e-5
BATCH = dict(per_device_train_batch_size=4,
gradient_accumulation_steps=8)
OPTIONS = {
"bf16": True,
"fsdp": "full_shard auto_wrap",
}
model_name = "meta-llama/Llama-3.1-8B"
total = 1 + \
2

@torch.no_grad()
@staticmethod
def evaluate(model):
    return model(torch.ones(4, dtype=torch.bfloat16))
# a comment at column 0 inside a function
    print("still in evaluate", LR)

def build():
    args = TrainingArguments(output_dir="out", learning_rate=LR, **BATCH, **OPTIONS,
deepspeed=DS_CONFIG)
    text = f"""{model_name:>{
WIDTH}}
def not_a_statement():
    pass
"""
    return Trainer(args=args, model=model_name)

if torch.cuda.is_available():
    device = "cuda"
elif False:
    device = "mps"
else:
    device = "cpu"
try:
    import deepspeed
except ImportError:
    deepspeed = None
finally:
    pass

class Config:
    fsdp = "full_shard"
    def method(self):
        global model_name
        return Acc(mixed_precision="bf16", gradient_accumulation_steps=BATCH["gradient_accumulation_steps"])

@dataclass
class ModelArguments(Config):
    model_name_or_path: str = "m"
    local_rank: int = -1

WIDTH = 10
DS_CONFIG = "ds_config.json"
for i in range(3):
    print(i, device)
Acc(mixed_precision=PRECISION)
PRECISION = "fp16"
acc = Acc(); acc.state.fsdp_plugin.auto_wrap_policy = OPTIONS
model_name = "other"
print(len([k for k in OPTIONS]), dist.get_rank())
import torch.nn as dist
if __name__ == "__main__":
    build()
    evaluate(None)
)PY";

}  // namespace

TEST_CASE("pieces: the facts of a script read in pieces of any size are those of the whole file", "[pieces]") {
  const SourceFile file("train.py", kScript);
  const std::string expected = whole(file);
  REQUIRE(expected.find(" name=TrainingArguments ") != std::string::npos);
  REQUIRE(expected.find("\nclass ") != std::string::npos);
  for (const std::size_t piece_bytes :
       {std::size_t{1}, std::size_t{40}, std::size_t{200}, std::size_t{1000}, std::size_t{1} << 20}) {
    CAPTURE(piece_bytes);
    const std::optional<PythonFacts> pieces = read_python_facts_in_pieces(file, piece_bytes);
    REQUIRE(pieces.has_value());
    CHECK(dump(*pieces) == expected);
  }
}

TEST_CASE("pieces: top-level statements start outside strings, brackets, continuations and decorators", "[pieces]") {
  const SourceFile file("train.py", kScript);
  const std::optional<PythonPieces> pieces = PythonPieces::split(file, 1);
  REQUIRE(pieces.has_value());
  std::vector<std::string> firsts;
  for (std::size_t i = 0; i < pieces->count(); ++i) {
    const std::size_t b = pieces->begin(i);
    CHECK(pieces->end(i) > b);
    if (i + 1 < pieces->count()) CHECK(pieces->end(i) == pieces->begin(i + 1));
    firsts.push_back(file.text().substr(b, file.text().find('\n', b) - b));
  }
  CHECK(pieces->end(pieces->count() - 1) == file.text().size());
  const std::vector<std::string> expected = {
      R"("""Docstring.)",
      "import torch",
      "import torch.distributed as dist",
      "from dataclasses import dataclass",
      "from transformers import TrainingArguments, Trainer",
      "from accelerate import Accelerator as Acc",
      "LR = 2e-5",
      "BATCH = dict(per_device_train_batch_size=4,",
      "OPTIONS = {",
      R"(model_name = "meta-llama/Llama-3.1-8B")",
      R"(total = 1 + \)",
      "@torch.no_grad()",
      "def build():",
      "if torch.cuda.is_available():",
      "try:",
      "class Config:",
      "@dataclass",
      "WIDTH = 10",
      R"(DS_CONFIG = "ds_config.json")",
      "for i in range(3):",
      "Acc(mixed_precision=PRECISION)",
      R"(PRECISION = "fp16")",
      "acc = Acc(); acc.state.fsdp_plugin.auto_wrap_policy = OPTIONS",
      R"(model_name = "other")",
      "print(len([k for k in OPTIONS]), dist.get_rank())",
      "import torch.nn as dist",
      R"(if __name__ == "__main__":)",
  };
  CHECK(firsts == expected);
}

TEST_CASE("pieces: each piece parsed alone has the whole file's subtrees", "[pieces]") {
  const SourceFile file("train.py", kScript);
  const std::optional<PythonPieces> pieces = PythonPieces::split(file, 1);
  REQUIRE(pieces.has_value());
  for (std::size_t i = 0; i < pieces->count(); ++i) {
    CAPTURE(i);
    CHECK(pieces->parse(i).tree() != nullptr);
    CHECK(pieces->parse_statement_at(pieces->begin(i)).tree() != nullptr);
  }
}

TEST_CASE("pieces: a file with a syntax error, a cycle of names or a CPython limit is read whole", "[pieces]") {
  // Every call kept, as extract_python_facts keeps them (lint/model/python_calls_read.hpp).
  struct KeepEveryCall {
    std::size_t from = lint::model::set_python_read_calls_only_from(std::numeric_limits<std::size_t>::max());
    ~KeepEveryCall() { lint::model::set_python_read_calls_only_from(from); }
  } const every;
  for (const char* text : {"import torch\n\ndef f(:\n    pass\n\ntorch.compile(x)\n", "a = b\nb = a\nprint(a)\n",
                           "x = 1\nprint(x\n", "def f():\n    pass\nelse_ = 1\nelse:\n    pass\n"}) {
    CAPTURE(text);
    const SourceFile file("train.py", text);
    CHECK_FALSE(read_python_facts_in_pieces(file, 1).has_value());
    CHECK(dump(read_python_facts(file)) == whole(file));
  }
  const SourceFile deep("train.py", "x = " + std::string(300, '(') + std::string(300, ')') + "\n");
  CHECK_FALSE(PythonPieces::split(deep, 1).has_value());
  CHECK(dump(read_python_facts(deep)) == whole(deep));
}

TEST_CASE("pieces: lone CRs and CRLF line ends", "[pieces]") {
  std::string crlf;
  std::string cr;
  for (const char c : std::string(kScript)) {
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    cr += c == '\n' ? '\r' : c;
  }
  for (const std::string& text : {crlf, cr}) {
    const SourceFile file("train.py", text);
    const std::string expected = whole(file);
    const std::optional<PythonFacts> pieces = read_python_facts_in_pieces(file, 1);
    REQUIRE(pieces.has_value());
    CHECK(dump(*pieces) == expected);
  }
}

TEST_CASE("pieces: a file of 1 MiB or more is read in pieces with the whole file's facts", "[pieces]") {
  std::string text = "import torch\nfrom transformers import TrainingArguments\nLR = 3e-4\n";
  for (int i = 0; text.size() < lint::model::kPythonPiecesFrom + 4096; ++i) {
    const std::string n = std::to_string(i);
    text += "\n\ndef build_" + n + "(model):\n    args = TrainingArguments(output_dir=\"out" + n +
            "\", learning_rate=LR, per_device_train_batch_size=" + n +
            ")\n    return torch.compile(model, mode=\"max-autotune\")\n\nVALUE_" + n + " = [" + n + ", \"" + n +
            "\"]\nprint(VALUE_" + n + ", build_" + n + ")\n";
  }
  const SourceFile file("zoo.py", text);
  const std::optional<PythonFacts> pieces = read_python_facts_in_pieces(file, lint::model::kPythonPieceBytes);
  REQUIRE(pieces.has_value());
  CHECK(dump(*pieces) == whole(file));

  // read_python_facts keeps only the calls something reads (lint/model/python_calls_read.hpp): every
  // TrainingArguments call; of the others (torch.compile, print) only the imports they call.
  const PythonFacts kept = read_python_facts(file);
  std::size_t arguments = 0;
  std::vector<std::string> others;
  for (const auto& c : kept.calls) {
    if (c.name == "TrainingArguments") {
      ++arguments;
    } else {
      others.push_back(c.callee);
    }
  }
  CHECK(arguments * 3 == pieces->calls.size());
  CHECK(others.empty());
  CHECK(kept.called_imports == std::vector<std::string>{"torch"});
  CHECK(kept.calls_into("torch"));
  CHECK(kept.calls_into("transformers.TrainingArguments"));
  CHECK_FALSE(kept.calls_into("torch.nn"));
  std::size_t i = 0;
  for (const auto& c : pieces->calls) {  // the calls kept are those of the whole facts, in order, unchanged
    if (i < kept.calls.size() && c.order == kept.calls[i].order) {
      CHECK(kept.calls[i].args.size() == c.args.size());
      ++i;
    }
  }
  CHECK(i == kept.calls.size());
}

// Hidden: `LAUNCHLINT_PIECES_FILE=path launchlint_tests "[.pieces-file]"` compares the facts of any file read in
// pieces (the real piece size) with those of its whole tree (docs/performance.md "Huge files": model_zoo.py).
TEST_CASE("pieces: a file named by LAUNCHLINT_PIECES_FILE", "[.pieces-file]") {
  const char* path = std::getenv("LAUNCHLINT_PIECES_FILE");
  if (path == nullptr) {
    WARN("LAUNCHLINT_PIECES_FILE is not set: nothing to compare");
    return;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const SourceFile file(path, text.str());
  const std::optional<PythonFacts> pieces = read_python_facts_in_pieces(file, lint::model::kPythonPieceBytes);
  REQUIRE(pieces.has_value());
  const std::string expected = whole(file);
  CHECK(dump(*pieces) == expected);
  WARN("calls " << pieces->calls.size() << ", attribute assignments " << pieces->attribute_assignments.size()
                << ", facts dump " << expected.size() << " bytes");
}
