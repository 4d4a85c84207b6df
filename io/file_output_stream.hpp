// FileOutputStream: an std::ostream that writes to a file through its own buffer and a plain
// POSIX file descriptor, and remembers why a write failed. std::ofstream only sets badbit, so
// a full disk used to reach the user as "writing to the output stream failed", naming neither
// the file nor the reason; this stream keeps both ("cannot write <path>: No space left on
// device").
//
// Contract: the constructor creates or truncates `path` (mode 0666 minus the umask). Writes go
// to a buffer of `buffer_bytes` and then to write(2); writes larger than the buffer bypass it. The
// first failing write(2) or close(2) sets badbit (as std::ofstream would) and records its errno;
// nothing more is written after it. close() flushes, closes and throws if anything failed. The
// destructor closes without throwing (an unclosed stream's errors are lost: call close()).
// Errors: std::runtime_error naming the path and the OS reason (strerror text).
// Not thread-safe; one writer at a time. Not copyable or movable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace ionflow {

class FileStreambuf : public std::streambuf {
 public:
  // Takes ownership of `fd`.
  FileStreambuf(int fd, std::size_t buffer_bytes);
  ~FileStreambuf() override;
  FileStreambuf(const FileStreambuf&) = delete;
  FileStreambuf& operator=(const FileStreambuf&) = delete;

  // Writes the buffer and closes the descriptor. Idempotent. False if any write or the close
  // failed (see error_number()).
  bool close();
  // errno of the first failed write(2) or close(2); 0 while none failed.
  int error_number() const { return error_number_; }
  // Bytes handed to the OS so far.
  uint64_t bytes_written() const { return bytes_written_; }

 protected:
  int_type overflow(int_type ch) override;
  std::streamsize xsputn(const char* data, std::streamsize size) override;
  int sync() override;

 private:
  bool write_fully(const char* data, std::size_t size);
  bool drain();  // writes the put area; false after a failure

  int fd_;
  std::vector<char> buffer_;
  int error_number_ = 0;
  uint64_t bytes_written_ = 0;
};

class FileOutputStream : public std::ostream {
 public:
  static constexpr std::size_t kDefaultBufferBytes = std::size_t{1} << 16;

  // Creates or truncates `path`. Throws std::runtime_error "cannot create <path>: <reason>".
  explicit FileOutputStream(const std::string& path,
                            std::size_t buffer_bytes = kDefaultBufferBytes);
  ~FileOutputStream() override = default;
  FileOutputStream(const FileOutputStream&) = delete;
  FileOutputStream& operator=(const FileOutputStream&) = delete;

  // Flushes and closes the file. Idempotent. Throws std::runtime_error (error()) if any write
  // or the close failed.
  void close();
  // "" while every write succeeded; else "cannot write <path>: <OS reason>", e.g.
  // "cannot write /out/results.tsv.tmp: No space left on device".
  std::string error() const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  FileStreambuf buffer_;
};

}  // namespace ionflow
