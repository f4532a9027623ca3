// Helpers shared by the reader unit tests.
#pragma once

#include <catch2/catch.hpp>
#include <ctime>
#include <string>

#include "lint/parse/node.hpp"

namespace lint::testing {

/// CPU time, not wall time: the machines that run the tests are often busy.
inline double cpu_seconds_since(std::clock_t start) {
  return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

/// `line:col-line:col` of a region.
inline std::string span(const source::Region& r) {
  return std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column) + "-" + std::to_string(r.end.line) +
         ":" + std::to_string(r.end.column);
}

/// `line:col` of the document's only error.
inline std::string where(const parse::ConfigDocument& doc) {
  REQUIRE(doc.errors.size() == 1);
  const auto& p = doc.errors[0].region.begin;
  return std::to_string(p.line) + ":" + std::to_string(p.column);
}

}  // namespace lint::testing
