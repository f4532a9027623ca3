#include "lint/config/pins.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <set>

#include "lint/parse/readers.hpp"
#include "lint/source/read_file.hpp"

namespace lint::config {

namespace fs = std::filesystem;

namespace {

// Dependency files are small; a larger one is not read.
constexpr std::uintmax_t kMaxDependencyFileBytes = 4ULL * 1024 * 1024;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
}

std::string without_spaces(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c)) == 0) out += c;
  }
  return out;
}

/// A marker that only holds off Linux: `sys_platform == "darwin"`, `platform_system == "Windows"`, ... (an `or`
/// with anything else, or a `!=`, is taken to hold).
bool only_off_linux(std::string_view marker) {
  const std::string m = without_spaces(marker);
  if (m.find(" or ") != std::string::npos || marker.find(" or ") != std::string_view::npos) return false;
  for (std::string_view os : {"darwin", "win32", "Windows", "Darwin", "cygwin"}) {
    for (std::string_view q : {"\"", "'"}) {
      for (std::string_view key : {"sys_platform==", "platform_system=="}) {
        if (m.find(std::string(key) + std::string(q) + std::string(os) + std::string(q)) != std::string::npos)
          return true;
      }
    }
  }
  return false;
}

void add_pin(std::vector<Pin>& out, const Requirement& r, std::string_view written, const std::string& path, int line) {
  if (only_off_linux(r.marker)) return;
  const std::string lib = model::canonical_library(r.name);
  if (lib.empty()) return;
  if (r.direct_url) {
    out.push_back(Pin{lib, std::string(trim(written)), path, line, model::VersionRange{}, true});
    return;
  }
  auto range = model::parse_specifiers(r.specifiers);
  if (!range || range->empty()) return;
  if (!range->low && !range->high) return;  // any version: nothing pinned
  out.push_back(Pin{lib, std::string(trim(written)), path, line, *range, false});
}

/// requirements.txt: one requirement per line, `\` continues a line, `#` after a space starts a comment, lines
/// starting with `-` are options (`-r`, `-e`, `--index-url`).
void requirements_txt(const std::string& path, const std::string& text, std::vector<Pin>& out) {
  std::size_t pos = 0;
  int line_no = 0;
  std::string logical;
  int logical_line = 0;
  while (pos <= text.size()) {
    const auto nl = text.find('\n', pos);
    std::string_view line(text.data() + pos, (nl == std::string::npos ? text.size() : nl) - pos);
    pos = nl == std::string::npos ? text.size() + 1 : nl + 1;
    ++line_no;
    if (logical.empty()) logical_line = line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && line.back() == '\\') {
      logical += std::string(line.substr(0, line.size() - 1)) + " ";
      continue;
    }
    logical += std::string(line);
    if (auto r = parse_requirement(logical)) {
      std::string_view shown = logical;
      if (const auto hash = shown.find(" #"); hash != std::string_view::npos) shown = shown.substr(0, hash);
      add_pin(out, *r, shown, path, logical_line);
    }
    logical.clear();
  }
}

void requirement_nodes(const parse::Node& list, const std::string& path, std::vector<Pin>& out) {
  if (list.kind != parse::NodeKind::Sequence) return;
  for (const parse::Node& item : list.items) {
    if (item.kind != parse::NodeKind::String) continue;
    if (auto r = parse_requirement(item.text))
      add_pin(out, *r, item.text, path, static_cast<int>(item.region.begin.line));
  }
}

void pyproject_toml(const std::string& path, const std::string& text, std::vector<Pin>& out) {
  const source::SourceFile file(path, text);
  const parse::ConfigDocument doc = parse::read_toml(file);
  if (!doc.errors.empty() || !doc.has_root || !doc.root.is_map()) return;
  if (const parse::Node* project = doc.root.find("project"); project != nullptr && project->is_map()) {
    if (const parse::Node* deps = project->find("dependencies")) requirement_nodes(*deps, path, out);
    if (const parse::Node* opt = project->find("optional-dependencies"); opt != nullptr && opt->is_map()) {
      for (const parse::Entry& e : opt->entries) requirement_nodes(e.value, path, out);
    }
  }
  if (const parse::Node* groups = doc.root.find("dependency-groups"); groups != nullptr && groups->is_map()) {
    for (const parse::Entry& e : groups->entries) requirement_nodes(e.value, path, out);
  }
  const parse::Node* tool = doc.root.find("tool");
  const parse::Node* poetry = tool != nullptr && tool->is_map() ? tool->find("poetry") : nullptr;
  const parse::Node* deps = poetry != nullptr && poetry->is_map() ? poetry->find("dependencies") : nullptr;
  if (deps == nullptr || !deps->is_map()) return;
  for (const parse::Entry& e : deps->entries) {
    const parse::Node* constraint = &e.value;
    if (e.value.is_map()) constraint = e.value.find("version");
    if (constraint == nullptr || constraint->kind != parse::NodeKind::String) continue;
    Requirement r;
    r.name = e.key.text;
    r.specifiers = poetry_to_specifiers(constraint->text);
    add_pin(out, r, e.key.text + " = \"" + constraint->text + "\"", path, static_cast<int>(e.key.region.begin.line));
  }
}

/// setup.cfg (INI): the indented lines of `install_requires` in `[options]` and of each key in
/// `[options.extras_require]`.
void setup_cfg(const std::string& path, const std::string& text, std::vector<Pin>& out) {
  std::string section;
  bool in_list = false;
  std::size_t pos = 0;
  int line_no = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    std::string_view line(text.data() + pos, (nl == std::string::npos ? text.size() : nl) - pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string_view t = trim(line);
    if (t.empty() || t.front() == '#' || t.front() == ';') continue;
    const bool indented = std::isspace(static_cast<unsigned char>(line.front())) != 0;
    if (!indented) {
      in_list = false;
      if (t.front() == '[') {
        section =
            std::string(trim(t.substr(1, t.find(']') == std::string_view::npos ? t.size() - 1 : t.find(']') - 1)));
        continue;
      }
      const auto eq = t.find_first_of("=:");
      if (eq == std::string_view::npos) continue;
      const std::string key(trim(t.substr(0, eq)));
      in_list = (section == "options" && key == "install_requires") || section == "options.extras_require";
      const std::string_view rest = trim(t.substr(eq + 1));
      if (in_list && !rest.empty()) {
        if (auto r = parse_requirement(rest)) add_pin(out, *r, rest, path, line_no);
      }
      continue;
    }
    if (!in_list) continue;
    if (auto r = parse_requirement(t)) add_pin(out, *r, t, path, line_no);
  }
}

/// setup.py, read as text (never run): the string literals that are requirements of a known library with a version
/// (`'transformers>=v4.51.0,<4.52'` in `install_requires` or `extras_require`). Comments, triple-quoted strings and
/// f-strings are skipped.
void setup_py(const std::string& path, const std::string& text, std::vector<Pin>& out) {
  int line_no = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line_no;
    } else if (c == '#') {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      const bool formatted = i > 0 && (text[i - 1] == 'f' || text[i - 1] == 'F');
      if (text.compare(i, 3, std::string(3, c)) == 0) {  // a docstring or other triple-quoted text
        const auto close = text.find(std::string(3, c), i + 3);
        const std::size_t end = close == std::string::npos ? text.size() : close + 3;
        line_no += static_cast<int>(std::count(text.begin() + static_cast<std::ptrdiff_t>(i),
                                               text.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
        i = end - 1;
        continue;
      }
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != c && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
      if (j >= text.size() || text[j] != c) continue;  // unterminated: the newline is counted next
      const std::string_view literal(text.data() + i + 1, j - i - 1);
      i = j;
      if (formatted || literal.find_first_of("{\\") != std::string_view::npos) continue;
      if (auto r = parse_requirement(literal)) add_pin(out, *r, literal, path, line_no);
    }
  }
}

void environment_yml(const std::string& path, const std::string& text, std::vector<Pin>& out) {
  const source::SourceFile file(path, text);
  const parse::ConfigDocument doc = parse::read_yaml(file);
  if (!doc.errors.empty() || !doc.has_root || !doc.root.is_map()) return;
  const parse::Node* deps = doc.root.find("dependencies");
  if (deps == nullptr || deps->kind != parse::NodeKind::Sequence) return;
  for (const parse::Node& item : deps->items) {
    if (item.kind == parse::NodeKind::String) {
      if (auto r = parse_conda_spec(item.text))
        add_pin(out, *r, item.text, path, static_cast<int>(item.region.begin.line));
    } else if (item.is_map()) {
      if (const parse::Node* pip = item.find("pip")) requirement_nodes(*pip, path, out);
    }
  }
}

bool is_requirements_txt(std::string_view name) {
  return name.starts_with("requirements") && name.ends_with(".txt");
}

/// An install script (`install.sh`, `setup_env.sh`, ...) or a Dockerfile: the project's own record of what it
/// installs when it has no requirements file, or beside one.
bool is_install_script(std::string_view name) {
  return name == "Dockerfile" ||
         ((name.starts_with("install") || name.starts_with("setup")) && name.ends_with(".sh"));
}

/// pip's options that take the next word as their value: what follows them is no requirement.
bool pip_option_takes_value(std::string_view w) {
  static constexpr std::array<std::string_view, 18> kWithValue = {
      "-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-i", "--index-url", "--extra-index-url",
      "-f", "--find-links", "-t", "--target", "--prefix", "--root", "--trusted-host", "--platform",
      "--python-version"};
  return std::find(kWithValue.begin(), kWithValue.end(), w) != kWithValue.end();
}

/// The `pip install` commands of an install script or a Dockerfile's RUN lines, read as text (never run): each word
/// after `install` that is a requirement (`"transformers==4.40.0"`, `accelerate==0.33.0`), up to the end of the
/// command (`&&`, `;`, `|`, a comment). `pip install`, `pip3 install`, `python -m pip install` and `uv pip install`
/// are read; words with a variable (`torch==$TORCH`) or an option's value (`-r requirements.txt`) are not pins.
void install_commands(const std::string& path, const std::string& text, std::vector<Pin>& out) {
  std::size_t pos = 0;
  int line_no = 1;
  while (pos < text.size()) {
    // One logical line: a `\` before the line break continues it.
    const int first_line = line_no;
    std::string logical;
    while (pos < text.size()) {
      std::size_t nl = text.find('\n', pos);
      if (nl == std::string::npos) nl = text.size();
      std::string_view piece(text.data() + pos, nl - pos);
      if (!piece.empty() && piece.back() == '\r') piece.remove_suffix(1);
      pos = nl + 1;
      ++line_no;
      if (!piece.empty() && piece.back() == '\\') {
        piece.remove_suffix(1);
        logical.append(piece);
        logical.push_back(' ');
        continue;
      }
      logical.append(piece);
      break;
    }
    std::vector<std::string> words;
    std::string word;
    char quote = 0;
    auto flush = [&] {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    };
    for (std::size_t i = 0; i < logical.size(); ++i) {
      const char c = logical[i];
      if (quote != 0) {
        if (c == quote)
          quote = 0;
        else
          word.push_back(c);
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '#' && word.empty()) {
        break;  // a comment
      } else if (c == ';' || c == '|' || c == '&') {
        flush();
        words.emplace_back(1, ';');  // the end of a command
      } else if (std::isspace(static_cast<unsigned char>(c)) != 0) {
        flush();
      } else {
        word.push_back(c);
      }
    }
    flush();
    for (std::size_t i = 0; i + 1 < words.size(); ++i) {
      const std::string& w = words[i];
      const bool pip = w == "pip" || w == "pip3" || w.ends_with("/pip") || w.ends_with("/pip3");
      if (!pip || words[i + 1] != "install") continue;
      for (std::size_t j = i + 2; j < words.size() && words[j] != ";"; ++j) {
        const std::string& arg = words[j];
        if (arg.starts_with("-")) {
          if (pip_option_takes_value(arg)) ++j;
          continue;
        }
        if (arg.find('$') != std::string::npos || arg.find('/') != std::string::npos) continue;
        if (auto r = parse_requirement(arg)) add_pin(out, *r, arg, path, first_line);
      }
    }
  }
}

}  // namespace

std::optional<Requirement> parse_requirement(std::string_view text) {
  // A comment starts at `#` at the start or after whitespace (a URL's `#egg=` is not one).
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '#' && (i == 0 || std::isspace(static_cast<unsigned char>(text[i - 1])) != 0)) {
      text = text.substr(0, i);
      break;
    }
  }
  text = trim(text);
  if (text.empty() || text.front() == '-' || !name_char(text.front())) return std::nullopt;
  Requirement r;
  std::size_t i = 0;
  while (i < text.size() && name_char(text[i])) ++i;
  r.name = std::string(text.substr(0, i));
  std::string_view rest = text.substr(i);
  if (const auto semi = rest.find(';'); semi != std::string_view::npos) {
    r.marker = std::string(trim(rest.substr(semi + 1)));
    rest = rest.substr(0, semi);
  }
  rest = trim(rest);
  if (rest.starts_with("[")) {
    const auto close = rest.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    rest = trim(rest.substr(close + 1));
  }
  if (rest.starts_with("@")) {
    r.direct_url = true;
    return r;
  }
  if (rest.starts_with("(")) {
    if (!rest.ends_with(")")) return std::nullopt;
    rest = rest.substr(1, rest.size() - 2);
  }
  r.specifiers = without_spaces(rest);
  if (!r.specifiers.empty() && std::string_view("=<>!~").find(r.specifiers.front()) == std::string_view::npos)
    return std::nullopt;
  return r;
}

std::optional<Requirement> parse_conda_spec(std::string_view text) {
  text = trim(text);
  if (const auto channel = text.rfind("::"); channel != std::string_view::npos) text = text.substr(channel + 2);
  if (text.empty() || !name_char(text.front())) return std::nullopt;
  Requirement r;
  std::size_t i = 0;
  while (i < text.size() && name_char(text[i])) ++i;
  r.name = std::string(text.substr(0, i));
  std::string_view rest = trim(text.substr(i));
  if (rest.empty()) return r;
  // `name 2.4.1 build` / `name=2.4.1=build`: the version is the second field; a build string after it is ignored.
  if (rest.starts_with("=") && !rest.starts_with("==")) {
    rest.remove_prefix(1);
    const auto end = rest.find_first_of("= ");
    std::string v(trim(rest.substr(0, end)));
    if (!v.ends_with("*")) v += ".*";  // conda `=2.4` is 2.4.*
    r.specifiers = "==" + v;
    return r;
  }
  if (std::string_view("<>!~=").find(rest.front()) != std::string_view::npos) {
    const auto end = rest.find_first_of(" =", rest.find_first_not_of("<>!~="));
    r.specifiers = without_spaces(rest.substr(0, end));
    return r;
  }
  const auto end = rest.find(' ');
  std::string v(rest.substr(0, end));
  r.specifiers = "==" + v;
  return r;
}

std::string poetry_to_specifiers(std::string_view constraint) {
  std::string out;
  std::string_view rest = constraint;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view c = trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    if (c.empty() || c == "*") continue;
    std::string clause;
    if (c.front() == '^' || (c.front() == '~' && !c.starts_with("~="))) {
      const auto v = model::parse_version(c.substr(1));
      if (!v) return "?";
      // Parts written: ^2.4 allows up to 3.0; ^0.19 up to 0.20; ~2.4 up to 2.5; ~2 up to 3.
      const auto parts = 1 + static_cast<int>(std::count(c.begin(), c.end(), '.'));
      model::Version upper;
      if (c.front() == '^') {
        upper = v->major != 0                ? model::Version{v->major + 1, 0, 0}
                : v->minor != 0 || parts < 3 ? model::Version{0, v->minor + 1, 0}
                                             : model::Version{0, 0, v->patch + 1};
      } else {
        upper = parts >= 2 ? model::Version{v->major, v->minor + 1, 0} : model::Version{v->major + 1, 0, 0};
      }
      clause = ">=" + std::string(trim(c.substr(1))) + ",<" + upper.str();
    } else if (std::string_view("=<>!~").find(c.front()) != std::string_view::npos) {
      clause = without_spaces(c);
    } else {
      clause = "==" + without_spaces(c);
    }
    out += (out.empty() ? "" : ",") + clause;
  }
  return out;
}

bool is_dependency_file(std::string_view name) {
  return is_requirements_txt(name) || name == "pyproject.toml" || name == "setup.cfg" || name == "setup.py" ||
         name == "environment.yml" || name == "environment.yaml" || is_install_script(name);
}

std::vector<Pin> pins_in_file(const std::string& path, const std::string& text) {
  std::vector<Pin> out;
  const std::string name = fs::path(path).filename().string();
  if (name == "pyproject.toml")
    pyproject_toml(path, text, out);
  else if (name == "setup.cfg")
    setup_cfg(path, text, out);
  else if (name == "setup.py")
    setup_py(path, text, out);
  else if (name == "environment.yml" || name == "environment.yaml")
    environment_yml(path, text, out);
  else if (is_requirements_txt(name) || fs::path(path).parent_path().filename() == "requirements")
    requirements_txt(path, text, out);
  else if (is_install_script(name))
    install_commands(path, text, out);
  return out;
}

std::vector<Pin> detect_pins(const std::vector<std::string>& folders) {
  std::vector<Pin> all;
  std::set<std::string> seen;
  std::set<std::string_view> folders_done;  // every file named in one folder lists that folder again
  std::error_code ec;
  for (const std::string& folder : folders) {
    if (!folders_done.insert(folder).second) continue;
    const fs::path dir(folder);
    std::vector<std::string> files;
    for (const char* fixed : {"pyproject.toml", "setup.cfg", "setup.py"}) files.push_back((dir / fixed).string());
    std::vector<std::string> reqs;
    for (const fs::path& d : {dir, dir / "requirements"}) {
      if (!fs::is_directory(d, ec)) continue;
      for (fs::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string fname = it->path().filename().string();
        if ((d == dir && is_requirements_txt(fname)) || (d != dir && fname.ends_with(".txt")))
          reqs.push_back(it->path().string());
      }
    }
    std::sort(reqs.begin(), reqs.end());
    files.insert(files.end(), reqs.begin(), reqs.end());
    for (const char* fixed : {"environment.yml", "environment.yaml"}) files.push_back((dir / fixed).string());
    // Install scripts and a Dockerfile last: a requirements file, where there is one, is the project's own record.
    std::vector<std::string> scripts;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (is_install_script(it->path().filename().string())) scripts.push_back(it->path().string());
    }
    std::sort(scripts.begin(), scripts.end());
    files.insert(files.end(), scripts.begin(), scripts.end());
    for (const std::string& f : files) {
      if (!fs::is_regular_file(f, ec) || !seen.insert(fs::weakly_canonical(f, ec).string()).second) continue;
      source::ReadResult read = source::read_regular_file(f, kMaxDependencyFileBytes);
      if (!read.text) continue;
      std::string shown = fs::path(f).lexically_normal().generic_string();
      if (shown.starts_with("./")) shown.erase(0, 2);
      for (Pin& p : pins_in_file(shown, *read.text)) all.push_back(std::move(p));
    }
  }
  return all;
}

void apply_pins(const std::vector<Pin>& pins, const std::vector<std::string>& keep, model::TargetVersions& versions) {
  std::set<std::string> done(keep.begin(), keep.end());
  std::set<std::string> ranged;  // set from a range: an exact pin found later still wins
  for (const Pin& p : pins) {
    const bool exact = p.direct_url || (p.range.low && p.range.high && *p.range.low == *p.range.high);
    if (done.count(p.library) != 0 && !(exact && ranged.count(p.library) != 0)) continue;
    model::AssumedVersion a = p.direct_url ? model::assume_unknown(p.library) : model::assume(p.library, p.range);
    a.written = p.written;
    a.origin = p.path + ":" + std::to_string(p.line);
    versions.set(std::move(a));
    done.insert(p.library);
    if (exact)
      ranged.erase(p.library);
    else
      ranged.insert(p.library);
  }
}

}  // namespace lint::config
