// Decompressor: streaming decompression of gzip and zstd input, detected from the first bytes
// (gzip magic 1f 8b, RFC 1952; zstd frame magic 28 b5 2f fd, RFC 8878), never from the file name.
// Uncompressed input passes through unchanged. Multi-member gzip and multi-frame zstd are read
// to the end.
//
// Contract: feed() blocks in file order, then finish(). Throws ParseError (file name, byte offset
// of the compressed input) on corrupt or truncated data. Not thread-safe; one per file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace ionflow {

enum class Compression { kNone, kGzip, kZstd };

// Detects compression from the first bytes (at least 4 are needed to tell zstd).
Compression detect_compression(std::string_view head);

class Decompressor {
 public:
  explicit Decompressor(std::string file_name);
  ~Decompressor();
  Decompressor(const Decompressor&) = delete;
  Decompressor& operator=(const Decompressor&) = delete;

  // Decompresses `block`, appending the output to `out`. The first call detects the format.
  void feed(std::string_view block, std::string& out);
  // Throws ParseError if a compressed stream ended early.
  void finish();
  Compression compression() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ionflow
