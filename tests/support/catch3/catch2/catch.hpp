// Catch2 3 has no single header: this one stands in for Catch2 2's <catch2/catch.hpp> (on the include path only
// when CMake finds Catch2 3) and maps the Catch2 2 names the tests use.
#pragma once

#include <catch2/catch_all.hpp>

namespace Catch {
inline Matchers::StringContainsMatcher Contains(const std::string& s) { return Matchers::ContainsSubstring(s); }
}  // namespace Catch
using Catch::Approx;
