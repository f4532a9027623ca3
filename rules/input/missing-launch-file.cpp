// LL006: a launch command names a file that is not found (or is a folder, a FIFO, a device), so the launch is checked
// without it.
#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>

#include "lint/bind/file_refs.hpp"
#include "lint/rule/rule.hpp"
#include "lint/source/access_log.hpp"

namespace lint::rules {
namespace {

/// What a path that exists is, when it is no regular file ("" for a regular file or none).
std::string_view kind_of(const std::filesystem::file_status& st) {
  switch (st.type()) {
    case std::filesystem::file_type::directory:
      return "is a folder, not a file";
    case std::filesystem::file_type::fifo:
      return "is a FIFO (named pipe): not read";
    case std::filesystem::file_type::socket:
      return "is a socket: not read";
    case std::filesystem::file_type::character:
    case std::filesystem::file_type::block:
      return "is a device: not read";
    case std::filesystem::file_type::regular:
    case std::filesystem::file_type::none:
    case std::filesystem::file_type::not_found:
      return "";
    default:
      return "is not a regular file: not read";
  }
}

class MissingLaunchFile final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.per_file || !l.command || l.command_document == nullptr) return;
    // The command's working directory as binding found it (reading it again from the script would read the whole
    // script once per launch).
    const bind::FileRefs refs = bind::referenced_files(*l.command_document, *l.command,
                                                       l.command_workdir ? &*l.command_workdir : nullptr);
    // After a `cd` to a folder not statically known, a relative path names an unknown file.
    const bool unknown_workdir = l.command_workdir && l.command_workdir->unknown;
    for (const auto& w : refs.written) {
      if (!w.word.known || w.word.text.empty() || w.word.text.front() == '{' || !w.word.region.valid()) continue;
      if (unknown_workdir && w.word.text.front() != '/') continue;
      // Written by the script itself before the launch (`cat > get_model.py << EOF ... python get_model.py`).
      const auto& gen = l.command->files_written_before;
      if (gen.contains(w.word.text)) continue;
      bool found = false;
      std::string_view not_a_file;  // what the first candidate that exists but is no regular file is
      for (const std::string& c : w.candidates) {
        source::note_access(c);
        // stat only: a FIFO or device is never opened here.
        std::error_code ec;
        const std::filesystem::file_status st = std::filesystem::status(c, ec);
        found = found || std::filesystem::is_regular_file(st);
        if (std::filesystem::is_directory(st) && w.role == "training script") {
          // `python app`: Python runs the folder's __main__.py.
          const std::string main_py = (std::filesystem::path(c) / "__main__.py").generic_string();
          source::note_access(main_py);
          found = found || std::filesystem::is_regular_file(main_py, ec);
        }
        if (not_a_file.empty()) not_a_file = kind_of(st);
        // Written (or downloaded) in another folder of the script: `curl -o DIR/FILE URL` then
        // `cd DIR; python FILE`. Compared as paths: a candidate that is, or ends with, the written path.
        found = found || gen.names(c);
      }
      if (found) continue;
      // The message names no tried path: those depend on where launchlint runs, the finding must not.
      const std::string what = "The " + w.role + " `" + w.word.text + "` of this launch ";
      if (!not_a_file.empty()) {
        ctx.report(l.command_document->path(), w.word.region,
                   what + std::string(not_a_file) + ", so the launch is checked without it.");
        continue;
      }
      ctx.report(l.command_document->path(), w.word.region,
                 what +
                     "is not found (relative to the folder the command runs in, the script's "
                     "folder or the project root), so the launch is checked without it.");
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_missing_launch_file() {
  return std::make_unique<MissingLaunchFile>();
}

}  // namespace lint::rules
