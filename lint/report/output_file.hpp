// Writing reports safely: a file is replaced atomically (a temporary file in the same folder, fsync'd, renamed
// over it), standard output is written completely, and every write error is reported.
#pragma once

#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace lint::report {

/// Writes `text` to `path`. A regular file (or a new one) is replaced atomically: readers see the old report or
/// the new one, never a truncated one, and concurrent writers do not interleave. A path that exists and is not a
/// regular file (`/dev/null`, a FIFO) is written in place. Returns "" on success, else why it failed (nothing
/// is left behind then).
std::string write_output_file(const std::string& path, std::string_view text);

/// Writes `text` to standard output completely; "" on success, else why it failed (`/dev/full`, a closed pipe).
std::string write_standard_output(std::string_view text);

/// A stream buffer onto standard output that writes as it fills (64 KiB at a time): a report of many findings
/// printed to a terminal or a pipe is not held whole first. After the first failed write the rest is dropped;
/// finish() writes what is left and says why a write failed ("" when none).
class StandardOutputBuffer : public std::streambuf {
 public:
  StandardOutputBuffer();
  StandardOutputBuffer(const StandardOutputBuffer&) = delete;
  StandardOutputBuffer& operator=(const StandardOutputBuffer&) = delete;
  ~StandardOutputBuffer() override = default;
  std::string finish();

 protected:
  int_type overflow(int_type c) override;
  int sync() override;

 private:
  bool drain();
  std::vector<char> buffer_;
  std::string error_;
};

/// The input among `inputs` that `output` would overwrite (the same file, through any path or link), or "".
std::string overwritten_input(const std::string& output, const std::vector<std::string>& inputs);

}  // namespace lint::report
