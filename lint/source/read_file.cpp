#include "lint/source/read_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

ReadResult read_descriptor(int fd, std::uintmax_t max_bytes) {
  ReadResult r;
  std::string text;
  char buffer[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      r.error = std::string("cannot read: ") + std::strerror(errno);
      return r;
    }
    if (n == 0) break;
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
      r.error = too_large_message(max_bytes);
      return r;
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
  r.text = std::move(text);
  return r;
}

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
  return read_descriptor(fd.fd, max_bytes);
}

}  // namespace lint::source
