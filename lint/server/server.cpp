// The JSON-RPC loop. A reader thread frames messages from the input into a queue; the main thread handles them and
// lints once the input has been quiet for the debounce time after a change (a request that needs the analysis
// lints first, so answers always reflect every change received before it).
#include "lint/server/server.hpp"

#include <condition_variable>
#include <deque>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>

#include "lint/server/workspace.hpp"

namespace lint::server {

namespace {

constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kServerNotInitialized = -32002;
constexpr std::size_t kMaxMessageBytes = 256ULL * 1024 * 1024;
/// A header line longer than this ends the session as a malformed header would (real headers are a few dozen bytes).
constexpr std::size_t kMaxHeaderLineBytes = 8 * 1024;
/// Arrays and objects nested deeper than this are refused before parsing, as in every other reader
/// (docs/limits.md): nlohmann::json copies and compares values recursively.
constexpr std::size_t kMaxJsonDepth = 256;

/// Whether `text` nests arrays and objects deeper than `limit` (strings skipped): one linear pass.
bool nested_too_deep(const std::string& text, std::size_t limit) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

/// One header line without its end (`\n`, and a `\r` before it); none at the end of input or past the limit.
std::optional<std::string> read_header_line(std::istream& in) {
  std::string line;
  for (int c = in.get(); c != std::char_traits<char>::eof(); c = in.get()) {
    if (c == '\n') {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (line.size() == kMaxHeaderLineBytes) return std::nullopt;
    line.push_back(static_cast<char>(c));
  }
  return std::nullopt;
}

class Queue {
 public:
  void push(std::optional<std::string> m) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      items_.push_back(std::move(m));
    }
    cv_.notify_one();
  }
  /// Waits until a message arrives or `deadline` passes; false on timeout. A nullopt message is end of input.
  bool pop(std::optional<std::string>& out, std::optional<std::chrono::steady_clock::time_point> deadline) {
    std::unique_lock<std::mutex> lock(mu_);
    if (deadline) {
      if (!cv_.wait_until(lock, *deadline, [&] { return !items_.empty(); })) return false;
    } else {
      cv_.wait(lock, [&] { return !items_.empty(); });
    }
    out = std::move(items_.front());
    items_.pop_front();
    return true;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::optional<std::string>> items_;
};

json response(const json& id, json result) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json error_response(const json& id, int code, const std::string& message) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

}  // namespace

std::optional<std::string> read_message(std::istream& in) {
  std::size_t length = 0;
  bool have_length = false;
  for (;;) {
    const std::optional<std::string> header = read_header_line(in);
    if (!header) return std::nullopt;
    const std::string& line = *header;
    if (line.empty()) {
      if (!have_length) continue;  // stray blank line between messages
      break;
    }
    const auto colon = line.find(':');
    if (colon == std::string::npos) return std::nullopt;
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name == "content-length") {
      try {
        length = std::stoul(line.substr(colon + 1));
      } catch (...) {
        return std::nullopt;
      }
      if (length > kMaxMessageBytes) return std::nullopt;
      have_length = true;
    }
  }
  if (!have_length || !in) return std::nullopt;
  std::string body(length, '\0');
  in.read(body.data(), static_cast<std::streamsize>(length));
  if (static_cast<std::size_t>(in.gcount()) != length) return std::nullopt;
  return body;
}

void write_message(std::ostream& out, const std::string& body) {
  out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out.flush();
}

int serve(const rule::RuleTable& rules, std::istream& in, std::ostream& out, const ServerOptions& options) {
  // The reader thread must not flush `out` before each read (std::cin is tied to std::cout): the main thread
  // writes it, and a stream is not safe to use from two threads.
  in.tie(nullptr);
  // Shared with the reader thread, which may outlive this function while blocked on input.
  auto shared_queue = std::make_shared<Queue>();
  Queue& queue = *shared_queue;
  std::thread reader([shared_queue, &in] {
    for (;;) {
      std::optional<std::string> m = read_message(in);
      const bool end = !m;
      shared_queue->push(std::move(m));
      if (end) return;
    }
  });

  std::unique_ptr<Workspace> ws;
  bool shutdown = false;
  int exit_code = 1;
  std::optional<std::chrono::steady_clock::time_point> lint_at;
  const auto send = [&](const json& j) { write_message(out, j.dump(-1, ' ', false, json::error_handler_t::replace)); };
  const auto lint_now = [&] {
    if (!ws) return;
    std::string config_error;
    try {
      for (const json& n : ws->lint(config_error)) send(n);
    } catch (const std::exception& e) {
      // A failure of one run (a file system race, say) is logged; the next change lints again.
      send(json{{"jsonrpc", "2.0"},
                {"method", "window/logMessage"},
                {"params", {{"type", 1}, {"message", std::string("launchlint: lint failed: ") + e.what()}}}});
    }
    if (!config_error.empty())
      send(json{{"jsonrpc", "2.0"},
                {"method", "window/showMessage"},
                {"params", {{"type", 1}, {"message", "launchlint: configuration error: " + config_error}}}});
    lint_at.reset();
  };

  for (;;) {
    std::optional<std::string> raw;
    if (!queue.pop(raw, lint_at)) {
      lint_now();  // quiet for the debounce time after a change
      continue;
    }
    if (!raw) break;  // end of input
    json msg;
    if (nested_too_deep(*raw, kMaxJsonDepth)) {
      send(
          error_response(nullptr, kParseError, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels"));
      continue;
    }
    try {
      msg = json::parse(*raw);
    } catch (const json::exception&) {
      send(error_response(nullptr, kParseError, "invalid JSON"));
      continue;
    }
    if (!msg.is_object()) {
      send(error_response(nullptr, kInvalidRequest, "not a JSON-RPC message"));
      continue;
    }
    // JSON-RPC: an id is a string, a number or null; a method is a string.
    const json id = msg.contains("id") && (msg["id"].is_string() || msg["id"].is_number()) ? msg["id"] : json(nullptr);
    if (msg.contains("method") && !msg["method"].is_string()) {
      send(error_response(id, kInvalidRequest, "the method is not a string"));
      continue;
    }
    const std::string method = msg.value("method", "");
    const bool is_request = msg.contains("id") && !method.empty();
    json params = msg.contains("params") && msg["params"].is_object() ? msg["params"] : json::object();
    if (method == "exit") {
      exit_code = shutdown ? 0 : 1;
      break;
    }
    try {
      if (method == "initialize") {
        std::string root;
        if (params.contains("workspaceFolders") && params["workspaceFolders"].is_array() &&
            !params["workspaceFolders"].empty())
          root = uri_to_path(params["workspaceFolders"][0].value("uri", ""));
        else if (params.contains("rootUri") && params["rootUri"].is_string())
          root = uri_to_path(params["rootUri"].get<std::string>());
        else if (params.contains("rootPath") && params["rootPath"].is_string())
          root = params["rootPath"].get<std::string>();
        ws = std::make_unique<Workspace>(rules, root, options.config, options.isolated);
        Encoding enc = Encoding::Utf16;
        const json encodings = params.contains("capabilities")
                                   ? params["capabilities"].value("/general/positionEncodings"_json_pointer, json())
                                   : json();
        if (encodings.is_array()) {
          for (const json& e : encodings) {
            if (e == "utf-8") enc = Encoding::Utf8;
          }
        }
        ws->set_encoding(enc);
        json caps = {
            {"positionEncoding", enc == Encoding::Utf8 ? "utf-8" : "utf-16"},
            {"textDocumentSync", {{"openClose", true}, {"change", 1}, {"save", {{"includeText", false}}}}},
            {"hoverProvider", true},
            {"definitionProvider", true},
            {"codeActionProvider", {{"codeActionKinds", {"quickfix", "source.fixAll.launchlint"}}}},
        };
        send(response(
            id, {{"capabilities", caps}, {"serverInfo", {{"name", "launchlint"}, {"version", LAUNCHLINT_VERSION}}}}));
        continue;
      }
      if (!ws) {
        if (is_request) send(error_response(id, kServerNotInitialized, "initialize first"));
        continue;
      }
      const std::string uri = params.contains("textDocument") ? params["textDocument"].value("uri", "") : "";
      if (method == "initialized") {
        lint_now();
      } else if (method == "shutdown") {
        shutdown = true;
        send(response(id, nullptr));
      } else if (method == "textDocument/didOpen") {
        ws->open(uri, params["textDocument"].value("text", ""));
        lint_at = std::chrono::steady_clock::now();  // no wait on open
      } else if (method == "textDocument/didChange") {
        const json& changes = params["contentChanges"];
        if (changes.is_array() && !changes.empty()) ws->change(uri, changes.back().value("text", ""));
        lint_at = std::chrono::steady_clock::now() + options.debounce;
      } else if (method == "textDocument/didClose") {
        ws->close(uri);
        lint_at = std::chrono::steady_clock::now() + options.debounce;
      } else if (method == "textDocument/didSave" || method == "workspace/didChangeWatchedFiles" ||
                 method == "workspace/didChangeConfiguration") {
        ws->mark_dirty();
        lint_at = std::chrono::steady_clock::now() + options.debounce;
      } else if (method == "textDocument/hover" || method == "textDocument/definition" ||
                 method == "textDocument/codeAction") {
        if (ws->dirty()) lint_now();  // answer on the text as it is now
        if (method == "textDocument/hover")
          send(response(id, ws->hover(uri, params["position"])));
        else if (method == "textDocument/definition")
          send(response(id, ws->definition(uri, params["position"])));
        else
          send(response(
              id, ws->code_actions(uri, params["range"],
                                   params.contains("context") ? params["context"].value("only", json()) : json())));
      } else if (is_request) {
        send(error_response(id, kMethodNotFound, "unsupported method " + method));
      }
    } catch (const std::exception& e) {
      if (is_request) send(error_response(id, kInvalidRequest, std::string("bad request: ") + e.what()));
    } catch (...) {
      if (is_request) send(error_response(id, kInvalidRequest, "bad request"));
    }
  }
  // The reader may be blocked on input that never ends; the process is about to exit.
  reader.detach();
  return exit_code;
}

int run_command(const rule::RuleTable& rules, const std::vector<std::string>& args) {
  ServerOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--stdio") continue;  // the only transport; accepted because clients pass it
    if (args[i] == "--isolated") {
      options.isolated = true;
    } else if (args[i] == "--config" && i + 1 < args.size()) {
      options.config = args[++i];
    } else if (args[i] == "--debounce-ms" && i + 1 < args.size()) {
      try {
        options.debounce = std::chrono::milliseconds(std::stoul(args[++i]));
      } catch (...) {
        std::cerr << "launchlint server: --debounce-ms needs a number\n";
        return 2;
      }
    } else {
      std::cerr << "launchlint server: unknown option '" << args[i]
                << "' (usage: launchlint server [--stdio] [--config FILE] [--isolated] [--debounce-ms N])\n";
      return 2;
    }
  }
  std::ios::sync_with_stdio(false);
  const int rc = serve(rules, std::cin, std::cout, options);
  std::cout.flush();
  // A reader blocked on standard input would keep the process alive: leave without waiting for it.
  std::_Exit(rc);
}

}  // namespace lint::server
