// Unified diffs of fixed files. Lines are compared with an LCS table over the part between the common prefix and
// suffix (fixes touch few lines, so that part is small); past a size bound it is one hunk.
#include <algorithm>
#include <cstdint>

#include "lint/fix/fix.hpp"

namespace lint::fix {

namespace {

/// Lines with their terminators (the last may have none).
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t nl = text.find('\n', at);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    out.push_back(text.substr(at, end - at));
    at = end;
  }
  return out;
}

enum class Op : std::uint8_t { Keep, Del, Add };
struct Step {
  Op op;
  std::size_t a;  // index in before (Keep, Del)
  std::size_t b;  // index in after (Keep, Add)
};

void append_line(std::string& out, char prefix, std::string_view line) {
  out += prefix;
  out.append(line);
  if (!line.ends_with('\n')) out += "\n\\ No newline at end of file\n";
}

std::string range(std::size_t start, std::size_t count) {
  // A hunk of no lines names the line before it (diff -u).
  const std::size_t first = count == 0 ? start : start + 1;
  return std::to_string(first) + (count == 1 ? "" : "," + std::to_string(count));
}

}  // namespace

std::string unified_diff(const std::string& path, std::string_view before, std::string_view after) {
  if (before == after) return {};
  const auto a = split_lines(before);
  const auto b = split_lines(after);
  std::size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  std::size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre && a[a.size() - 1 - suf] == b[b.size() - 1 - suf]) ++suf;
  const std::size_t n = a.size() - pre - suf;
  const std::size_t m = b.size() - pre - suf;

  std::vector<Step> steps;
  for (std::size_t i = 0; i < pre; ++i) steps.push_back({Op::Keep, i, i});
  if (n * m <= 4'000'000) {
    // lcs[i][j]: LCS length of a[pre+i..] and b[pre+j..]
    std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
    auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lcs[i * (m + 1) + j]; };
    for (std::size_t i = n; i-- > 0;) {
      for (std::size_t j = m; j-- > 0;) {
        at(i, j) = a[pre + i] == b[pre + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
      }
    }
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[pre + i] == b[pre + j]) {
        steps.push_back({Op::Keep, pre + i++, pre + j++});
      } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
        steps.push_back({Op::Del, pre + i++, pre + j});
      } else {
        steps.push_back({Op::Add, pre + i, pre + j++});
      }
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) steps.push_back({Op::Del, pre + i, pre});
    for (std::size_t j = 0; j < m; ++j) steps.push_back({Op::Add, pre + n, pre + j});
  }
  for (std::size_t k = 0; k < suf; ++k) steps.push_back({Op::Keep, pre + n + k, pre + m + k});

  std::string out = "--- a/" + path + "\n+++ b/" + path + "\n";
  constexpr std::size_t kContext = 3;
  std::size_t s = 0;
  while (s < steps.size()) {
    // next change
    while (s < steps.size() && steps[s].op == Op::Keep) ++s;
    if (s == steps.size()) break;
    std::size_t begin = s >= kContext ? s - kContext : 0;
    // extend while changes are within 2*context of each other
    std::size_t end = s;
    std::size_t last_change = s;
    while (end < steps.size()) {
      if (steps[end].op != Op::Keep)
        last_change = end;
      else if (end - last_change > 2 * kContext)
        break;
      ++end;
    }
    end = std::min(steps.size(), last_change + 1 + kContext);
    std::size_t a_start = steps[begin].a;
    std::size_t b_start = steps[begin].b;
    std::size_t a_count = 0;
    std::size_t b_count = 0;
    std::string body;
    for (std::size_t k = begin; k < end; ++k) {
      const Step& st = steps[k];
      if (st.op == Op::Keep) {
        append_line(body, ' ', a[st.a]);
        ++a_count;
        ++b_count;
      } else if (st.op == Op::Del) {
        append_line(body, '-', a[st.a]);
        ++a_count;
      } else {
        append_line(body, '+', b[st.b]);
        ++b_count;
      }
    }
    out += "@@ -" + range(a_start, a_count) + " +" + range(b_start, b_count) + " @@\n" + body;
    s = end;
  }
  return out;
}

}  // namespace lint::fix
