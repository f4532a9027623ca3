#include "lint/server/workspace.hpp"

#include <algorithm>
#include <filesystem>

#include "lint/config/apply.hpp"
#include "lint/fix/fix.hpp"

namespace lint::server {

namespace fs = std::filesystem;

namespace {

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string value_text(const model::Value& v) {
  return v.known() ? v.display() : std::string("<unknown>");
}

bool is_code_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

}  // namespace

json to_position(const source::SourceFile& file, std::size_t byte, Encoding enc) {
  const LspPosition p = position_of(file, byte, enc);
  return json{{"line", p.line}, {"character", p.character}};
}

std::size_t to_byte(const source::SourceFile& file, const json& position, Encoding enc) {
  return byte_of(
      file, LspPosition{position.value("line", std::int64_t{0}), position.value("character", std::int64_t{0})}, enc);
}

json to_range(const source::SourceFile& file, std::size_t begin, std::size_t end, Encoding enc) {
  return json{{"start", to_position(file, begin, enc)}, {"end", to_position(file, std::max(begin, end), enc)}};
}

std::string uri_to_path(std::string_view uri) {
  if (uri.starts_with("file://")) uri.remove_prefix(7);
  std::string out;
  for (std::size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && hex(uri[i + 1]) >= 0 && hex(uri[i + 2]) >= 0) {
      out += static_cast<char>(hex(uri[i + 1]) * 16 + hex(uri[i + 2]));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

std::string path_to_uri(std::string_view absolute_path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "file://";
  for (const char ch : absolute_path) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) != 0 || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

Workspace::Workspace(const rule::RuleTable& rules, std::string root, std::string config, bool isolated)
    : rules_(rules), config_(std::move(config)), isolated_(isolated) {
  std::error_code ec;
  fs::path r = fs::absolute(root.empty() ? fs::current_path(ec) : fs::path(root), ec).lexically_normal();
  root_ = r.generic_string();
  while (root_.size() > 1 && root_.ends_with('/')) root_.pop_back();
}

std::string Workspace::relative(const std::string& uri) const {
  return fs::path(uri_to_path(uri)).lexically_normal().generic_string();
}

std::string Workspace::uri_of(const std::string& path) const {
  std::error_code ec;
  return path_to_uri(fs::absolute(path, ec).lexically_normal().generic_string());
}

void Workspace::open(const std::string& uri, std::string text) {
  buffers_[relative(uri)] = std::move(text);
  dirty_ = true;
}

void Workspace::change(const std::string& uri, std::string text) {
  open(uri, std::move(text));
}

void Workspace::close(const std::string& uri) {
  buffers_.erase(relative(uri));
  dirty_ = true;
}

driver::RunOptions Workspace::run_options(std::string& error) const {
  // The same project configuration as the CLI (lint/main.cpp): discovered from the root, or --config.
  driver::RunOptions opts;
  opts.paths = {root_};
  opts.jobs = 1;
  if (isolated_) return opts;
  std::optional<config::ProjectConfig> project =
      config_.empty() ? config::discover_config(root_, error) : config::load_config(config_, error);
  if (project) config::apply(*project, opts);
  return opts;
}

const source::SourceFile* Workspace::source(const std::string& path) const {
  if (!last_) return nullptr;
  auto it = last_->sources.find(path);
  return it == last_->sources.end() ? nullptr : it->second.get();
}

json Workspace::location(const std::string& path, const source::Region& region) const {
  const source::SourceFile* file = source(path);
  json range = json{{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}};
  if (file != nullptr && region.valid()) range = to_range(*file, region.begin_byte, region.end_byte, encoding_);
  return json{{"uri", uri_of(path)}, {"range", range}};
}

json Workspace::diagnostic_json(const rule::Diagnostic& d) const {
  json out = location(d.path, d.region);
  out.erase("uri");
  out["severity"] = d.severity == rule::Severity::Error ? 1 : d.severity == rule::Severity::Warning ? 2 : 3;
  out["code"] = d.code;
  out["source"] = "launchlint";
  out["message"] = d.message;
  if (!d.related.empty()) {
    json rel = json::array();
    for (const auto& r : d.related) rel.push_back({{"location", location(r.path, r.region)}, {"message", r.message}});
    out["relatedInformation"] = rel;
  }
  if (d.fix) out["data"] = {{"fix", d.fix->description}};
  return out;
}

std::vector<json> Workspace::lint(std::string& config_error) {
  driver::RunOptions opts = run_options(config_error);
  opts.overlay = buffers_;
  last_ = std::make_unique<driver::RunResult>(driver::run(rules_, opts));
  dirty_ = false;
  std::map<std::string, json> by_path;
  for (const auto& [path, text] : buffers_) by_path[path] = json::array();
  for (const std::string& p : published_) by_path[p] = json::array();
  for (const rule::Diagnostic& d : last_->diagnostics) {
    if (d.suppressed) continue;
    by_path[fs::path(d.path).lexically_normal().generic_string()].push_back(diagnostic_json(d));
  }
  std::vector<json> out;
  published_.clear();
  for (auto& [path, diags] : by_path) {
    if (!diags.empty()) published_.insert(path);
    json params = {{"uri", uri_of(path)}, {"diagnostics", std::move(diags)}};
    out.push_back(json{{"jsonrpc", "2.0"}, {"method", "textDocument/publishDiagnostics"}, {"params", params}});
  }
  return out;
}

std::vector<std::pair<const model::Launch*, const model::Setting*>> Workspace::settings_at(const std::string& path,
                                                                                           std::size_t at) const {
  // The setting under the cursor: the value it is on (the smallest region holding it), or, on a key or keyword
  // before its value, the nearest value to the right on that line, when it lies within that smallest region (a
  // keyword argument inside a call that also sets other keys).
  std::vector<std::pair<const model::Launch*, const model::Setting*>> inside;
  std::vector<std::pair<const model::Launch*, const model::Setting*>> right;
  const source::SourceFile* file = source(path);
  if (file == nullptr || !last_) return {};
  const std::uint32_t line = file->position_at(at).line;
  for (const model::Launch& l : last_->launches) {
    for (const model::Setting& s : l.settings()) {
      if (s.origin == model::Origin::Default || fs::path(s.path).lexically_normal().generic_string() != path) continue;
      if (at >= s.region.begin_byte && at <= s.region.end_byte)
        inside.emplace_back(&l, &s);
      else if (s.region.begin.line == line && at < s.region.begin_byte)
        right.emplace_back(&l, &s);
    }
  }
  const auto size = [](const model::Setting* s) { return s->region.end_byte - s->region.begin_byte; };
  const model::Setting* smallest = nullptr;
  for (const auto& [l, s] : inside) {
    if (smallest == nullptr || size(s) < size(smallest)) smallest = s;
  }
  const model::Setting* nearest = nullptr;
  for (const auto& [l, s] : right) {
    if (nearest == nullptr || s->region.begin_byte < nearest->region.begin_byte) nearest = s;
  }
  const bool use_right =
      nearest != nullptr && (smallest == nullptr || (nearest->region.begin_byte >= smallest->region.begin_byte &&
                                                     nearest->region.end_byte <= smallest->region.end_byte));
  const model::Setting* pick = use_right ? nearest : smallest;
  std::vector<std::pair<const model::Launch*, const model::Setting*>> out;
  if (pick == nullptr) return out;
  for (const auto& list : {inside, right}) {
    for (const auto& [l, s] : list) {
      if (s->region == pick->region) out.emplace_back(l, s);
    }
  }
  return out;
}

json Workspace::hover(const std::string& uri, const json& position) {
  const std::string path = relative(uri);
  const source::SourceFile* file = source(path);
  if (file == nullptr) return nullptr;
  const std::size_t at = to_byte(*file, position, encoding_);
  const std::string& t = file->text();
  std::string md;

  // A rule code under the cursor (a finding's code in a suppression comment, a note): its documentation.
  std::size_t b = at;
  std::size_t e = at;
  while (b > 0 && is_code_char(t[b - 1])) --b;
  while (e < t.size() && is_code_char(t[e])) ++e;
  const std::string word = t.substr(b, e - b);
  for (const rule::RuleInfo& r : rules_) {
    if (!word.empty() && r.code == word) md = std::string(r.doc);
  }

  // Settings written here: the key's line, before or on the value (a config key, a flag, a keyword argument).
  const auto rel = [&](const std::string& p) {
    std::string s = fs::path(p).lexically_normal().generic_string();
    return s.starts_with(root_ + "/") ? s.substr(root_.size() + 1) : s;
  };
  const auto site = [&](const model::Setting& s) {
    if (s.origin == model::Origin::Default) return s.note.empty() ? std::string("default") : s.note;
    return "`" + s.spelled + "` at " + rel(s.path) + ":" + std::to_string(s.region.begin.line) + ":" +
           std::to_string(s.region.begin.column) + " (" + std::string(model::to_string(s.origin)) + ")";
  };
  std::set<std::pair<const model::Launch*, std::string>> shown;
  for (const auto& [l, st] : settings_at(path, at)) shown.insert({l, st->key});
  std::string effective;
  for (const auto& [l, key] : shown) {
    const model::Effective* eff = l->get(key);
    if (eff == nullptr) continue;
    effective += "**" + key + "** = `" + value_text(eff->value) + "`";
    effective += l->per_file ? "\n\n" : " in launch `" + rel(l->name) + "`\n\n";
    if (eff->decided_by != nullptr) effective += "- decided by " + site(*eff->decided_by) + "\n";
    for (const model::Setting* o : eff->overridden)
      effective += "- overrides `" + value_text(o->value) + "` at " + site(*o) + "\n";
    if (!eff->reason.empty()) effective += "- because " + eff->reason + "\n";
    effective += "\n";
  }
  if (!effective.empty()) md = md.empty() ? effective : effective + "---\n\n" + md;

  // A finding here: its rule's summary (the full page is `launchlint rule CODE`).
  for (const rule::Diagnostic& d : last_->diagnostics) {
    if (d.suppressed || fs::path(d.path).lexically_normal().generic_string() != path || !d.region.valid()) continue;
    if (at < d.region.begin_byte || at > d.region.end_byte) continue;
    for (const rule::RuleInfo& r : rules_) {
      if (r.code == d.code && md.find("# " + d.code) == std::string::npos)
        md += (md.empty() ? "" : "\n---\n\n") + std::string("**") + d.code + "** " + std::string(r.slug) + ": " +
              r.summary() + "\n";
    }
  }
  while (!md.empty() && (md.back() == '\n' || md.back() == ' ')) md.pop_back();
  if (md.empty()) return nullptr;
  return json{{"contents", {{"kind", "markdown"}, {"value", md}}}};
}

json Workspace::definition(const std::string& uri, const json& position) {
  const std::string path = relative(uri);
  const source::SourceFile* file = source(path);
  if (file == nullptr) return nullptr;
  const std::size_t at = to_byte(*file, position, encoding_);
  json out = json::array();
  std::set<const model::Setting*> seen;
  for (const auto& [l, st] : settings_at(path, at)) {
    const model::Effective* eff = l->get(st->key);
    const model::Setting* win = eff != nullptr ? eff->decided_by : nullptr;
    if (win == nullptr || win->origin == model::Origin::Default || win->path.empty() || !seen.insert(win).second)
      continue;
    out.push_back(location(win->path, win->region));
  }
  if (out.empty()) return nullptr;
  return out;
}

json Workspace::action_for(const rule::Diagnostic& d) const {
  const rule::Fix& fix = *d.fix;
  const source::SourceFile* file = source(fix.edits.front().path);
  if (file == nullptr) return nullptr;
  json edits = json::array();
  for (const rule::Edit& e : fix.edits)
    edits.push_back({{"range", to_range(*file, e.begin, e.end, encoding_)}, {"newText", e.replacement}});
  const bool safe = fix.safety == rule::FixSafety::Safe;
  json changes = json::object();
  changes[uri_of(fix.edits.front().path)] = edits;
  return json{{"title", "launchlint: " + fix.description + (safe ? "" : " (unsafe)")},
              {"kind", "quickfix"},
              {"diagnostics", json::array({diagnostic_json(d)})},
              {"isPreferred", safe},
              {"edit", {{"changes", changes}}}};
}

json Workspace::code_actions(const std::string& uri, const json& range, const json& only) {
  const std::string path = relative(uri);
  const source::SourceFile* file = source(path);
  if (file == nullptr) return json::array();
  const std::size_t begin = to_byte(*file, range.at("start"), encoding_);
  const std::size_t end = to_byte(*file, range.at("end"), encoding_);
  const auto wants = [&](std::string_view kind) {
    if (!only.is_array()) return true;
    return std::any_of(only.begin(), only.end(), [&](const json& k) {
      const std::string s = k.get<std::string>();
      return kind == s || kind.starts_with(s + ".");
    });
  };
  json out = json::array();
  std::vector<rule::Diagnostic> in_file;
  for (const rule::Diagnostic& d : last_->diagnostics) {
    if (d.suppressed || fs::path(d.path).lexically_normal().generic_string() != path) continue;
    in_file.push_back(d);
    if (!d.fix || d.fix->edits.empty() || !wants("quickfix")) continue;
    if (d.region.end_byte < begin || d.region.begin_byte > end) continue;
    json a = action_for(d);
    if (!a.is_null()) out.push_back(std::move(a));
  }
  // Every safe fix of the file at once (what --fix would do in one pass).
  if (wants("source.fixAll.launchlint")) {
    const auto changes = fix::choose(in_file, last_->sources, false);
    if (!changes.empty()) {
      const std::string& before = changes.front().before;
      json edit = {{"range", to_range(*file, 0, before.size(), encoding_)}, {"newText", changes.front().after}};
      json all = json::object();
      all[uri_of(changes.front().path)] = json::array({edit});
      out.push_back(json{{"title", "launchlint: apply every safe fix in this file"},
                         {"kind", "source.fixAll.launchlint"},
                         {"edit", {{"changes", all}}}});
    }
  }
  return out;
}

}  // namespace lint::server
