// A parsed script's Python facts in a compact binary form (lint/source/compact.hpp). A run that streams its
// launches keeps a script's facts packed once its per-file rules ran and unpacks them for the batch of launches
// that reads them (docs/limits.md "Memory"): a kept call with its resolved arguments costs tens of bytes packed
// against about a kilobyte of structs. unpack(pack(f)) equals f in every member.
#pragma once

#include <string>
#include <string_view>

#include "lint/model/document.hpp"
#include "lint/model/python_facts.hpp"

namespace lint::model {

std::string pack_python_facts(const PythonFacts& facts);

/// The facts `bytes` hold; throws std::out_of_range when they are not what pack_python_facts wrote.
PythonFacts unpack_python_facts(std::string_view bytes);

/// Gives back a script's facts, packing them first (once: packed facts are kept). False when it has none.
/// Thread-safe for distinct documents.
bool release_python(Document& doc);
/// Unpacks the facts release_python gave back; nothing when they are there or were never packed. Thread-safe for
/// distinct documents.
void restore_python(Document& doc);

}  // namespace lint::model
