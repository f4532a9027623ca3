#include "lint/report/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>

namespace lint::report {

namespace fs = std::filesystem;

namespace {

std::string errno_text() {
  return std::strerror(errno);
}

/// Writes all of `text` to `fd`; false with errno set on failure.
bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace

std::string write_standard_output(std::string_view text) {
  // A closed pipe is a write error (EPIPE), not a silent death by SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  if (!write_all(STDOUT_FILENO, text)) return "cannot write standard output: " + errno_text();
  return {};
}

StandardOutputBuffer::StandardOutputBuffer() : buffer_(64 * 1024) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

bool StandardOutputBuffer::drain() {
  const std::string_view pending(pbase(), static_cast<std::size_t>(pptr() - pbase()));
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  if (!error_.empty() || pending.empty()) return error_.empty();
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is a write error (EPIPE), not a silent death by SIGPIPE
  if (!write_all(STDOUT_FILENO, pending)) error_ = "cannot write standard output: " + errno_text();
  return error_.empty();
}

StandardOutputBuffer::int_type StandardOutputBuffer::overflow(int_type c) {
  drain();  // after a failure the rest is dropped (finish() reports it): the report is not held in memory instead
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  return c;
}

int StandardOutputBuffer::sync() {
  return drain() ? 0 : -1;
}

std::string StandardOutputBuffer::finish() {
  drain();
  return error_;
}

std::string write_output_file(const std::string& path, std::string_view text) {
  std::signal(SIGPIPE, SIG_IGN);
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return "cannot write " + path + ": is a directory";
  if (exists && !S_ISREG(st.st_mode)) {
    // A device or FIFO: there is nothing to replace, only to write to.
    const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return "cannot write " + path + ": " + errno_text();
    const bool ok = write_all(fd, text);
    const std::string why = ok ? "" : errno_text();
    if (::close(fd) != 0 && ok) return "cannot write " + path + ": " + errno_text();
    return ok ? "" : "cannot write " + path + ": " + why;
  }
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".launchlint-XXXXXX")).string();
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0)
    return "cannot write " + path + ": cannot create a temporary file in " + dir.string() + ": " + errno_text();
  // mkstemp creates 0600; a report gets the mode of the file it replaces, or 0666 less the umask.
  mode_t mode = 0;
  if (exists) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  std::string why;
  if (!write_all(fd, text)) {
    why = errno_text();
  } else if (::fchmod(fd, mode) != 0) {
    why = errno_text();
  } else if (::fsync(fd) != 0) {
    why = errno_text();
  }
  if (::close(fd) != 0 && why.empty()) why = errno_text();
  if (why.empty() && ::rename(tmpl.c_str(), path.c_str()) != 0) why = errno_text();
  if (!why.empty()) {
    ::unlink(tmpl.c_str());
    return "cannot write " + path + ": " + why;
  }
  // The rename itself is durable once the folder is synced.
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return {};
}

std::string overwritten_input(const std::string& output, const std::vector<std::string>& inputs) {
  std::error_code ec;
  if (!fs::exists(output, ec)) return {};
  for (const std::string& in : inputs) {
    if (fs::equivalent(output, in, ec) && !ec) return in;
  }
  return {};
}

}  // namespace lint::report
