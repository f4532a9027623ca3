#include "lint/config/pins.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

using lint::config::Pin;
using lint::config::parse_conda_spec;
using lint::config::parse_requirement;
using lint::config::pins_in_file;
using lint::config::poetry_to_specifiers;
using lint::model::Version;

namespace {

const Pin* pin_of(const std::vector<Pin>& pins, std::string_view lib) {
  for (const Pin& p : pins) {
    if (p.library == lib) return &p;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("requirement lines: names, extras, specifiers, markers, comments", "[pins]") {
  auto r = parse_requirement("transformers[torch,sentencepiece] >= 4.46 , < 4.50 ; python_version >= \"3.9\"  # pinned");
  REQUIRE(r);
  CHECK(r->name == "transformers");
  CHECK(r->specifiers == ">=4.46,<4.50");
  CHECK(r->marker == "python_version >= \"3.9\"");
  CHECK(parse_requirement("torch (>=2.4,<2.6)")->specifiers == ">=2.4,<2.6");
  CHECK(parse_requirement("accelerate")->specifiers.empty());
  CHECK(parse_requirement("peft @ git+https://github.com/huggingface/peft#egg=peft")->direct_url);
  CHECK_FALSE(parse_requirement("# a comment"));
  CHECK_FALSE(parse_requirement("-r requirements-base.txt"));
  CHECK_FALSE(parse_requirement("--extra-index-url https://download.pytorch.org/whl/cu124"));
  CHECK_FALSE(parse_requirement("   "));
}

TEST_CASE("requirements.txt: each known library's pin with its line", "[pins]") {
  const std::string text =
      "# training\n"
      "--extra-index-url https://download.pytorch.org/whl/cu121\n"
      "torch==2.4.1+cu121  # cluster image\n"
      "Transformers~=4.46.0\n"
      "accelerate>=0.34,\\\n"
      "  <1.0\n"
      "PEFT\n"
      "deepspeed!=0.15.0\n"
      "pytorch_lightning==2.2.*\n"
      "torchtitan ; sys_platform == \"darwin\"\n"
      "numpy==1.26.4\n";
  const auto pins = pins_in_file("requirements.txt", text);
  const Pin* torch = pin_of(pins, "torch");
  REQUIRE(torch);
  CHECK(torch->line == 3);
  CHECK(torch->written == "torch==2.4.1+cu121");
  CHECK(torch->range.low == Version{2, 4, 1});
  CHECK(torch->range.high == Version{2, 4, 1});
  const Pin* tf = pin_of(pins, "transformers");
  REQUIRE(tf);
  CHECK(tf->range.low == Version{4, 46, 0});
  CHECK(tf->range.high == Version{4, 47, 0});
  CHECK_FALSE(tf->range.high_inclusive);
  const Pin* acc = pin_of(pins, "accelerate");
  REQUIRE(acc);
  CHECK(acc->line == 5);  // a continued line keeps the line it starts on
  CHECK(acc->range.high == Version{1, 0, 0});
  CHECK(pin_of(pins, "peft") == nullptr);       // no version: nothing pinned
  CHECK(pin_of(pins, "deepspeed") == nullptr);  // `!=` alone pins nothing
  const Pin* pl = pin_of(pins, "lightning");    // pytorch-lightning is Lightning
  REQUIRE(pl);
  CHECK(pl->range.low == Version{2, 2, 0});
  CHECK(pl->range.high == Version{2, 3, 0});
  CHECK(pin_of(pins, "torchtitan") == nullptr);  // only on macOS
  CHECK(pins.size() == 4);
}

TEST_CASE("pyproject.toml: dependencies, optional dependencies, dependency groups, poetry", "[pins]") {
  const std::string text =
      "[project]\n"
      "name = \"x\"\n"
      "dependencies = [\"torch>=2.1\", \"numpy\"]\n"
      "[project.optional-dependencies]\n"
      "train = [\"accelerate==1.2.1\"]\n"
      "[dependency-groups]\n"
      "dev = [\"peft<0.14\"]\n"
      "[tool.poetry.dependencies]\n"
      "transformers = \"^4.46\"\n"
      "deepspeed = { version = \"~0.15.1\", optional = true }\n";
  const auto pins = pins_in_file("sub/pyproject.toml", text);
  REQUIRE(pin_of(pins, "torch"));
  CHECK(pin_of(pins, "torch")->line == 3);
  CHECK(pin_of(pins, "torch")->path == "sub/pyproject.toml");
  CHECK(pin_of(pins, "accelerate")->range.low == Version{1, 2, 1});
  CHECK(pin_of(pins, "peft")->range.high == Version{0, 14, 0});
  const Pin* tf = pin_of(pins, "transformers");
  REQUIRE(tf);
  CHECK(tf->line == 9);
  CHECK(tf->range.low == Version{4, 46, 0});
  CHECK(tf->range.high == Version{5, 0, 0});
  const Pin* ds = pin_of(pins, "deepspeed");
  REQUIRE(ds);
  CHECK(ds->range.low == Version{0, 15, 1});
  CHECK(ds->range.high == Version{0, 16, 0});
}

TEST_CASE("poetry constraints", "[pins]") {
  CHECK(poetry_to_specifiers("^2.4") == ">=2.4,<3.0");
  CHECK(poetry_to_specifiers("^0.19") == ">=0.19,<0.20");
  CHECK(poetry_to_specifiers("^0.0.3") == ">=0.0.3,<0.0.4");
  CHECK(poetry_to_specifiers("~2.4") == ">=2.4,<2.5");
  CHECK(poetry_to_specifiers("2.4.1") == "==2.4.1");
  CHECK(poetry_to_specifiers(">=2.4,<2.6") == ">=2.4,<2.6");
  CHECK(poetry_to_specifiers("*").empty());
}

TEST_CASE("setup.cfg: install_requires and extras_require", "[pins]") {
  const std::string text =
      "[metadata]\n"
      "name = x\n"
      "[options]\n"
      "install_requires =\n"
      "    torch==2.3.0\n"
      "    # comment\n"
      "    transformers>=4.40,<4.45\n"
      "python_requires = >=3.9\n"
      "[options.extras_require]\n"
      "train =\n"
      "    accelerate==0.30.1\n"
      "[tool:pytest]\n"
      "addopts = peft==0.1\n";
  const auto pins = pins_in_file("setup.cfg", text);
  REQUIRE(pins.size() == 3);
  CHECK(pin_of(pins, "torch")->line == 5);
  CHECK(pin_of(pins, "transformers")->line == 7);
  CHECK(pin_of(pins, "accelerate")->line == 11);
  CHECK(pin_of(pins, "peft") == nullptr);
}

TEST_CASE("setup.py: requirement strings with a version, read as text", "[pins]") {
  const std::string text =
      "\"\"\"Setup.\n"
      "'torch==1.0' in a docstring\"\"\"\n"
      "import setuptools  # 'peft==0.1' in a comment\n"
      "install_requires = [\n"
      "    'mosaicml[libcloud]>=0.32.1,<0.33',\n"
      "    'transformers>=v4.51.0,<4.52',\n"
      "    \"accelerate>=0.25,<1.2\",  # comment\n"
      "    f'torch=={version}',\n"
      "]\n"
      "setuptools.setup(name='x', python_requires='>=3.9', install_requires=install_requires)\n";
  const auto pins = pins_in_file("setup.py", text);
  REQUIRE(pins.size() == 2);
  CHECK(pin_of(pins, "transformers")->line == 6);
  CHECK(pin_of(pins, "transformers")->range.high == lint::model::Version{4, 52, 0});
  CHECK(pin_of(pins, "accelerate")->line == 7);
  CHECK(pin_of(pins, "torch") == nullptr);
  CHECK(pin_of(pins, "peft") == nullptr);
}

TEST_CASE("environment.yml: conda specs and the pip list", "[pins]") {
  const std::string text =
      "name: train\n"
      "channels: [pytorch, conda-forge]\n"
      "dependencies:\n"
      "  - python=3.10\n"
      "  - pytorch::pytorch=2.3\n"
      "  - pip:\n"
      "      - transformers==4.44.2\n"
      "      - accelerate>=0.33 ; sys_platform == 'win32'\n";
  const auto pins = pins_in_file("environment.yml", text);
  const Pin* torch = pin_of(pins, "torch");
  REQUIRE(torch);
  CHECK(torch->line == 5);
  CHECK(torch->range.low == Version{2, 3, 0});
  CHECK(torch->range.high == Version{2, 4, 0});
  CHECK(pin_of(pins, "transformers")->line == 7);
  CHECK(pin_of(pins, "accelerate") == nullptr);
  CHECK(parse_conda_spec("pytorch==2.4.1")->specifiers == "==2.4.1");
  CHECK(parse_conda_spec("pytorch 2.4.1 py3.10_cuda12.1_cudnn9.1.0_0")->specifiers == "==2.4.1");
  CHECK(parse_conda_spec("pytorch>=2.4")->specifiers == ">=2.4");
  CHECK(parse_conda_spec("pytorch=2.4.1=py3.10_cuda12.1")->specifiers == "==2.4.1.*");
}

TEST_CASE("detected pins: an exact pin beats an earlier range; config settings are kept", "[pins]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("launchlint-pins-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "requirements");
  std::ofstream(dir / "pyproject.toml") << "[project]\nname = \"x\"\ndependencies = [\"torch>=2.0\"]\n";
  std::ofstream(dir / "requirements" / "base.txt") << "torch==2.4.0\ntransformers==4.46.3\n";
  const auto pins = lint::config::detect_pins({dir.string()});
  lint::model::TargetVersions tv;
  lint::config::apply_pins(pins, {"transformers"}, tv);
  CHECK(tv.get("torch").display() == "2.4");
  CHECK(tv.get("torch").origin.ends_with("requirements/base.txt:1"));
  CHECK(tv.get("transformers").is_default);
  fs::remove_all(dir);
}

TEST_CASE("a library installed from a URL has an unknown version", "[pins]") {
  const auto pins = pins_in_file(
      "requirements.txt", "deepspeed@git+https://github.com/EleutherAI/DeeperSpeed.git@91d1c55#egg=deepspeed\n");
  REQUIRE(pins.size() == 1);
  CHECK(pins.front().direct_url);
  lint::model::TargetVersions tv;
  lint::config::apply_pins(pins, {}, tv);
  CHECK(tv.get("deepspeed").display() == "unknown (up to 0.19.5)");
  CHECK_FALSE(tv.at_least("deepspeed", Version{0, 17, 1}));
  CHECK_FALSE(tv.before("deepspeed", Version{0, 17, 1}));
  CHECK_FALSE(tv.get("deepspeed").is_default);
}

TEST_CASE("install scripts and Dockerfiles: the requirements of their pip install commands", "[pins]") {
  const std::string text =
      "#!/bin/bash\n"
      "# pip install torch==1.0 in a comment\n"
      "pip install -r requirements.txt --index-url https://download.pytorch.org/whl/cu121\n"
      "pip install \"accelerate==0.33.0\" 'peft==0.12.0' && pip install -U trl\n"
      "python -m pip install --no-deps \\\n"
      "    transformers==4.44.2 deepspeed==$DS_VERSION ./local_pkg\n"
      "echo torch==2.1 ; pip3 install lightning>=2.2,<2.3\n";
  const auto pins = pins_in_file("install.sh", text);
  REQUIRE(pins.size() == 4);
  CHECK(pin_of(pins, "accelerate")->line == 4);
  CHECK(pin_of(pins, "accelerate")->written == "accelerate==0.33.0");
  CHECK(pin_of(pins, "peft")->range.low == Version{0, 12, 0});
  CHECK(pin_of(pins, "trl") == nullptr);  // no version
  CHECK(pin_of(pins, "transformers")->line == 5);  // the command's first line
  CHECK(pin_of(pins, "deepspeed") == nullptr);     // a variable
  CHECK(pin_of(pins, "torch") == nullptr);         // not a pip install command
  CHECK(pin_of(pins, "lightning")->range.high == Version{2, 3, 0});
  const auto docker = pins_in_file("Dockerfile", "FROM python:3.11\nRUN pip install --upgrade transformers==4.40.0\n");
  REQUIRE(docker.size() == 1);
  CHECK(docker[0].line == 2);
  CHECK(pins_in_file("train.sh", "pip install transformers==4.40.0\n").empty());  // a launch script is no record
}

TEST_CASE("detected pins: an install script counts after the requirements files", "[pins]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("launchlint-pins-install-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "requirements.txt") << "transformers>=4.40\n";
  std::ofstream(dir / "install.sh") << "pip install transformers==4.44.2 accelerate==0.33.0\n";
  lint::model::TargetVersions tv;
  lint::config::apply_pins(lint::config::detect_pins({dir.string()}), {}, tv);
  CHECK(tv.get("accelerate").display() == "0.33");
  CHECK(tv.get("accelerate").origin.ends_with("install.sh:1"));
  CHECK(tv.get("transformers").display() == "4.44.2");  // an exact pin beats the earlier range
  fs::remove_all(dir);
}
