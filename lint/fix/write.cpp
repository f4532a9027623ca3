// Atomic replacement of a fixed file: a temporary file in the same folder, fsync, rename (POSIX rename replaces
// the target atomically, so a reader sees the old file or the new one, never a half-written one).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "lint/fix/fix.hpp"

namespace lint::fix {

namespace fs = std::filesystem;

namespace {

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace

bool write_change(const FileChange& change, std::string& error) {
  const fs::path target(change.path);
  std::string current;
  {
    std::ifstream in(target, std::ios::binary);
    if (!in) {
      error = change.path + ": cannot read: " + std::strerror(errno);
      return false;
    }
    current.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::string bom;
  if (current.starts_with("\xEF\xBB\xBF")) bom = current.substr(0, 3);
  if (std::string_view(current).substr(bom.size()) != change.before) {
    error = change.path + ": changed since it was read; not fixed";
    return false;
  }
  struct stat st {};
  if (::stat(change.path.c_str(), &st) != 0) {
    error = change.path + ": " + std::strerror(errno);
    return false;
  }
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".launchlint-XXXXXX")).string();
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) {
    error = change.path + ": cannot create a temporary file: " + std::strerror(errno);
    return false;
  }
  const bool ok =
      write_all(fd, bom) && write_all(fd, change.after) && ::fchmod(fd, st.st_mode & 07777) == 0 && ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!ok || ::rename(tmpl.c_str(), change.path.c_str()) != 0) {
    error = change.path + ": cannot write: " + std::strerror(ok ? errno : saved);
    ::unlink(tmpl.c_str());
    return false;
  }
  // The rename itself is durable once the folder is synced.
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return true;
}

}  // namespace lint::fix
