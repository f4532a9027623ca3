// The tables the Python fact walk runs with (lint/parse/tree_walk.h), for tests: kept apart from
// python_facts.hpp, which most of the project includes.
#pragma once

#include <cstdint>

namespace lint::model::detail {

/// By public symbol of tree-sitter-python.
struct PythonWalkTables {
  const bool* walked;                   ///< the kinds the walk returns
  const bool* acted_on;                 ///< of those, the kinds the extraction acts on (not plain strings)
  const std::uint8_t* min_descendants;  ///< launchlint_tree_walk_skip_small's table
  std::uint32_t count;
};

PythonWalkTables python_walk_tables();

}  // namespace lint::model::detail
