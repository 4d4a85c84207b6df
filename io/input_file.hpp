// InputFile: an input file (FASTA, spectra) opened for one sequential read, refusing at once
// what cannot be one: a directory, a FIFO (named pipe), a socket or a device. The open does not
// block (O_NONBLOCK, cleared after the checks): a FIFO without a writer would otherwise hang
// the reading thread forever, beyond the reach of a job's cancel.
//
// Errors: std::runtime_error naming the path and what it is:
//   "<path>: is a directory, not a file"
//   "<path>: is a FIFO (named pipe), not a regular file: ionflow reads files it can size and
//    re-read"  (likewise "a socket", "a character device", "a block device")
//   "<path>: cannot open: <strerror>"  (ENOENT, EACCES, ...)
// A file that is replaced, truncated or grows while it is read keeps being read through this
// descriptor (the bytes the OS gives); FileImage and the spectra reader checksum what they read.
// Thread-compatible; move-only; closes the descriptor when destroyed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ionflow {

class InputFile {
 public:
  // Opens `path` read-only (close-on-exec). Throws std::runtime_error (see above).
  static InputFile open(const std::string& path);

  InputFile() = default;
  ~InputFile();
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&& other) noexcept;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  int fd() const { return fd_; }
  uint64_t size_bytes() const { return size_bytes_; }  // at open (st_size)
  // Gives up ownership of the descriptor (the caller closes it).
  int release();

 private:
  int fd_ = -1;
  uint64_t size_bytes_ = 0;
};

// Throws std::runtime_error "<path>: the first N bytes are all zero: not <what> (a sparse,
// preallocated or damaged file?)" when `head` (the file's first bytes, N of them) is
// non-empty and holds only NUL bytes. `what` names the expected content, e.g. "mzML, mzXML, MGF or
// MS2"
// ("": the ": not <what>" part is left out).
void refuse_zero_head(const std::string& path, std::string_view head, const std::string& what);

}  // namespace ionflow
