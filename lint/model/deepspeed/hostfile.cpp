#include "lint/model/deepspeed/hostfile.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace lint::model {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

}  // namespace

std::optional<std::vector<HostfileHost>> read_hostfile(const source::SourceFile& file) {
  const std::string& text = file.text();
  std::vector<HostfileHost> hosts;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    // line.strip(), then `^(\S+)\s+slots=(\d+)` searched at the start (runner.py:247-259).
    std::size_t b = begin, e = end;
    while (b < e && is_space(text[b])) ++b;
    while (e > b && is_space(text[e - 1])) --e;
    const std::string_view line(text.data() + b, e - b);
    if (!line.empty() && line.front() != '#') {
      std::size_t i = 0;
      while (i < line.size() && !is_space(line[i])) ++i;
      const std::string_view host = line.substr(0, i);
      std::size_t j = i;
      while (j < line.size() && is_space(line[j])) ++j;
      if (j == i || line.substr(j, 6) != "slots=") return std::nullopt;
      j += 6;
      std::size_t k = j;
      while (k < line.size() && std::isdigit(static_cast<unsigned char>(line[k])) != 0) ++k;
      std::int64_t slots = 0;
      if (k == j || std::from_chars(line.data() + j, line.data() + k, slots).ec != std::errc{}) return std::nullopt;
      if (std::any_of(hosts.begin(), hosts.end(), [&](const HostfileHost& h) { return h.name == host; }))
        return std::nullopt;
      hosts.push_back(HostfileHost{std::string(host), slots, file.region(b, e)});
    }
    if (end == text.size()) break;
    begin = end + 1;
  }
  if (hosts.empty()) return std::nullopt;
  return hosts;
}

}  // namespace lint::model
