// The #SBATCH directives of a batch script, shared by the rules that compare SLURM's allocation with a launch
// (PL004 for Lightning, LCH012 for torchrun and accelerate).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "rules/support.hpp"

namespace lint::rules::slurm {

struct Directive {
  std::int64_t value = 0;
  source::Region region;
};

inline std::optional<std::int64_t> leading_int(std::string_view s) {
  std::int64_t v = 0;
  std::size_t i = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
    if (v > 1'000'000) return std::nullopt;
    v = v * 10 + (s[i] - '0');
    ++i;
  }
  if (i == 0 || (i < s.size() && s[i] != ' ' && s[i] != '\t')) return std::nullopt;
  return v;
}

/// The #SBATCH directives sbatch reads: comment lines `#SBATCH ...` before the first command line.
inline std::map<std::string, Directive> sbatch_directives(const model::Document& doc) {
  std::map<std::string, Directive> out;
  const std::string& t = doc.source->text();
  std::size_t pos = 0;
  while (pos < t.size()) {
    std::size_t end = t.find('\n', pos);
    if (end == std::string::npos) end = t.size();
    std::string_view line(t.data() + pos, end - pos);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (!line.empty() && line.front() != '#') break;  // the first command ends the directives
    if (line.starts_with("#SBATCH")) {
      std::string_view rest = line.substr(7);
      while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
      std::string_view name = rest;
      std::string_view value;
      if (const auto eq = rest.find('='); eq != std::string_view::npos && rest.starts_with("--")) {
        name = rest.substr(0, eq);
        value = rest.substr(eq + 1);
      } else if (const auto sp = rest.find_first_of(" \t"); sp != std::string_view::npos) {
        name = rest.substr(0, sp);
        value = rest.substr(sp + 1);
        while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
      }
      std::string key(name);
      if (key == "-n") key = "--ntasks";
      if (key == "-N") key = "--nodes";
      std::optional<std::int64_t> n;
      if (key == "--gres" || key == "--gpus-per-node") {
        // gpu:N, gpu:type:N, N (gpus-per-node)
        std::string_view v = value.substr(0, value.find_first_of(", \t"));
        if (key == "--gres" && !v.starts_with("gpu:")) v = {};
        const auto colon = v.rfind(':');
        n = leading_int(colon == std::string_view::npos ? v : v.substr(colon + 1));
        key = "gpus-per-node";
      } else if (key == "--ntasks" || key == "--ntasks-per-node" || key == "--nodes") {
        n = leading_int(value);
      }
      if (n) out[key] = Directive{*n, doc.source->region(pos, pos + line.size())};
    }
    pos = end + 1;
  }
  return out;
}

/// Whether the launch command of `l` is started by `srun` (its text names it).
inline bool started_by_srun(const model::Launch& l) {
  if (!l.command || l.command_document == nullptr) return false;
  const std::string& st = l.command_document->source->text();
  const auto b = l.command->region.begin_byte, e = std::min(l.command->region.end_byte, st.size());
  return b < e && st.substr(b, e - b).find("srun") != std::string::npos;
}

}  // namespace lint::rules::slurm
