// Small helpers the per-tool collectors share (lint/model/<tool>/): recording one keyword argument of a call.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "lint/model/precedence.hpp"

namespace lint::model {

/// ASCII upper case (Python's str.upper() on the identifiers the tools accept).
inline std::string upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::toupper(c); });
  return out;
}

/// Records `call(arg=...)` as an assignment of `key`.
inline void add_call_setting(Launch& l, const Document& doc, const PyCall& call, const PyArg& arg, std::string_view key,
                             Value value, Origin origin) {
  l.add(make_setting(key, std::move(value), arg.value, doc, arg.region, origin, call.name + "(" + arg.name + "=)"));
}

}  // namespace lint::model
