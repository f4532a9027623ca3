// LCH004: a path with a space written unquoted in a launch command: the shell splits it into two arguments.
#include <filesystem>
#include <string>
#include <vector>

#include "lint/source/access_log.hpp"
#include "rules/launch/launch_support.hpp"

namespace lint::rules {
namespace {

namespace fs = std::filesystem;

/// Folders a relative path in the command is tried from: the launch script's folder, then the working directory.
std::vector<fs::path> bases(const model::Document& doc) {
  std::vector<fs::path> out;
  const fs::path dir = fs::path(doc.path()).parent_path();
  out.push_back(dir.empty() ? fs::path(".") : dir);
  if (!dir.empty()) out.emplace_back(".");
  return out;
}

bool exists_from(const std::vector<fs::path>& from, const std::string& p) {
  std::error_code ec;
  if (!p.empty() && p.front() == '/') {
    source::note_access(p);
    return fs::exists(p, ec);
  }
  for (const fs::path& b : from) {
    source::note_access((b / p).string());
    if (fs::exists(b / p, ec)) return true;
  }
  return false;
}

class UnquotedPathWithSpace final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.command || l.command_document == nullptr) return;
    const parse::LaunchCommand& cmd = *l.command;
    std::vector<const parse::Word*> words;
    for (const parse::Word& w : cmd.launcher_args) words.push_back(&w);
    if (cmd.script) words.push_back(&*cmd.script);
    for (const parse::Word& w : cmd.script_args) words.push_back(&w);
    const std::string_view text = l.command_document->source->text();
    const auto from = bases(*l.command_document);
    auto plain = [&](const parse::Word& w) {
      if (!w.known || w.text.empty() || w.region.end_byte > text.size()) return false;
      const std::string_view src = text.substr(w.region.begin_byte, w.region.end_byte - w.region.begin_byte);
      return src.find_first_of("\"'\\$=") == std::string_view::npos && !src.starts_with("-");
    };
    for (std::size_t i = 0; i + 1 < words.size(); ++i) {
      const parse::Word& a = *words[i];
      if (!plain(a) || exists_from(from, a.text)) continue;
      // Join the following words separated by one space while the joined path does not exist yet (at most 4).
      std::string joined = a.text;
      for (std::size_t k = i + 1; k < words.size() && k <= i + 4; ++k) {
        const parse::Word& b = *words[k];
        const parse::Word& prev = *words[k - 1];
        if (!plain(b) || b.region.begin_byte != prev.region.end_byte + 1 || text[prev.region.end_byte] != ' ') break;
        joined += " " + b.text;
        if (!exists_from(from, joined)) continue;
        source::Region r = a.region;
        r.end = b.region.end;
        r.end_byte = b.region.end_byte;
        ctx.report(l.command_document->path(), r,
                   "The path `" + joined + "` contains a space and is not quoted: the shell splits it at the space " +
                       "into separate arguments, so the launch receives `" + a.text +
                       "`, a path that does not exist, followed by stray arguments. Quote it: \"" + joined + "\".");
        i = k;
        break;
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_unquoted_path_with_space() {
  return std::make_unique<UnquotedPathWithSpace>();
}

}  // namespace lint::rules
