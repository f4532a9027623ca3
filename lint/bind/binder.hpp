// Binding: which files belong to which launch. Every launch command of the run (launch scripts, CI workflow steps,
// launches declared in the project config) is bound to the documents it names, loading files outside the linted
// paths when a command names them.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lint/bind/declared_launch.hpp"
#include "lint/bind/file_refs.hpp"
#include "lint/model/document.hpp"
#include "lint/model/resolve.hpp"
#include "lint/parse/shell_reader.hpp"
#include "lint/source/path_list.hpp"

namespace lint::bind {

/// The documents of one run, by path, and the loader for files a launch names outside the linted paths.
class DocumentSet {
 public:
  using Loader = std::function<std::unique_ptr<model::Document>(const std::string& path)>;
  DocumentSet(std::vector<std::unique_ptr<model::Document>>& documents, Loader load);
  /// The same, with the files of the run kept as a path alone (`quiet`: a streaming run's files that nothing but a
  /// launch could need) and the loader that reads one of them again, as it was read, when a lookup names it: it is
  /// then a document of the run like the others (added to `documents`).
  DocumentSet(std::vector<std::unique_ptr<model::Document>>& documents, Loader load, const source::PathList* quiet,
              Loader revive);

  /// The first candidate that is a document of the run, else the first that is a regular file on disk (loaded and
  /// added to the run); nullptr when none is, or when the file could not be read. A Python file of the run that
  /// the pre-filter left unparsed is parsed now (through the loader).
  const model::Document* find_or_load(const std::vector<std::string>& candidates);
  /// The first candidate that is a document of the run, as it is (nothing loaded or parsed); nullptr when none is.
  [[nodiscard]] const model::Document* find(const std::vector<std::string>& candidates) const;
  /// The document of the run that find_or_load(candidates) would parse now (a Python file of the run the
  /// pre-filter left unparsed), or nullptr. Binding must run in order (it adds documents to the run), so a caller
  /// parses these first, in parallel (parse_in_place), and binding then only looks them up.
  [[nodiscard]] model::Document* unparsed_target(const std::vector<std::string>& candidates) const;
  /// Parses `d` (from unparsed_target) as find_or_load would, keeping its place (and address) in the run.
  /// Thread-safe for distinct documents, while nothing else uses the set.
  void parse_in_place(model::Document& d) const;
  [[nodiscard]] std::vector<std::unique_ptr<model::Document>>& documents() { return documents_; }
  /// The documents whose packed Python facts (a streaming run: lint/model/python_pack.hpp) a lookup unpacked since
  /// the last call: the caller gives them back once it has read them (binding reads a command's files, then the next).
  [[nodiscard]] std::vector<model::Document*> take_restored() { return std::exchange(restored_, {}); }

 private:
  /// The document of the run at `path` (the last one of that path), or nullptr.
  [[nodiscard]] model::Document* find(std::string_view path) const;

  std::vector<std::unique_ptr<model::Document>>& documents_;
  Loader load_;
  const source::PathList* quiet_ = nullptr;
  Loader revive_;
  /// The documents the set was made with, sorted by path (stably: the last of a path wins). No key is stored: a
  /// document's own path is compared, so a run of many files holds one pointer each, and parse_in_place (which
  /// replaces a document's source) keeps its place.
  std::vector<model::Document*> by_path_;
  /// The documents loaded since (a launch names them, or a quiet file read again), by path. Lookups run on one
  /// thread; a const lookup may read a quiet file again.
  mutable std::map<std::string, model::Document*, std::less<>> loaded_;
  /// Documents a lookup unpacked (take_restored). Lookups run on one thread.
  mutable std::vector<model::Document*> restored_;
};

/// One launch command and the document it is written in.
struct CommandSite {
  const model::Document* document = nullptr;
  parse::LaunchCommand command;
};

/// Every launch command of the documents loaded so far, in order: launch scripts, then CI workflow steps, then the
/// declared launches (whose project config is loaded if needed). `take`: a launch script's commands are moved out of
/// its document rather than copied (a run that streams its launches reads them there no more: its per-file rules ran).
std::deque<CommandSite> collect_commands(DocumentSet& docs, const std::vector<DeclaredLaunch>& declared,
                                         bool take = false);

/// The documents one command binds; a named file of another kind than the role expects is not bound.
/// The files an import of module `m` (`a.b`, `.train`) by the Python file `importer` can be: a relative import starts
/// from the importing file's package, any other is looked for under each of `bases` (the module's file, or its
/// package's `__init__.py`; `whole`: only the module `a.b` itself, not a package above it). Nothing is read.
std::vector<std::string> import_candidates(std::string_view m, const std::string& importer,
                                           const std::vector<std::string>& bases, bool whole);

model::BoundInputs bind_command(DocumentSet& docs, const CommandSite& site);
/// The same, with the command's referenced_files computed beforehand (they depend only on the command's document,
/// so a caller computes them for every command in parallel).
model::BoundInputs bind_command(DocumentSet& docs, const CommandSite& site, const FileRefs& refs);

}  // namespace lint::bind
