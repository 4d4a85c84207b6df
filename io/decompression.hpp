// Decompressor: streaming decompression of gzip, zstd and bzip2 input, detected from the first
// bytes (gzip magic 1f 8b, RFC 1952; zstd frame magic 28 b5 2f fd or a skippable frame
// 5? 2a 4d 18 as pzstd writes first, RFC 8878; bzip2 "BZh" and a block-size digit 1-9, libbz2
// 1.0.8 manual section 2.2), never from the file name.
// Uncompressed input passes through unchanged. Multi-member gzip, multi-frame zstd and
// multi-stream bzip2 (pbzip2) are read to the end.
//
// Contract: feed() blocks of any size (also empty, also shorter than the 4 magic bytes) in file
// order, then finish(). Output is appended to the caller's string as soon as it is decoded.
// Throws ParseError (file name, byte offset of the compressed input where the problem was found,
// line 0) on corrupt or truncated data. After a throw the object is unusable. Not thread-safe; one
// per file. Trailing zero bytes after the last gzip member or bzip2 stream (tape/block padding)
// are ignored, as gzip(1) does; any other trailing bytes must form another member, frame or
// stream. zstd frames that
// need a window above zstd's default decoder limit (128 MiB, i.e. made with --long=28 or more)
// are refused with a ParseError. A "decompression bomb" is refused with a ParseError once its
// output passes DecompressionLimits (below), before it takes the machine's memory.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace ionflow {

enum class Compression { kNone, kGzip, kZstd, kBzip2 };

// Detects compression from the first bytes (at least 4 are needed to tell zstd). A `head` shorter
// than the magic it starts with gives kNone; Decompressor::feed() instead waits for more bytes.
Compression detect_compression(std::string_view head);

// Against decompression bombs: once a stream's output passes `floor_bytes`, an output more than
// `max_ratio` times the compressed bytes consumed so far is refused (ParseError naming both
// sizes). Peak lists and FASTA compress about 3:1 to 10:1; deflate cannot pass 1032:1 (zlib
// FAQ, "maximum compression factor"); bzip2 and zstd streams of one repeated byte reach
// 10,000:1 and more. Memory stays below about max(floor_bytes, max_ratio x compressed input).
struct DecompressionLimits {
  uint64_t floor_bytes = uint64_t{64} << 20;
  uint64_t max_ratio = 1000;
};

class Decompressor {
 public:
  explicit Decompressor(std::string file_name, DecompressionLimits limits = {});
  ~Decompressor();
  Decompressor(const Decompressor&) = delete;
  Decompressor& operator=(const Decompressor&) = delete;

  // Decompresses `block`, appending the output to `out`. The first call detects the format.
  void feed(std::string_view block, std::string& out);
  // As feed(), but returns this block's output instead of appending it: `block` itself when the
  // stream is uncompressed (no copy: a parser reading an mzML otherwise copied every byte once
  // more, into freshly faulted pages), else `scratch` (cleared first) holding what was decoded.
  // The view is valid while `block` and `scratch` are.
  std::string_view feed_view(std::string_view block, std::string& scratch);
  // Signals end of input. Throws ParseError if a compressed stream ended early. An input shorter
  // than 4 bytes that began like a magic number is still undecided at this point: finish(out)
  // passes it through; finish() throws ParseError rather than dropping those bytes.
  void finish(std::string& out);
  void finish();
  // The detected format; kNone until the first bytes have been seen.
  Compression compression() const;
  // Compressed bytes consumed so far.
  uint64_t compressed_bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ionflow
