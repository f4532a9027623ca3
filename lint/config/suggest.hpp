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

/// The most bytes of a user-supplied value (a command-line argument, a value of launchlint.toml) that an error
/// message echoes: a longer one is cut.
constexpr std::size_t kMaxShownValue = 120;

/// `value` as an error message echoes it: at most kMaxShownValue bytes of it, cut at a UTF-8 boundary and followed
/// by "... (N bytes)" when longer; control characters (a line break, an escape sequence) written as `\n`, `\xHH`.
std::string shown_value(std::string_view value);

/// The most bytes of one error message: a longer one keeps its start and its end around "...".
constexpr std::size_t kMaxMessage = 2048;

/// A whole error message bounded the same way (a message that echoes a value some path did not cut), one line.
std::string bounded_message(std::string_view message);

}  // namespace lint::config
