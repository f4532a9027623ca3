#include "lint/parse/shell_reader.hpp"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>

#include "lint/parse/integer.hpp"
#include "lint/parse/shell_workdir.hpp"
#include "lint/parse/tree_sitter_support.hpp"

namespace lint::parse {

namespace {

/// Scripts larger than this, or with brackets nested deeper, are not analysed: no launch script is either.
constexpr std::size_t kMaxShellBytes = 4U * 1024U * 1024U;
constexpr std::size_t kMaxShellDepth = 200;
/// Variable expansion may produce at most this many bytes per script, plus kExpansionPerByte per byte of the
/// script (words, variables and the environment copied into each launch together): `A=$A$A` forty times would
/// otherwise produce a terabyte from 300 bytes. Past it, extraction stops with an error.
constexpr std::size_t kExpansionBase = 8U * 1024U * 1024U;
constexpr std::size_t kExpansionPerByte = 8;

/// The named children of `n`, through a cursor: ts_node_named_child(n, i) walks from the first child each time,
/// which is quadratic on a command of 64k words.
std::vector<TSNode> named_children(TSNode n) {
  std::vector<TSNode> out;
  TSTreeCursor cursor = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      const TSNode c = ts_tree_cursor_current_node(&cursor);
      if (ts_node_is_named(c)) out.push_back(c);
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};
struct TreeDeleter {
  void operator()(TSTree* t) const { ts_tree_delete(t); }
};

std::string_view type_of(TSNode n) {
  return ts_node_type(n);
}

bool too_deep(std::string_view t) {
  std::size_t depth = 0;
  for (char c : t) {
    if (c == '(' || c == '{' || c == '[') {
      if (++depth > kMaxShellDepth) return true;
    } else if ((c == ')' || c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return false;
}

/// Makefile recipes as shell: recipe lines (starting with a tab) keep their bytes, everything else is blanked, so
/// offsets stay those of the Makefile. `@`/`-` recipe prefixes become spaces; `$(VAR)` make references stay and
/// expand to unknown.
std::string recipes_as_shell(std::string_view text) {
  std::string out(text);
  std::size_t i = 0;
  while (i < out.size()) {
    const std::size_t eol = out.find('\n', i);
    const std::size_t end = eol == std::string::npos ? out.size() : eol;
    const bool recipe = end > i && out[i] == '\t';
    if (!recipe) {
      for (std::size_t k = i; k < end; ++k) {
        if (out[k] != '\r') out[k] = ' ';
      }
    } else {
      std::size_t k = i + 1;
      while (k < end && (out[k] == '@' || out[k] == '-' || out[k] == '+')) out[k++] = ' ';
    }
    i = end + 1;
  }
  return out;
}

class Extractor {
 public:
  Extractor(const source::SourceFile& file, std::string_view text)
      : file_(file), text_(text), expansion_left_(kExpansionBase + kExpansionPerByte * text.size()) {}

  std::vector<LaunchCommand> run(TSNode root) {
    statements(root, /*top_level=*/true);
    return std::move(out_);
  }
  [[nodiscard]] const std::map<std::size_t, WorkDir>& workdirs() const { return workdirs_; }

  /// True when the expansion budget ran out (the commands found are then incomplete).
  [[nodiscard]] bool exhausted() const { return exhausted_; }

 private:
  std::string_view text(TSNode n) const {
    const auto b = ts_node_start_byte(n);
    const auto e = ts_node_end_byte(n);
    return text_.substr(b, e - b);
  }
  source::Region region(TSNode n) const { return file_.region(ts_node_start_byte(n), ts_node_end_byte(n)); }

  /// Charges `bytes` of expanded text; false (and extraction stops) once the budget is spent.
  bool charge(std::size_t bytes) {
    if (bytes > expansion_left_) {
      exhausted_ = true;
      expansion_left_ = 0;
      return false;
    }
    expansion_left_ -= bytes;
    return true;
  }

  /// Walks statements in document order; assignments at the top level set variables, deeper ones make them
  /// unknown. Iterative: a chain of 20k `&& a` nests lists 20k deep.
  void statements(TSNode root, bool top_level) {
    struct Item {
      TSNode node;
      bool top_level;
    };
    std::vector<Item> stack;
    const std::vector<TSNode> kids = named_children(root);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back({*it, top_level});
    while (!stack.empty() && !exhausted_) {
      const Item item = stack.back();
      stack.pop_back();
      const TSNode s = item.node;
      const std::string_view t = type_of(s);
      if (t == "variable_assignment") {
        assign(s, item.top_level, false);
      } else if (t == "declaration_command") {
        const std::string_view kw = text(s).substr(0, text(s).find_first_of(" \t"));
        for (const TSNode c : named_children(s)) {
          if (type_of(c) == "variable_assignment")
            assign(c, item.top_level, kw == "export");
          else if (type_of(c) == "variable_name" && kw == "export")
            exported_.insert(std::string(text(c)));
        }
      } else if (t == "command") {
        command(s);
      } else if (t == "file_redirect") {
        note_written(s);  // `cat > gen.py << EOF` is a redirected statement: its redirect is not in the command
      } else if (t != "comment") {
        // Compound statements: if/for/while/case bodies, functions, lists, pipelines, subshells, redirections.
        const bool nested = t != "redirected_statement" && t != "list" && t != "pipeline";
        const std::vector<TSNode> inner = named_children(s);
        for (auto it = inner.rbegin(); it != inner.rend(); ++it) stack.push_back({*it, item.top_level && !nested});
      }
    }
  }

  void assign(TSNode a, bool top_level, bool exported) {
    TSNode name = ts_node_child_by_field_name(a, "name", 4);
    TSNode value = ts_node_child_by_field_name(a, "value", 5);
    if (ts_node_is_null(name)) return;
    const std::string key(text(name));
    if (exported) exported_.insert(key);
    if (!top_level) {
      vars_[key] = Word{"", false, region(a)};
      return;
    }
    Word w = ts_node_is_null(value) ? Word{"", true, region(a)} : expand(value);
    vars_[key] = w;
  }

  /// Expands one word node with the known variables.
  Word expand(TSNode n) {
    Word w;
    w.region = region(n);
    expand_into(n, w);
    return w;
  }

  void expand_into(TSNode n, Word& w) {
    const std::string_view t = type_of(n);
    if (t == "word" || t == "number" || t == "command_name" || t == "string_content") {
      if (t == "command_name") {
        const std::vector<TSNode> kids = named_children(n);
        for (const TSNode k : kids) expand_into(k, w);
        if (kids.empty()) w.text += text(n);
        return;
      }
      const std::string_view s = text(n);
      for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size()) {
          if (s[i + 1] == '\n') {
            ++i;
            continue;
          }
          if (t == "word") {
            w.text += s[++i];
            continue;
          }
        }
        w.text += s[i];
      }
    } else if (t == "raw_string") {
      const std::string_view s = text(n);
      if (s.size() >= 2) w.text += s.substr(1, s.size() - 2);
    } else if (t == "string" || t == "concatenation") {
      const std::vector<TSNode> kids = named_children(n);
      // A string's text between its children (plain characters) is only exposed as string_content nodes.
      for (const TSNode k : kids) expand_into(k, w);
      if (t == "string" && kids.empty()) {
        const std::string_view s = text(n);
        if (s.size() >= 2) w.text += s.substr(1, s.size() - 2);
      }
    } else if (t == "simple_expansion") {
      std::string_view s = text(n);
      s.remove_prefix(1);
      variable(std::string(s), std::nullopt, w);
    } else if (t == "expansion") {
      // ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:=default}; anything else is unknown.
      std::string_view s = text(n);
      if (s.size() < 3) {
        w.known = false;
        return;
      }
      s = s.substr(2, s.size() - 3);
      std::size_t i = 0;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) != 0 || s[i] == '_')) ++i;
      const std::string name(s.substr(0, i));
      std::string_view rest = s.substr(i);
      if (name.empty()) {
        w.known = false;
      } else if (rest.empty()) {
        variable(name, std::nullopt, w);
      } else if (rest.starts_with(":-") || rest.starts_with(":=") || rest.starts_with("-") || rest.starts_with("=")) {
        std::string_view def = rest.substr(rest[0] == ':' ? 2 : 1);
        if (def.size() >= 2 && (def.front() == '"' || def.front() == '\'') && def.back() == def.front())
          def = def.substr(1, def.size() - 2);
        if (def.find('$') != std::string_view::npos) {
          variable(name, std::nullopt, w);
        } else {
          variable(name, std::string(def), w);
        }
      } else {
        w.known = false;
      }
    } else {
      // command substitution, arithmetic, arrays, process substitution...
      w.known = false;
    }
  }

  void variable(const std::string& name, std::optional<std::string> fallback, Word& w) {
    auto it = vars_.find(name);
    if (it != vars_.end() && it->second.known) {
      if (!charge(it->second.text.size())) {
        w.known = false;
        return;
      }
      w.text += it->second.text;
      return;
    }
    if (it == vars_.end() && fallback) {
      // Not assigned by the script: the script's own default is what a plain run uses.
      w.text += *fallback;
      return;
    }
    w.known = false;
  }

  void command(TSNode c) {
    std::map<std::string, Word> prefix_env;
    std::vector<Word> words;
    for (const TSNode ch : named_children(c)) {
      const std::string_view t = type_of(ch);
      if (t == "variable_assignment") {
        TSNode name = ts_node_child_by_field_name(ch, "name", 4);
        TSNode value = ts_node_child_by_field_name(ch, "value", 5);
        if (ts_node_is_null(name)) continue;
        prefix_env[std::string(text(name))] = ts_node_is_null(value) ? Word{"", true, region(ch)} : expand(value);
      } else if (t == "file_redirect") {
        note_written(ch);
      } else if (t == "heredoc_redirect" || t == "herestring_redirect") {
        continue;
      } else if (t == "simple_expansion" || t == "expansion") {
        // An unquoted expansion is split at blanks (`ENTRY="-m pkg.train"; torchrun $ENTRY args`): one word each.
        Word w = expand(ch);
        if (!w.known || w.text.find_first_of(" \t\n") == std::string::npos) {
          words.push_back(std::move(w));
          continue;
        }
        std::size_t at = 0;
        while (at < w.text.size()) {
          const std::size_t b = w.text.find_first_not_of(" \t\n", at);
          if (b == std::string::npos) break;
          const std::size_t e = std::min(w.text.find_first_of(" \t\n", b), w.text.size());
          words.push_back(Word{w.text.substr(b, e - b), true, w.region});
          at = e;
        }
      } else {
        words.push_back(expand(ch));
      }
    }
    if (words.empty()) return;
    note_downloaded(words);
    if (basename(words[0].text) == "cd") {
      change_directory(c, words);
      return;
    }
    classify(c, std::move(prefix_env), words);
  }

  /// `> FILE` / `>> FILE`: the script writes FILE, so a later command may name it though the project has none.
  void note_written(TSNode r) {
    const std::string_view t = text(r);
    const std::size_t op = t.find_first_not_of("0123456789&");
    if (op == std::string_view::npos || t[op] != '>' || t.substr(op).starts_with(">&")) return;
    const TSNode dest = ts_node_child_by_field_name(r, "destination", 11);
    if (ts_node_is_null(dest)) return;
    Word w = expand(dest);
    if (w.known && !w.text.empty() && w.text != "/dev/null" && charge(w.text.size()))
      written_->add(std::move(w.text));
  }

  /// `curl -o FILE URL` / `wget -O FILE URL`: the script downloads FILE, so a later command may run it though the
  /// project has none. Kept relative to where the script starts when an earlier `cd` moved it.
  void note_downloaded(const std::vector<Word>& words) {
    const std::string tool = basename(words[0].text);
    if (tool != "curl" && tool != "wget") return;
    const char short_flag = tool == "curl" ? 'o' : 'O';
    const std::string long_flag = tool == "curl" ? "--output" : "--output-document";
    for (std::size_t i = 1; i < words.size(); ++i) {
      const Word& w = words[i];
      if (!w.known) continue;
      const std::string& t = w.text;
      std::optional<Word> dest;
      if (t == long_flag || (t.size() >= 2 && t[0] == '-' && t[1] != '-' && t.back() == short_flag)) {
        if (i + 1 < words.size()) dest = words[i + 1];
      } else if (t.starts_with(long_flag + "=")) {
        dest = Word{t.substr(long_flag.size() + 1), true, w.region};
      } else if (t.size() > 2 && t[0] == '-' && t[1] == short_flag) {
        dest = Word{t.substr(2), true, w.region};
      }
      if (!dest || !dest->known || dest->text.empty() || dest->text == "-" || !charge(dest->text.size())) continue;
      std::string path = dest->text;
      if (path.front() != '/' && workdir_ && !workdir_->from_script_dir && !workdir_->path.empty() &&
          workdir_->path != ".")
        path = workdir_->path + "/" + path;
      while (path.starts_with("./")) path.erase(0, 2);
      written_->add(std::move(path));
    }
  }

  /// `cd DIR`: later commands run in DIR. `cd "$(dirname "$0")"` (or BASH_SOURCE) is the script's own folder;
  /// any other folder that is not statically known makes the working directory unknown again.
  void change_directory(TSNode c, const std::vector<Word>& words) {
    if (words.size() < 2) {  // `cd`: the home folder
      workdir_ = unknown_workdir();
      return;
    }
    if (words[1].text == "-") {
      workdir_.reset();
      return;
    }
    const Word& dir = words[1];
    if (dir.known) {
      if (!dir.text.empty() && dir.text.front() == '/') {
        workdir_ = WorkDir{dir.text, false, {}};
      } else if (workdir_ && workdir_->unknown) {
        // A known folder under an unknown one is still unknown.
      } else if (workdir_) {
        workdir_->path = workdir_->path.empty() || workdir_->path == "." ? dir.text : workdir_->path + "/" + dir.text;
      } else {
        workdir_ = WorkDir{dir.text, false, {}};
      }
      // A folder path longer than the system's limit names no folder (and `cd a` repeated N times would copy an
      // O(N) path into each of N commands: quadratic).
      if (workdir_ && workdir_->path.size() > kMaxPath) workdir_ = unknown_workdir();
      return;
    }
    const std::string_view raw = text(c);
    if (raw.find("dirname") != std::string_view::npos &&
        (raw.find("$0") != std::string_view::npos || raw.find("BASH_SOURCE") != std::string_view::npos)) {
      // `cd "$(dirname "$0")"`, optionally followed by a literal `/..` or `/sub`.
      std::string rest;
      const auto close = raw.rfind(')');
      if (close != std::string_view::npos) {
        for (char ch : raw.substr(close + 1)) {
          if (ch != '"' && ch != '\'' && ch != ' ' && ch != '\t') rest += ch;
        }
      }
      if (rest.find('$') == std::string::npos && rest.find('`') == std::string::npos) {
        while (!rest.empty() && rest.front() == '/') rest.erase(0, 1);
        workdir_ = WorkDir{rest.empty() ? "." : rest, true, {}};
        return;
      }
    }
    workdir_ = unknown_workdir();
  }

  static constexpr std::size_t kMaxPath = 4096;  // PATH_MAX on Linux

  static WorkDir unknown_workdir() {
    WorkDir w;
    w.unknown = true;
    return w;
  }

  static std::string basename(const std::string& s) {
    const auto slash = s.rfind('/');
    return slash == std::string::npos ? s : s.substr(slash + 1);
  }

  static bool is_python(const std::string& name) {
    const std::string b = basename(name);
    return b == "python" || b == "python3" || (b.starts_with("python3.") && b.size() <= 10);
  }

  void classify(TSNode c, std::map<std::string, Word> prefix_env, const std::vector<Word>& words) {
    // Skip wrappers (srun [opts], exec, time, nohup, env [K=V], CUDA_VISIBLE_DEVICES=.. via prefix) to the launcher.
    std::size_t i = 0;
    std::string spawner;
    bool implicit_python = false;  // `uv run x.py` / `uv run -m module`: Python without the word `python`
    while (i < words.size()) {
      const std::string w = basename(words[i].text);
      if (w == "exec" || w == "time" || w == "nohup" || w == "command") {
        ++i;
      } else if (w == "uv" && i + 1 < words.size() && words[i + 1].text == "run") {
        i = skip_uv_run_options(words, i + 2);
        if (i < words.size() && (words[i].text == "-m" || words[i].text.ends_with(".py"))) {
          implicit_python = true;
          break;
        }
      } else if (w == "env") {
        ++i;
        while (i < words.size() && words[i].text.find('=') != std::string::npos && words[i].text[0] != '-') {
          const auto eq = words[i].text.find('=');
          prefix_env[words[i].text.substr(0, eq)] = Word{words[i].text.substr(eq + 1), words[i].known, words[i].region};
          ++i;
        }
      } else if (w == "srun" || w == "mpirun" || w == "numactl") {
        // Their options are not modelled: jump to the first launcher word after them.
        if (w != "numactl") spawner = w;
        ++i;
        while (i < words.size() && !is_launcher_word(words, i)) ++i;
      } else {
        break;
      }
    }
    if (i >= words.size()) return;
    LaunchCommand lc;
    lc.region = region(c);
    lc.spawner = std::move(spawner);
    lc.files_written_before = WrittenBefore{written_, written_->size()};
    for (const std::string& name : exported_) {
      auto it = vars_.find(name);
      if (it == vars_.end()) continue;
      if (!charge(name.size() + it->second.text.size() + sizeof(Word))) return;
      lc.env[name] = it->second;
    }
    for (auto& [k, v] : prefix_env) lc.env[k] = v;
    const std::string head = words[i].text;
    const std::string base = basename(head);
    std::size_t rest = i + 1;
    if (base == "accelerate" && rest < words.size() && words[rest].text == "launch") {
      lc.tool = LaunchTool::AccelerateLaunch;
      split_launcher(words, rest + 1, lc, accelerate_store_true(), false);
    } else if (base == "torchrun") {
      lc.tool = LaunchTool::Torchrun;
      split_launcher(words, rest, lc, torchrun_store_true());
    } else if (base == "deepspeed") {
      lc.tool = LaunchTool::DeepSpeed;
      split_launcher(words, rest, lc, deepspeed_store_true());
    } else if (implicit_python || is_python(head)) {
      if (implicit_python) rest = i;  // the script or `-m` itself
      if (rest + 1 < words.size() && words[rest].text == "-m" &&
          (words[rest + 1].text == "torch.distributed.run" || words[rest + 1].text == "torch.distributed.launch")) {
        lc.tool = LaunchTool::Torchrun;
        split_launcher(words, rest + 2, lc, torchrun_store_true());
      } else if (rest + 1 < words.size() && words[rest].text == "-m" &&
                 words[rest + 1].text == "accelerate.commands.launch") {
        lc.tool = LaunchTool::AccelerateLaunch;
        split_launcher(words, rest + 2, lc, accelerate_store_true(), false);
      } else {
        lc.tool = LaunchTool::Python;
        // python [-u] [-O] script.py args | python -m module args
        while (rest < words.size() && words[rest].text.starts_with("-") && words[rest].text != "-m") ++rest;
        if (rest < words.size() && words[rest].text == "-m") {
          lc.module = true;
          ++rest;
        }
        if (rest >= words.size()) return;
        if (!lc.module && !words[rest].text.ends_with(".py")) return;
        lc.script = words[rest];
        lc.script_args.assign(words.begin() + static_cast<std::ptrdiff_t>(rest + 1), words.end());
      }
    } else if (base == "run_train.sh") {
      lc.tool = LaunchTool::TorchtitanRunTrain;
      lc.script_args.assign(words.begin() + static_cast<std::ptrdiff_t>(rest), words.end());
    } else if (base == "axolotl" && rest < words.size() && words[rest].text == "train") {
      lc.tool = LaunchTool::Axolotl;
      ++rest;
      while (rest < words.size() && words[rest].text.starts_with("-")) ++rest;
      if (rest < words.size()) lc.script = words[rest];
      if (rest + 1 < words.size())
        lc.script_args.assign(words.begin() + static_cast<std::ptrdiff_t>(rest + 1), words.end());
    } else if (base == "llamafactory-cli" && rest < words.size() &&
               (words[rest].text == "train" || words[rest].text == "chat" || words[rest].text == "webchat" ||
                words[rest].text == "api" || words[rest].text == "export" || words[rest].text == "eval")) {
      // The non-training subcommands read the same kind of config with fewer argument classes.
      lc.tool = LaunchTool::LlamaFactory;
      lc.subcommand = words[rest].text;
      // LLaMA-Factory reads a config only when the first argument ends in .yaml, .yml or .json, and otherwise
      // parses the arguments themselves (`llamafactory-cli train --model_name_or_path ...`: no config file;
      // src/llamafactory/hparams/parser.py `read_args`). A word not known statically may still be a config.
      if (rest + 1 < words.size()) {
        const Word& w = words[rest + 1];
        if (!w.known || w.text.ends_with(".yaml") || w.text.ends_with(".yml") || w.text.ends_with(".json"))
          lc.script = w;
      }
    } else if (base == "trl" && rest < words.size() && is_trl_training_command(words[rest].text)) {
      // `trl sft|dpo|grpo|kto|reward|rloo [args]`: TRL's CLI runs its own trl/scripts/<name>.py through
      // `accelerate launch` (trl/cli/commands/training.py, accelerate_launcher.py); `--accelerate_config X` becomes
      // `--config_file X`, and the arguments the script does not take go to accelerate.
      lc.tool = LaunchTool::AccelerateLaunch;
      lc.subcommand = "trl " + words[rest].text;
      lc.module = true;
      lc.script = Word{"trl.scripts." + words[rest].text, true, words[rest].region};
      split_trl_arguments(words, rest + 1, lc);
    } else {
      return;
    }
    // The folder is copied for each launch: charged as the exported variables are (`cd` to a 4,000-byte folder,
    // then a launch on each of 300,000 lines, would hold a gigabyte of folder names).
    if (workdir_) {
      if (!charge(workdir_->path.size() + workdir_->checkout_path.size() + sizeof(WorkDir))) return;
      workdirs_[lc.region.begin_byte] = *workdir_;
    }
    out_.push_back(std::move(lc));
  }

  static bool is_trl_training_command(const std::string& w) {
    return w == "sft" || w == "dpo" || w == "grpo" || w == "kto" || w == "reward" || w == "rloo";
  }

  /// The arguments of a `trl <command>` line: `--accelerate_config <file>` and the `accelerate launch` options that
  /// TRL's scripts do not define become launcher flags; the rest are the script's. A config named by TRL's built-in
  /// name (`fsdp2`, `zero3`) is a file of the installed package, not bound.
  static void split_trl_arguments(const std::vector<Word>& words, std::size_t from, LaunchCommand& lc) {
    static const std::set<std::string> kLauncher = {
        "num_processes",     "num_machines",  "machine_rank", "main_process_ip", "multi_gpu",
        "main_process_port", "use_deepspeed", "use_fsdp",     "gpu_ids",         "mixed_precision"};
    for (std::size_t k = from; k < words.size(); ++k) {
      const Word& w = words[k];
      const auto eq = w.text.find('=');
      std::string name;
      if (w.text.starts_with("--")) name = w.text.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      std::replace(name.begin(), name.end(), '-', '_');
      const bool inline_value = eq != std::string::npos;
      std::optional<Word> value;
      if (inline_value)
        value = Word{w.text.substr(eq + 1), w.known, w.region};
      else if (k + 1 < words.size() && !words[k + 1].text.starts_with("--"))
        value = words[k + 1];
      const bool store_true = name == "multi_gpu" || name == "use_deepspeed" || name == "use_fsdp";
      if (name == "accelerate_config" && value) {
        const std::string& v = value->text;
        if (v.ends_with(".yaml") || v.ends_with(".yml") || v.ends_with(".json")) {
          Flag f{"config_file", value, w.region};
          f.region.end = value->region.end;
          f.region.end_byte = value->region.end_byte;
          lc.launcher_args.push_back(w);
          if (!inline_value) lc.launcher_args.push_back(*value);
          lc.flags.push_back(std::move(f));
        }
        if (!inline_value) ++k;
      } else if (kLauncher.count(name) != 0) {
        Flag f{name, store_true ? std::nullopt : value, w.region};
        lc.launcher_args.push_back(w);
        if (!store_true && value && !inline_value) {
          f.region.end = value->region.end;
          f.region.end_byte = value->region.end_byte;
          lc.launcher_args.push_back(*value);
          ++k;
        }
        lc.flags.push_back(std::move(f));
      } else {
        lc.script_args.push_back(w);
      }
    }
  }

  /// The first word after `uv run`'s own options (uv's `run` command: the options that take a value, as
  /// `--with torch` or `-p 3.11`; the others are flags). Stops at `-m` (uv runs the module with Python) and `--`.
  static std::size_t skip_uv_run_options(const std::vector<Word>& words, std::size_t i) {
    static const std::set<std::string> with_value = {"--extra",
                                                     "--group",
                                                     "--no-group",
                                                     "--only-group",
                                                     "--with",
                                                     "-w",
                                                     "--with-editable",
                                                     "--with-requirements",
                                                     "--env-file",
                                                     "--package",
                                                     "--python",
                                                     "-p",
                                                     "--directory",
                                                     "--project",
                                                     "--config-file",
                                                     "--cache-dir",
                                                     "--index",
                                                     "--default-index",
                                                     "--index-url",
                                                     "-i",
                                                     "--extra-index-url",
                                                     "--find-links",
                                                     "-f",
                                                     "--index-strategy",
                                                     "--keyring-provider",
                                                     "--resolution",
                                                     "--prerelease",
                                                     "--exclude-newer",
                                                     "--link-mode",
                                                     "--refresh-package",
                                                     "--reinstall-package",
                                                     "--upgrade-package",
                                                     "-P",
                                                     "--no-binary-package",
                                                     "--no-build-package",
                                                     "--config-setting",
                                                     "-C",
                                                     "--python-platform",
                                                     "--color",
                                                     "--allow-insecure-host",
                                                     "--fork-strategy",
                                                     "--no-build-isolation-package",
                                                     "--exclude-newer-package",
                                                     "--no-extra"};
    while (i < words.size() && words[i].text.starts_with("-")) {
      const std::string& t = words[i].text;
      if (t == "-m") return i;
      if (t == "--") return i + 1;
      i += with_value.count(t) != 0 ? 2 : 1;
    }
    return i;
  }

  static bool is_launcher_word(const std::vector<Word>& words, std::size_t i) {
    const std::string b = basename(words[i].text);
    return b == "accelerate" || b == "torchrun" || b == "deepspeed" || is_python(words[i].text) ||
           b == "run_train.sh" || b == "axolotl" || b == "llamafactory-cli" || b == "trl";
  }

  static const std::set<std::string>& accelerate_store_true() {
    // acc:src/accelerate/commands/launch.py: flags without a value.
    static const std::set<std::string> s = {"--cpu",
                                            "--multi_gpu",
                                            "--multi-gpu",
                                            "--tpu",
                                            "--ipex",
                                            "--use_deepspeed",
                                            "--use-deepspeed",
                                            "--use_fsdp",
                                            "--use-fsdp",
                                            "--use_megatron_lm",
                                            "--use-megatron-lm",
                                            "--use_xpu",
                                            "--use-xpu",
                                            "-m",
                                            "--module",
                                            "--no_python",
                                            "--no-python",
                                            "--same_network",
                                            "--same-network",
                                            "--enable_cpu_affinity",
                                            "--enable-cpu-affinity",
                                            "--downcast_bf16",
                                            "--downcast-bf16",
                                            "--debug",
                                            "-q",
                                            "--quiet",
                                            "--tpu_use_cluster",
                                            "--tpu-use-cluster",
                                            "--tpu_use_sudo",
                                            "--tpu-use-sudo",
                                            "--monitor_interval_unused",
                                            "--use_parallelism_config",
                                            "--use-parallelism-config",
                                            "--standalone"};
    return s;
  }
  static const std::set<std::string>& torchrun_store_true() {
    // torch/distributed/run.py: the flags with action=check_env (torch 2.11), and launch.py's --use-env.
    static const std::set<std::string> s = {
        "--standalone", "-m",        "--module",  "--no-python",          "--no_python",         "--run-path",
        "--run_path",   "--use-env", "--use_env", "--virtual-local-rank", "--virtual_local_rank"};
    return s;
  }
  static const std::set<std::string>& deepspeed_store_true() {
    static const std::set<std::string> s = {"--no_python",
                                            "--no_local_rank",
                                            "--no_ssh_check",
                                            "--force_multi",
                                            "--save_pid",
                                            "--enable_each_rank_log",
                                            "--autotuning",
                                            "--elastic_training",
                                            "--bind_cores_to_rank",
                                            "--module",
                                            "-m",
                                            "--no_ssh"};
    return s;
  }

  /// Launcher flags up to the first positional word (the script); `--flag=value` and `--flag value` forms.
  static void split_launcher(const std::vector<Word>& words, std::size_t i, LaunchCommand& lc,
                             const std::set<std::string>& store_true, bool opaque_ok = true) {
    while (i < words.size()) {
      const std::string& t = words[i].text;
      if (t == "--") {
        ++i;
        break;
      }
      if (!t.starts_with("-") || t == "-") {
        // `torchrun $DISTRIBUTED_ARGS train.py`: a word of unknown value right before the script holds launcher
        // flags (an unquoted expansion is split into words), which are then not known. Not for accelerate, whose
        // launch reads every flag.
        if (opaque_ok && !words[i].known && i + 1 < words.size() && words[i + 1].known &&
            words[i + 1].text.ends_with(".py")) {
          lc.launcher_args.push_back(words[i]);
          lc.opaque_launcher_args = true;
          ++i;
          continue;
        }
        break;
      }
      lc.launcher_args.push_back(words[i]);
      const auto eq = t.find('=');
      const bool has_inline = eq != std::string::npos;
      if (t == "-m" || t == "--module") lc.module = true;
      Flag f;
      std::string name = t.substr(0, has_inline ? eq : t.size());
      while (!name.empty() && name.front() == '-') name.erase(0, 1);
      for (char& ch : name) {
        if (ch == '-') ch = '_';
      }
      f.name = name;
      f.region = words[i].region;
      if (has_inline) {
        f.value = Word{t.substr(eq + 1), words[i].known, words[i].region};
      } else if (store_true.count(t) == 0 && i + 1 < words.size()) {
        lc.launcher_args.push_back(words[i + 1]);
        f.value = words[i + 1];
        f.region.end = words[i + 1].region.end;
        f.region.end_byte = words[i + 1].region.end_byte;
        ++i;
      }
      lc.flags.push_back(std::move(f));
      ++i;
    }
    if (i < words.size()) {
      lc.script = words[i];
      lc.script_args.assign(words.begin() + static_cast<std::ptrdiff_t>(i + 1), words.end());
    }
  }

  const source::SourceFile& file_;
  std::string_view text_;
  std::map<std::string, Word> vars_;
  std::set<std::string> exported_;
  std::shared_ptr<WrittenFiles> written_ = std::make_shared<WrittenFiles>();
  std::vector<LaunchCommand> out_;
  std::size_t expansion_left_;
  bool exhausted_ = false;
  std::optional<WorkDir> workdir_;
  std::map<std::size_t, WorkDir> workdirs_;
};

}  // namespace

void WrittenFiles::add(std::string path) {
  if (first_.find(path) != first_.end()) return;
  const std::size_t place = order_.size();
  std::string normal = std::filesystem::path(path).lexically_normal().generic_string();
  const auto [it, inserted] = first_.emplace(std::move(path), place);
  order_.push_back(&it->first);
  if (normal.empty() || normal.front() == '/' || normal.starts_with("..")) return;
  longest_normal_ = std::max(longest_normal_, normal.size());
  normal_.emplace(std::move(normal), place);  // an earlier path of the same normal form keeps its place
}

bool WrittenFiles::contains(std::string_view path, std::size_t count) const {
  const auto it = first_.find(path);
  return it != first_.end() && it->second < count;
}

bool WrittenFiles::names(std::string_view candidate, std::size_t count) const {
  if (count == 0 || normal_.empty()) return false;
  // The suffixes of the candidate that start a path component, shortest first, up to the longest path written.
  std::size_t from = candidate.size();
  while (true) {
    const std::size_t slash = from == 0 ? std::string_view::npos : candidate.rfind('/', from - 1);
    const std::size_t start = slash == std::string_view::npos ? 0 : slash + 1;
    if (candidate.size() - start > longest_normal_) return false;
    if (start < candidate.size()) {
      const auto it = normal_.find(candidate.substr(start));
      if (it != normal_.end() && it->second < count) return true;
    }
    if (slash == std::string_view::npos) return false;
    from = slash;
  }
}

std::vector<std::string> WrittenFiles::sorted(std::size_t count) const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count && i < order_.size(); ++i) out.push_back(*order_[i]);
  std::sort(out.begin(), out.end());
  return out;
}

std::string_view to_string(LaunchTool t) {
  switch (t) {
    case LaunchTool::AccelerateLaunch:
      return "accelerate launch";
    case LaunchTool::Torchrun:
      return "torchrun";
    case LaunchTool::DeepSpeed:
      return "deepspeed";
    case LaunchTool::Python:
      return "python";
    case LaunchTool::TorchtitanRunTrain:
      return "torchtitan run_train.sh";
    case LaunchTool::Axolotl:
      return "axolotl train";
    case LaunchTool::LlamaFactory:
      return "llamafactory-cli train";
  }
  return "python";
}

namespace {

std::vector<LaunchCommand> extract(const source::SourceFile& file, bool makefile, std::vector<ParseError>* errors,
                                   std::map<std::size_t, WorkDir>* workdirs) {
  const std::string shell = makefile ? recipes_as_shell(file.text()) : file.text();
  if (shell.size() > kMaxShellBytes || too_deep(shell)) {
    if (errors != nullptr)
      errors->push_back({file.region(0, 0), "script too large or too deeply nested to analyse for launch commands"});
    return {};
  }
  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  if (!parser || !ts_parser_set_language(parser.get(), tree_sitter_bash())) {
    // Only an ABI mismatch between the grammar and the runtime gets here: a build problem, not an input one.
    if (errors != nullptr) errors->push_back({file.region(0, 0), "internal error: the bash grammar does not load"});
    return {};
  }
  const std::uint64_t budget = parse_budget_ns(shell.size());
  ParseStop stop = ParseStop::None;
  std::unique_ptr<TSTree, TreeDeleter> tree(parse_with_budget(parser.get(), shell, budget, &stop));
  if (!tree) {
    if (errors != nullptr) {
      errors->push_back({file.region(0, 0),
                         std::string(stop == ParseStop::Memory ? "script too large to analyse for launch commands: "
                                                               : "script too broken to analyse for launch commands: ") +
                             parse_stop_message(stop, budget, shell.size())});
    }
    return {};
  }
  Extractor ex(file, shell);
  std::vector<LaunchCommand> commands = ex.run(ts_tree_root_node(tree.get()));
  if (ex.exhausted()) {
    if (errors != nullptr) {
      errors->push_back({file.region(0, 0),
                         "variables expand to more text than the limit (8 MiB + 8 bytes per byte "
                         "of the script); launch commands after that point are not analysed"});
    }
  }
  if (workdirs != nullptr) *workdirs = ex.workdirs();
  return commands;
}

}  // namespace

std::vector<LaunchCommand> find_launch_commands(const source::SourceFile& file, bool makefile,
                                                std::vector<ParseError>* errors) {
  return extract(file, makefile, errors, nullptr);
}

std::map<std::size_t, WorkDir> command_workdirs(const source::SourceFile& file, bool makefile) {
  std::map<std::size_t, WorkDir> out;
  extract(file, makefile, nullptr, &out);
  return out;
}

const Flag* find_flag(const LaunchCommand& c, std::string_view name) {
  const Flag* found = nullptr;
  for (const Flag& f : c.flags) {
    if (f.name == name) found = &f;
  }
  return found;
}

std::vector<ScriptArg> script_arguments(const std::vector<Word>& args) {
  std::vector<ScriptArg> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& t = args[i].text;
    if (!t.starts_with("--")) continue;
    ScriptArg a;
    const auto eq = t.find('=');
    a.name = t.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    for (char& ch : a.name) {
      if (ch == '-') ch = '_';
    }
    a.region = args[i].region;
    if (eq != std::string::npos) {
      a.value = Word{t.substr(eq + 1), args[i].known, args[i].region};
    } else if (i + 1 < args.size() && !args[i + 1].text.starts_with("--") &&
               // `--deepspeed -m x`: a bare flag before a short option (a negative number is still a value).
               !(args[i + 1].text.size() > 1 && args[i + 1].text[0] == '-' &&
                 std::isalpha(static_cast<unsigned char>(args[i + 1].text[1])))) {
      a.value = args[i + 1];
      a.region.end = args[i + 1].region.end;
      a.region.end_byte = args[i + 1].region.end_byte;
      ++i;
    }
    out.push_back(std::move(a));
  }
  return out;
}

const ScriptArg* find_arg(const std::vector<ScriptArg>& args, std::string_view name) {
  const ScriptArg* found = nullptr;
  for (const ScriptArg& a : args) {
    if (a.name == name) found = &a;
  }
  return found;
}

std::optional<std::int64_t> int_of(const Word* w) {
  if (w == nullptr || !w->known) return std::nullopt;
  return parse_int(w->text);
}

}  // namespace lint::parse
