// ZstdOutputStream: an std::ostream that compresses everything written to it into one Zstandard
// frame (RFC 8878) with the streaming API (ZSTD_compressStream2), content checksum on
// (ZSTD_c_checksumFlag, so `zstd -t` and every decoder verify the data), level 3 by default
// (zstd's own default, ZSTD_CLEVEL_DEFAULT).
//
// Contract: the compressed bytes go to a sink stream (not owned) or to a file the stream opens
// (binary, truncating). close() ends the frame, writes it out and flushes the sink (and closes
// the file); after close() nothing more may be written. The destructor calls close() when it has
// not been called but swallows errors: call close() yourself to learn about them.
// Errors (a zstd error, the sink or file failing) throw std::runtime_error naming the cause; the
// stream has badbit in its exception mask so errors raised inside the streambuf reach the caller
// of operator<< / write() as that std::runtime_error. flush() ends the current zstd block
// (ZSTD_e_flush) so the bytes so far can be decoded; the writers do not need it.
// Not thread-safe; one writer at a time. Not copyable or movable.
#pragma once

#include <fstream>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

struct ZSTD_CCtx_s;

namespace ionflow {

class ZstdStreambuf : public std::streambuf {
 public:
  // REQUIRES: `sink` outlives this buffer. Throws std::runtime_error if zstd rejects `level`
  // (valid: ZSTD_minCLevel()..ZSTD_maxCLevel(), e.g. 1..19; negative = fast modes).
  ZstdStreambuf(std::ostream& sink, int level);
  ~ZstdStreambuf() override;
  ZstdStreambuf(const ZstdStreambuf&) = delete;
  ZstdStreambuf& operator=(const ZstdStreambuf&) = delete;

  // Ends the frame and flushes the sink. Idempotent. Throws std::runtime_error.
  void finish();
  bool finished() const { return finished_; }

 protected:
  int_type overflow(int_type ch) override;
  std::streamsize xsputn(const char* data, std::streamsize size) override;
  int sync() override;

 private:
  // Compresses the put area with `end_op` (ZSTD_EndDirective) and writes the output to the sink.
  void drain(int end_op);

  std::ostream& sink_;
  ZSTD_CCtx_s* context_ = nullptr;
  std::vector<char> input_;   // the put area
  std::vector<char> output_;  // compressed bytes on their way to the sink
  bool finished_ = false;
};

class ZstdOutputStream : public std::ostream {
 public:
  static constexpr int kDefaultLevel = 3;

  // Compresses into `sink` (not owned; must outlive this stream).
  explicit ZstdOutputStream(std::ostream& sink, int level = kDefaultLevel);
  // Compresses into the file at `path` (created or truncated). Throws std::runtime_error naming
  // the path if it cannot be opened.
  explicit ZstdOutputStream(const std::string& path, int level = kDefaultLevel);
  ~ZstdOutputStream() override;
  ZstdOutputStream(const ZstdOutputStream&) = delete;
  ZstdOutputStream& operator=(const ZstdOutputStream&) = delete;

  // Ends the frame, flushes the sink and closes the file when this stream owns one. Idempotent.
  // Throws std::runtime_error.
  void close();

 private:
  std::unique_ptr<std::ofstream> file_;  // declared before buffer_: it is buffer_'s sink
  std::string path_;
  ZstdStreambuf buffer_;
};

}  // namespace ionflow
