#include "lint/source/read_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace lint::source {

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory, not a file";
  if (S_ISFIFO(mode)) return "is a FIFO (named pipe), not a regular file";
  if (S_ISSOCK(mode)) return "is a socket, not a regular file";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "is a device, not a regular file";
  return "is not a regular file";
}

/// Closes a descriptor on every path out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string too_large_message(std::uintmax_t max_bytes) {
  return "larger than the " + std::to_string(max_bytes / (1024 * 1024)) + " MiB limit";
}

namespace {

/// Reads to the end into a string sized for `expected` bytes (a regular file's size: no copy through a buffer, no
/// regrowth), growing it should the file be longer by then.
ReadResult read_all(int fd, std::uintmax_t max_bytes, std::size_t expected) {
  ReadResult r;
  std::string text;
  text.resize(expected + 1);  // + 1: the end is seen without growing
  std::size_t used = 0;
  for (;;) {
    if (used == text.size()) text.resize(std::max<std::size_t>(text.size() * 2, 64 * 1024));
    const ssize_t n = ::read(fd, text.data() + used, text.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      r.error = std::string("cannot read: ") + std::strerror(errno);
      return r;
    }
    if (n == 0) break;
    if (used + static_cast<std::size_t>(n) > max_bytes) {
      r.error = too_large_message(max_bytes);
      return r;
    }
    used += static_cast<std::size_t>(n);
  }
  text.resize(used);
  if (text.capacity() > used + used / 4 + 64 * 1024) text.shrink_to_fit();  // a file that shrank: no waste kept
  r.text = std::move(text);
  return r;
}

}  // namespace

ReadResult read_descriptor(int fd, std::uintmax_t max_bytes) { return read_all(fd, max_bytes, 0); }

ReadResult read_regular_file(const std::string& path, std::uintmax_t max_bytes) {
  ReadResult r;
  struct stat st {};
  // The type first, without opening: opening some devices has effects of its own.
  if (::stat(path.c_str(), &st) != 0) {
    r.error = errno == ENOENT ? "no such file" : std::string("cannot read: ") + std::strerror(errno);
    return r;
  }
  if (!S_ISREG(st.st_mode)) {
    r.error = kind_of(st.st_mode);
    return r;
  }
  // O_NONBLOCK: should the path have become a FIFO since, the open does not wait for a writer.
  const Fd fd{::open(path.c_str(), O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)};
  if (fd.fd < 0) {
    r.error = std::string("cannot open: ") + std::strerror(errno);
    return r;
  }
  if (::fstat(fd.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    r.error = kind_of(st.st_mode);
    return r;
  }
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes) {
    r.error = too_large_message(max_bytes);
    return r;
  }
  return read_all(fd.fd, max_bytes, static_cast<std::size_t>(st.st_size));
}

}  // namespace lint::source
