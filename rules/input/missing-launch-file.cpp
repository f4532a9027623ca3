// LL006: a launch command names a file that is not found, so the launch is checked without it.
#include <algorithm>
#include <filesystem>

#include "lint/bind/file_refs.hpp"
#include "lint/rule/rule.hpp"
#include "lint/source/access_log.hpp"

namespace lint::rules {
namespace {

class MissingLaunchFile final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.per_file || !l.command || l.command_document == nullptr) return;
    // The command's working directory as binding found it (reading it again from the script would read the whole
    // script once per launch).
    bind::Workdirs workdir;
    if (l.command_workdir) workdir.emplace(l.command->region.begin_byte, *l.command_workdir);
    const bind::FileRefs refs = bind::referenced_files(*l.command_document, *l.command, workdir);
    for (const auto& w : refs.written) {
      if (!w.word.known || w.word.text.empty() || w.word.text.front() == '{' || !w.word.region.valid()) continue;
      // Written by the script itself before the launch (`cat > get_model.py << EOF ... python get_model.py`).
      const auto& gen = l.command->files_written_before;
      if (std::find(gen.begin(), gen.end(), w.word.text) != gen.end()) continue;
      std::error_code ec;
      bool found = false;
      for (const std::string& c : w.candidates) {
        source::note_access(c);
        found = found || std::filesystem::is_regular_file(c, ec);
        // Written (or downloaded) in another folder of the script: `curl -o DIR/FILE URL` then
        // `cd DIR; python FILE`. Compared as paths: a candidate that is, or ends with, the written path.
        for (const std::string& g : gen) {
          const std::string p = std::filesystem::path(g).lexically_normal().generic_string();
          if (p.empty() || p.front() == '/' || p.starts_with("..")) continue;
          found = found || c == p || c.ends_with("/" + p);
        }
      }
      if (found) continue;
      // The message names no tried path: those depend on where launchlint runs, the finding must not.
      ctx.report(l.command_document->path(), w.word.region,
                 "The " + w.role + " `" + w.word.text +
                     "` of this launch is not found (relative to the folder the command runs in, the script's "
                     "folder or the project root), so the launch is checked without it.");
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_missing_launch_file() {
  return std::make_unique<MissingLaunchFile>();
}

}  // namespace lint::rules
