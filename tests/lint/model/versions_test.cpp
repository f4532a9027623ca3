#include "lint/model/versions.hpp"

#include <catch2/catch.hpp>

using lint::model::assume;
using lint::model::parse_specifiers;
using lint::model::parse_version;
using lint::model::TargetVersions;
using lint::model::Version;

TEST_CASE("versions: release numbers", "[versions]") {
  CHECK(parse_version("2.4") == Version{2, 4, 0});
  CHECK(parse_version("v5.17.0") == Version{5, 17, 0});
  CHECK(parse_version("2.6.0+cu124") == Version{2, 6, 0});
  CHECK(parse_version("0.19.5rc1") == Version{0, 19, 5});
  CHECK(parse_version("4.46.0.dev0") == Version{4, 46, 0});
  CHECK_FALSE(parse_version("latest"));
  CHECK_FALSE(parse_version("2.4.*"));
  CHECK_FALSE(parse_version(""));
  CHECK(Version{2, 10, 0} > Version{2, 9, 9});
}

TEST_CASE("versions: specifier sets as ranges", "[versions]") {
  auto r = parse_specifiers(">=2.4, <2.6, !=2.5.0");
  REQUIRE(r);
  CHECK(r->low == Version{2, 4, 0});
  CHECK(r->high == Version{2, 6, 0});
  CHECK_FALSE(r->high_inclusive);
  r = parse_specifiers("~=2.4.1");
  CHECK(r->low == Version{2, 4, 1});
  CHECK(r->high == Version{2, 5, 0});
  r = parse_specifiers("~=2.4");
  CHECK(r->high == Version{3, 0, 0});
  r = parse_specifiers("==2.4.*");
  CHECK(r->low == Version{2, 4, 0});
  CHECK(r->high == Version{2, 5, 0});
  CHECK(parse_specifiers("<=2.5")->high_inclusive);
  CHECK_FALSE(parse_specifiers("=>2.4"));
  CHECK_FALSE(parse_specifiers("~=2"));
  CHECK(parse_specifiers(">2.6,<2.4")->empty());
}

TEST_CASE("versions: the version assumed from a pin is the newest it allows", "[versions]") {
  // The built-in torch is 2.11: a range that holds it assumes it.
  auto a = assume("torch", *parse_specifiers(">=2.1"));
  CHECK(a.exact());
  CHECK(a.display() == "2.11");
  // Below the default: the newest release below the bound.
  a = assume("torch", *parse_specifiers(">=2.4,<2.6"));
  CHECK(a.display() == "2.5.x (below 2.6)");
  CHECK(a.low == Version{2, 5, 0});
  a = assume("deepspeed", *parse_specifiers(">=0.18.6,<0.19.0"));
  CHECK(a.display() == "0.18.x (at least 0.18.6, below 0.19)");
  a = assume("torch", *parse_specifiers("<=2.5.1"));
  CHECK(a.display() == "2.5.1");
  a = assume("torch", *parse_specifiers("==2.4.1"));
  CHECK(a.display() == "2.4.1");
  // Above the default: its lower bound.
  a = assume("transformers", *parse_specifiers(">=5.20"));
  CHECK(a.display() == "5.20");
}

TEST_CASE("versions: questions rules ask", "[versions]") {
  TargetVersions tv;
  CHECK(tv.get("torch").is_default);
  CHECK(tv.at_least("torch", Version{2, 6, 0}));
  CHECK_FALSE(tv.before("torch", Version{2, 6, 0}));
  tv.set(assume("torch", *parse_specifiers(">=2.4,<2.6")));
  CHECK(tv.before("torch", Version{2, 6, 0}));
  CHECK(tv.at_least("torch", Version{2, 5, 0}));
  CHECK_FALSE(tv.older_than("torch", Version{2, 5, 1}).has_value());  // 2.5.0 or 2.5.1: not known
  CHECK_FALSE(tv.set(assume("numpy", {})));
  std::string error;
  CHECK_FALSE(lint::model::assume_setting({"tensorflow", "2.4", "x"}, error));
  CHECK(error.find("unknown library 'tensorflow'") != std::string::npos);
  CHECK_FALSE(lint::model::assume_setting({"torch", "two", "x"}, error));
  auto s = lint::model::assume_setting({"pytorch_lightning", "2.2", "cfg"}, error);
  REQUIRE(s);
  CHECK(s->library == "lightning");
  CHECK(s->display() == "2.2");
  CHECK(s->origin == "cfg");
}
