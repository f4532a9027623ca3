// Paths held compactly: their characters in one buffer, sorted, found by binary search. A streaming run keeps the
// files that need nothing more than their path this way (lint/driver/driver.hpp: RunResult::quiet).
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lint::source {

class PathList {
 public:
  PathList() = default;
  /// Sorts `paths` (each kept once).
  explicit PathList(std::vector<std::string> paths) {
    std::sort(paths.begin(), paths.end());
    paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
    std::size_t total = 0;
    for (const std::string& p : paths) total += p.size();
    chars_.reserve(total);
    ends_.reserve(paths.size());
    for (std::string& p : paths) {
      chars_ += p;
      ends_.push_back(chars_.size());
      std::string().swap(p);  // the copies go as the list fills
    }
  }
  [[nodiscard]] std::size_t size() const { return ends_.size(); }
  [[nodiscard]] bool empty() const { return ends_.empty(); }
  [[nodiscard]] std::string_view operator[](std::size_t i) const {
    const std::size_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(chars_).substr(begin, ends_[i] - begin);
  }
  /// Where `path` is in the list, if it is.
  [[nodiscard]] std::optional<std::size_t> index_of(std::string_view path) const {
    std::size_t lo = 0;
    std::size_t hi = size();
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if ((*this)[mid] < path)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo < size() && (*this)[lo] == path) return lo;
    return std::nullopt;
  }

 private:
  std::string chars_;
  std::vector<std::size_t> ends_;
};

}  // namespace lint::source
