// "Did you mean": the closest known word to a misspelt one (flags, rule codes, configuration keys).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lint::config {

/// Case-insensitive optimal-string-alignment distance (insertions, deletions, substitutions, transpositions).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word` when it is close enough to be a likely typo (distance at most a third of the
/// word's length, at least 1), or a candidate that starts with `word` (case-insensitively); nullopt otherwise.
std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates);

/// " (did you mean 'X'?)" or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace lint::config
