#include "lint/driver/cache.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "lint/driver/cache_entry.hpp"
#include "lint/driver/parallel.hpp"
#include "lint/report/output_file.hpp"
#include "lint/source/access_log.hpp"
#include "lint/source/read_boundary.hpp"
#include "lint/source/read_file.hpp"
#include "lint/source/sha256.hpp"

namespace lint::driver {

namespace fs = std::filesystem;
using nlohmann::json;
using source::sha256_hex;

namespace {

constexpr int kEntryFormat = 2;  // 2: the binary payload of lint/driver/cache_entry.hpp
/// Entries kept per version folder; older ones are removed after a write.
constexpr std::size_t kMaxEntries = 64;

/// The content hash of a file as a run sees it: its bytes, or why it could not be read (absent, a directory, too
/// large), so that a file appearing, vanishing or changing all change the hash.
std::string file_state(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(path, ec);
  if (ec || st.type() == fs::file_type::not_found) return "absent";
  source::ReadResult read = source::read_regular_file(path, kMaxFileBytes);
  if (!read.text) return "unreadable:" + read.error;
  return sha256_hex(*read.text);
}

/// A dependency's state: file_state, except that a file outside the project boundary (SECURITY.md) is never read
/// (not even to hash it): only its presence is recorded. A dependency is mostly a path a launch could name that
/// is not there, so the boundary (which resolves links) is consulted only for files that exist.
std::string dependency_state(const std::string& path, const std::vector<fs::path>& roots) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(path, ec);
  if (ec || st.type() == fs::file_type::not_found) return "absent";
  if (!source::inside_roots(path, roots)) return fs::is_regular_file(path, ec) ? "outside:file" : "outside:other";
  return file_state(path);
}

/// True for a state that is a content hash (the file was read), not "absent", "unreadable:..." or "outside:...".
bool is_content_hash(std::string_view state) {
  return state.size() == 64 && state.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

/// What stat(2) says of a file: when all of it is as recorded, the content is taken to be the one hashed then,
/// as git's index does. The change time and inode cannot be set back by ordinary tools, and a fresh checkout (a
/// cache restored in CI) has other ones, so a stale or foreign record only costs a read.
struct Stamp {
  std::int64_t size = -1;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  std::uint64_t ino = 0;
  std::uint64_t dev = 0;
  friend bool operator==(const Stamp&, const Stamp&) = default;
};

std::optional<Stamp> stamp_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  Stamp s;
  s.size = st.st_size;
  s.mtime_ns = std::int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec;
  s.ctime_ns = std::int64_t{st.st_ctim.tv_sec} * 1000000000 + st.st_ctim.tv_nsec;
  s.ino = st.st_ino;
  s.dev = st.st_dev;
  return s;
}

/// path -> (stamp, content hash), from the last run that hashed the files (`<cache>/<version>/files`).
using StampIndex = std::map<std::string, std::pair<Stamp, std::string>, std::less<>>;

std::string index_text(const StampIndex& index) {
  std::string body;
  for (const auto& [path, record] : index) {
    const Stamp& s = record.first;
    body += record.second + '\t' + std::to_string(s.size) + '\t' + std::to_string(s.mtime_ns) + '\t' +
            std::to_string(s.ctime_ns) + '\t' + std::to_string(s.ino) + '\t' + std::to_string(s.dev) + '\t' + path +
            '\n';
  }
  return std::string("launchlint-cache-index 1 ") + LAUNCHLINT_VERSION + " " + sha256_hex(body) + "\n" + body;
}

/// The index in `text`; empty when it is not one this version wrote whole (any mismatch ignores it all).
StampIndex parse_index(const std::string& text) {
  StampIndex index;
  const std::size_t eol = text.find('\n');
  if (eol == std::string::npos) return index;
  const std::string_view body = std::string_view(text).substr(eol + 1);
  if (text.substr(0, eol) != std::string("launchlint-cache-index 1 ") + LAUNCHLINT_VERSION + " " + sha256_hex(body))
    return index;
  std::size_t at = 0;
  while (at < body.size()) {
    const std::size_t end = body.find('\n', at);
    if (end == std::string_view::npos) return {};
    std::string_view line = body.substr(at, end - at);
    at = end + 1;
    std::string_view fields[7];
    for (int f = 0; f < 6; ++f) {
      const std::size_t tab = line.find('\t');
      if (tab == std::string_view::npos) return {};
      fields[f] = line.substr(0, tab);
      line.remove_prefix(tab + 1);
    }
    fields[6] = line;
    Stamp s;
    const auto number = [](std::string_view text, auto& value) {
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      return ec == std::errc() && end == text.data() + text.size() && !text.empty();
    };
    if (!number(fields[1], s.size) || !number(fields[2], s.mtime_ns) || !number(fields[3], s.ctime_ns) ||
        !number(fields[4], s.ino) || !number(fields[5], s.dev))
      return {};
    index.emplace(std::string(fields[6]), std::make_pair(s, std::string(fields[0])));
  }
  return index;
}

/// file_state of each of `files`, read on `jobs` threads (0: all cores). A file whose stamp is the one `index`
/// recorded is not read; `stamps` receives each file's stamp as it was before it was hashed.
std::vector<std::string> file_states(const std::vector<std::string>& files, unsigned jobs, const StampIndex& index,
                                     std::vector<std::optional<Stamp>>* stamps) {
  std::vector<std::string> out(files.size());
  if (stamps != nullptr) stamps->assign(files.size(), std::nullopt);
  parallel_region(files.size(), jobs != 0 ? jobs : std::max(1U, std::thread::hardware_concurrency()),
                  [&](std::size_t i) {
                    const std::optional<Stamp> stamp = stamp_of(files[i]);
                    if (stamps != nullptr) (*stamps)[i] = stamp;
                    if (stamp) {
                      if (const auto it = index.find(files[i]); it != index.end() && it->second.first == *stamp) {
                        out[i] = it->second.second;
                        return;
                      }
                    }
                    out[i] = file_state(files[i]);
                  });
  return out;
}

/// The running program's size and modification time: a rebuilt program (new rules at the same version number, a
/// development build) does not answer from the entries an earlier build wrote. Empty when it cannot be read.
std::string program_stamp() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  const auto size = fs::file_size(exe, ec);
  if (ec) return "";
  const auto mtime = fs::last_write_time(exe, ec);
  if (ec) return "";
  return std::to_string(size) + ":" + std::to_string(mtime.time_since_epoch().count());
}

/// Everything that decides the findings besides file contents: the version and the program itself, the options,
/// where it runs and the project boundary (which depends on where `.git` folders are).
std::string settings_key(const RunOptions& o, const CacheOptions& cache) {
  std::error_code ec;
  static const std::string stamp = program_stamp();
  json j = {{"version", LAUNCHLINT_VERSION},
            {"program", stamp},
            {"cwd", fs::current_path(ec).generic_string()},
            {"paths", o.paths},
            {"select", o.selection.select},
            {"ignore", o.selection.ignore},
            {"extend_select", o.selection.extend_select},
            {"exclude", o.exclude},
            {"show_suppressed", o.show_suppressed},
            {"respect_gitignore", o.respect_gitignore},
            {"allow_outside", o.allow_outside},
            {"boundary", boundary_roots(o)},
            {"settings", cache.settings}};
  json severity = json::array();
  for (const auto& [code, level] : o.selection.severity) severity.push_back({code, static_cast<int>(level)});
  j["severity"] = std::move(severity);
  json pfi = json::array();
  for (const PerFileIgnore& p : o.per_file_ignores) pfi.push_back({p.glob, p.codes});
  j["per_file_ignores"] = std::move(pfi);
  json declared = json::array();
  for (const DeclaredLaunch& d : o.declared_launches)
    declared.push_back({d.name, d.command, d.files, d.base_dir, d.config_path, d.command_begin, d.command_end});
  j["declared_launches"] = std::move(declared);
  // The library versions the rules assume, from target-versions and the project's pins (requirements files...):
  // an edited pin that changes an assumption changes the key.
  json versions = json::array();
  const model::TargetVersions assumed = resolve_target_versions(o);
  for (const auto& [library, a] : assumed.all())
    versions.push_back({library, a.written, a.origin, a.display(), a.is_default});
  j["versions"] = std::move(versions);
  j["target_versions"] = json::array();
  for (const auto& t : o.target_versions) j["target_versions"].push_back({t.library, t.written, t.origin});
  j["detect_pins"] = o.detect_pins;
  j["pin_folders"] = o.pin_folders;
  return j.dump();
}

/// Removes the oldest entries of `folder` beyond kMaxEntries. Racing runs may remove the same entry: harmless.
void prune(const fs::path& folder) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> entries;
  for (fs::directory_iterator it(folder, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().filename().string().size() == 64)
      entries.emplace_back(it->last_write_time(ec), it->path());
  }
  if (entries.size() <= kMaxEntries) return;
  std::sort(entries.begin(), entries.end());
  for (std::size_t i = 0; i + kMaxEntries < entries.size(); ++i) fs::remove(entries[i].second, ec);
}

/// Makes the cache folder, tagged as one (CACHEDIR.TAG) and ignored by git, as ruff does. False when it cannot.
/// A folder that held anything before (`--cache-dir .`) is not tagged: its `.gitignore` of `*` would hide it.
bool prepare_folder(const fs::path& dir, const fs::path& folder) {
  std::error_code ec;
  const bool tag = !fs::exists(dir, ec) || fs::is_empty(dir, ec) || fs::exists(dir / "CACHEDIR.TAG", ec);
  fs::create_directories(folder, ec);
  if (ec) return false;
  if (!tag) return true;
  if (!fs::exists(dir / ".gitignore", ec))
    (void)report::write_output_file((dir / ".gitignore").string(), "# Automatically created by launchlint.\n*\n");
  if (!fs::exists(dir / "CACHEDIR.TAG", ec))
    (void)report::write_output_file((dir / "CACHEDIR.TAG").string(),
                                    "Signature: 8a477f597d28d172789f06886806bc55\n"
                                    "# This file is a cache directory tag created by launchlint.\n");
  return true;
}

/// An entry's first line: format, version, key and the SHA-256 of the payload (the JSON after the line).
std::string entry_header(const std::string& key, const std::string& checksum) {
  return "launchlint-cache " + std::to_string(kEntryFormat) + " " + LAUNCHLINT_VERSION + " " + key + " " + checksum +
         "\n";
}

/// A run answered from the entry `text`, or nullopt when it does not fit (any mismatch, any malformed field: the
/// decoder throws std::out_of_range).
std::optional<RunResult> answer_from(const std::string& text, const std::string& key,
                                     const std::map<std::string, std::string>& hashes,
                                     const std::vector<fs::path>& roots, unsigned jobs) {
  const std::size_t eol = text.find('\n');
  if (eol == std::string::npos) return std::nullopt;
  const std::string_view header(text.data(), eol + 1);
  const std::string_view payload = std::string_view(text).substr(eol + 1);
  if (header != entry_header(key, sha256_hex(payload))) return std::nullopt;
  cache_entry::Entry entry = cache_entry::decode(payload);
  // Every other file the run looked at must be as it was (mostly paths a launch could name that are not there:
  // one stat each, on `jobs` threads).
  std::atomic<bool> changed{false};
  parallel_region(entry.depends_on.size(), jobs, [&](std::size_t i) {
    if (changed.load(std::memory_order_relaxed)) return;
    const cache_entry::Dependency& dep = entry.depends_on[i];
    if (dependency_state(dep.path, roots) != dep.state) changed.store(true, std::memory_order_relaxed);
  });
  if (changed.load()) return std::nullopt;
  RunResult result;
  result.files_checked = entry.files_checked;
  result.diagnostics = std::move(entry.diagnostics);
  // The sources the reports quote: read again, and used only if the content is still the one the findings are
  // about (a file changed since is a miss, never a wrong snippet).
  std::set<std::string_view> quoted;
  for (const rule::Diagnostic& d : result.diagnostics) {
    quoted.insert(d.path);
    for (const auto& r : d.related) quoted.insert(r.path);
    if (d.fix)
      for (const auto& e : d.fix->edits) quoted.insert(e.path);
  }
  const auto hash_of = [&](const std::string& path) -> const std::string* {
    if (const auto h = hashes.find(path); h != hashes.end()) return &h->second;
    for (const cache_entry::Dependency& dep : entry.depends_on)
      if (dep.path == path) return &dep.state;
    return nullptr;
  };
  result.documents.reserve(entry.documents.size());
  for (cache_entry::DocRecord& d : entry.documents) {
    auto doc = std::make_unique<model::Document>();
    if (d.kind > static_cast<int>(model::DocKind::LaunchScript)) return std::nullopt;
    doc->kind = static_cast<model::DocKind>(d.kind);
    if (d.read_error) doc->read_error = std::move(*d.read_error);
    if (d.quotable && quoted.count(d.path) != 0) {
      // Read when a report quotes it (not at all for concise or json), and only if still the content hashed. A
      // file the run read but could not lint (not UTF-8) is quoted too, as the run quoted it.
      const std::string* h = hash_of(d.path);
      if (h == nullptr || !is_content_hash(*h)) return std::nullopt;
      doc->source = source::SourceFile::deferred(d.path, *h, kMaxFileBytes);
    } else {
      doc->source = std::make_shared<source::SourceFile>(d.path, "");
    }
    source::put_source(result.sources, doc->source);
    result.documents.push_back(std::move(doc));
  }
  for (std::string_view path : quoted) {
    if (result.sources.find(std::string(path)) == result.sources.end())
      return std::nullopt;  // a finding in a file the entry does not hold
  }
  return result;
}

}  // namespace

RunResult run_cached(const rule::RuleTable& rules, const RunOptions& options, const CacheOptions& cache,
                     CacheOutcome* outcome) {
  CacheOutcome local;
  CacheOutcome& out = outcome != nullptr ? *outcome : local;
  out = {};
  if (cache.dir.empty() || options.read_stdin || !options.overlay.empty()) return run(rules, options);

  // The key: settings, then every discovered file with the hash of its content.
  const unsigned jobs = options.jobs != 0 ? options.jobs : std::max(1U, std::thread::hardware_concurrency());
  const std::vector<std::string> files =
      discover(options.paths, options.exclude, options.respect_gitignore, nullptr, jobs);
  const fs::path dir(cache.dir);
  const fs::path folder = dir / LAUNCHLINT_VERSION;
  const fs::path index_path = folder / "files";
  StampIndex index;
  if (source::ReadResult r = source::read_regular_file(index_path.string(), kMaxFileBytes); r.text)
    index = parse_index(*r.text);
  std::vector<std::optional<Stamp>> stamps;
  const std::vector<std::string> states = file_states(files, jobs, index, &stamps);
  std::map<std::string, std::string> hashes;
  std::string material = settings_key(options, cache);
  for (std::size_t i = 0; i < files.size(); ++i) {
    material += '\n' + files[i] + '\0' + states[i];
    hashes.emplace(files[i], states[i]);
  }
  const std::string key = sha256_hex(material);
  std::vector<fs::path> roots;  // the project boundary (part of the key: settings_key)
  for (const std::string& r : boundary_roots(options)) roots.emplace_back(r);
  const fs::path entry_path = folder / key;
  out.entry = entry_path.string();

  source::ReadResult read = source::read_regular_file(entry_path.string(), kMaxFileBytes);
  if (read.text) {
    try {
      if (std::optional<RunResult> hit = answer_from(*read.text, key, hashes, roots, jobs)) {
        out.hit = true;
        return std::move(*hit);
      }
    } catch (const std::out_of_range&) {
      // A corrupt or foreign entry is a miss.
    }
  }

  source::begin_access_log();
  RunResult result = run(rules, options);
  const std::vector<std::string> accessed = source::end_access_log();

  // A file whose stamp moved while the run read it: the findings may be of either content, so nothing is written.
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (stamps[i] ? stamp_of(files[i]) != stamps[i] : file_state(files[i]) != states[i]) return result;
  }
  cache_entry::Entry meta;
  meta.files_checked = result.files_checked;
  std::map<std::string, std::string> state_of = hashes;  // every file's state: discovered, then depended on
  for (const std::string& path : accessed) {
    if (hashes.count(path) != 0) continue;
    std::string state = dependency_state(path, roots);
    meta.depends_on.push_back({path, state});
    state_of.emplace(path, std::move(state));
  }
  // Documents loaded beyond the discovered ones (a launch's files) are noted by the binder; any left are added.
  const auto state_for = [&](const std::string& path) -> const std::string& {
    auto it = state_of.find(path);
    if (it == state_of.end()) {
      std::string state = dependency_state(path, roots);
      meta.depends_on.push_back({path, state});
      it = state_of.emplace(path, std::move(state)).first;
    }
    return it->second;
  };
  meta.documents.reserve(result.documents.size() + result.quiet.size());
  for (const auto& d : result.documents) {
    const std::string& state = state_for(d->path());
    // A report quotes what the run read: a document whose text was read (its state is its content's hash).
    meta.documents.push_back({d->path(), static_cast<int>(d->kind),
                              d->read_error ? std::optional<std::string>(*d->read_error) : std::nullopt,
                              !d->outside_project && is_content_hash(state)});
  }
  // Files kept as their path alone (RunResult::quiet): read, launchlint does not know them, nothing found.
  for (std::size_t i = 0; i < result.quiet.size(); ++i) {
    const std::string path(result.quiet[i]);
    const bool quotable = is_content_hash(state_for(path));
    meta.documents.push_back({path, static_cast<int>(model::DocKind::Unknown), std::nullopt, quotable});
  }
  const std::string payload_text = cache_entry::encode(meta, result.diagnostics);
  const std::string entry = entry_header(key, sha256_hex(payload_text)) + payload_text;
  if (prepare_folder(dir, folder) && report::write_output_file(entry_path.string(), entry).empty()) {
    out.written = true;
    prune(folder);
    // The stamps of the files just hashed, for the next run. A file changed in the last two seconds is left out:
    // an edit within the clock's resolution of the hash could leave its stamp unchanged (git's "racy" files).
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    const std::int64_t recent = std::chrono::duration_cast<std::chrono::nanoseconds>(now).count() - 2000000000LL;
    StampIndex fresh;
    for (std::size_t i = 0; i < files.size(); ++i) {
      const std::optional<Stamp>& s = stamps[i];
      if (s && s->mtime_ns < recent && s->ctime_ns < recent && stamp_of(files[i]) == s &&
          !states[i].starts_with("absent") && !states[i].starts_with("unreadable"))
        fresh.emplace(files[i], std::make_pair(*s, states[i]));
    }
    (void)report::write_output_file(index_path.string(), index_text(fresh));
  }
  return result;
}

}  // namespace lint::driver
