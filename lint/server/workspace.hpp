// The language server's state: the workspace root, the open buffers (an overlay on the files), the last run of the
// pipeline, and the answers computed from it. Positions are LSP positions (0-based line, UTF-16 or UTF-8 units).
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "lint/driver/driver.hpp"
#include "lint/server/position.hpp"

namespace lint::server {

using nlohmann::json;

/// A byte offset of `text` as an LSP position, and back (clamped to the text).
json to_position(const source::SourceFile& file, std::size_t byte, Encoding enc);
std::size_t to_byte(const source::SourceFile& file, const json& position, Encoding enc);
json to_range(const source::SourceFile& file, std::size_t begin, std::size_t end, Encoding enc);

/// file:// URIs and absolute paths (percent-encoding per RFC 3986).
std::string uri_to_path(std::string_view uri);
std::string path_to_uri(std::string_view absolute_path);

class Workspace {
 public:
  Workspace(const rule::RuleTable& rules, std::string root, std::string config, bool isolated);

  void set_encoding(Encoding e) { encoding_ = e; }
  [[nodiscard]] Encoding encoding() const { return encoding_; }

  /// Open buffers (by URI). Opening, changing or closing a buffer marks the workspace dirty.
  void open(const std::string& uri, std::string text);
  void change(const std::string& uri, std::string text);
  void close(const std::string& uri);
  void mark_dirty() { dirty_ = true; }
  [[nodiscard]] bool dirty() const { return dirty_; }

  /// Runs the pipeline over the workspace with the open buffers as an overlay. Returns the
  /// textDocument/publishDiagnostics notifications to send: every file with findings, every open buffer, and
  /// every file that had findings before (now cleared). A configuration error is returned in `config_error`.
  std::vector<json> lint(std::string& config_error);

  /// textDocument/hover, textDocument/definition and textDocument/codeAction results (null when nothing).
  json hover(const std::string& uri, const json& position);
  json definition(const std::string& uri, const json& position);
  json code_actions(const std::string& uri, const json& range, const json& only);

 private:
  [[nodiscard]] std::string relative(const std::string& uri) const;
  [[nodiscard]] std::string uri_of(const std::string& path) const;
  [[nodiscard]] const source::SourceFile* source(const std::string& path) const;
  driver::RunOptions run_options(std::string& error) const;
  json location(const std::string& path, const source::Region& region) const;
  json diagnostic_json(const rule::Diagnostic& d) const;
  json action_for(const rule::Diagnostic& d) const;
  [[nodiscard]] std::vector<std::pair<const model::Launch*, const model::Setting*>> settings_at(const std::string& path,
                                                                                                std::size_t at) const;

  const rule::RuleTable& rules_;
  std::string root_;  ///< absolute, no trailing slash
  std::string config_;
  bool isolated_ = false;
  Encoding encoding_ = Encoding::Utf16;
  std::map<std::string, std::string> buffers_;  ///< relative path -> text
  bool dirty_ = true;
  std::unique_ptr<driver::RunResult> last_;
  std::set<std::string> published_;  ///< relative paths with diagnostics sent last time
};

}  // namespace lint::server
