// `launchlint server`: a language server (LSP 3.17 over stdio, JSON-RPC with Content-Length framing).
// Diagnostics on open and change (open buffers win over the disk; every launch is re-resolved, so a change to a
// script re-judges its config), debounced; hover with the effective value of a key, flag or keyword argument and
// what it overrode; go to the winning assignment; code actions that apply fixes; rule documentation on hover of a
// rule code.
#pragma once

#include <chrono>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "lint/rule/rule.hpp"

namespace lint::server {

struct ServerOptions {
  std::chrono::milliseconds debounce{150};  ///< quiet time after a change before linting
  std::string config;                       ///< --config FILE; empty: discovered from the workspace root
  bool isolated = false;                    ///< --isolated: no project configuration
};

/// Reads one framed message ("Content-Length: N\r\n...\r\n\r\n" + N bytes); nothing at end of input or on a broken
/// header.
std::optional<std::string> read_message(std::istream& in);
/// Writes one framed message.
void write_message(std::ostream& out, const std::string& body);

/// Serves until `exit` or end of input. Returns the process exit code (0 after shutdown, 1 otherwise).
int serve(const rule::RuleTable& rules, std::istream& in, std::ostream& out, const ServerOptions& options);

/// `launchlint server [--stdio] [--config FILE] [--isolated] [--debounce-ms N]`: serves standard input/output.
int run_command(const rule::RuleTable& rules, const std::vector<std::string>& args);

}  // namespace lint::server
