// Bounded reads of input files and streams: only regular files, never more than a limit, never blocking on a FIFO.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace lint::source {

/// The text read, or why nothing was (`error` is a short phrase: "is a directory, not a file").
struct ReadResult {
  std::optional<std::string> text;
  std::string error;
};

/// Reads the regular file at `path` whole. Directories, FIFOs, sockets and devices are refused without being read
/// (the type is checked on the opened descriptor, and the open does not wait for a FIFO's writer); a file larger
/// than `max_bytes` is refused, and at most `max_bytes + 1` bytes are ever read, even if the file grows.
ReadResult read_regular_file(const std::string& path, std::uintmax_t max_bytes);

/// Reads an already open descriptor (standard input) to its end, refusing more than `max_bytes`.
ReadResult read_descriptor(int fd, std::uintmax_t max_bytes);

/// "larger than the 64 MiB limit".
std::string too_large_message(std::uintmax_t max_bytes);

}  // namespace lint::source
