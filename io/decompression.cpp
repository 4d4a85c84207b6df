// Streaming gzip (zlib inflate), zstd (ZSTD_decompressStream) and bzip2 (BZ2_bzDecompress)
// decoding; see decompression.hpp.
#include "io/decompression.hpp"

#include <bzlib.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "io/parse_error.hpp"

namespace ionflow {

namespace {

constexpr unsigned char kGzipMagic[] = {0x1f, 0x8b};              // RFC 1952 section 2.3.1
constexpr unsigned char kZstdMagic[] = {0x28, 0xb5, 0x2f, 0xfd};  // RFC 8878 section 3.1.1

// bzip2 stream header: "BZh" and the block size '1'..'9' (bzip2 1.0.8 manual, section 2.2
// "bzip2 file format"; the magic of every stream, also each one pbzip2 concatenates).
bool is_bzip2_prefix(std::string_view s) {
  static constexpr char kMagic[] = "BZh";
  for (size_t i = 0; i < s.size() && i < 3; ++i) {
    if (s[i] != kMagic[i]) return false;
  }
  return s.size() < 4 || (s[3] >= '1' && s[3] <= '9');
}

// Output is decoded straight into the caller's string; it grows by at least this much at a time.
constexpr size_t kMinOutputChunk = 64 * 1024;

bool starts_with(std::string_view s, const unsigned char* magic, size_t n) {
  return s.size() >= n && std::memcmp(s.data(), magic, n) == 0;
}

// True while `s` is still a proper prefix of `magic` (more bytes are needed to decide).
bool is_proper_prefix(std::string_view s, const unsigned char* magic, size_t n) {
  return s.size() < n && std::memcmp(s.data(), magic, s.size()) == 0;
}

// A zstd skippable frame (RFC 8878 section 3.1.2): little-endian magic 0x184D2A50..0x184D2A5F,
// i.e. bytes ?0..?f 2a 4d 18 with high nibble 5. pzstd writes one before the data frames.
bool is_skippable_frame_prefix(std::string_view s) {
  static constexpr unsigned char kTail[] = {0x2a, 0x4d, 0x18};
  if (s.empty()) return true;
  if ((static_cast<unsigned char>(s[0]) & 0xf0) != 0x50) return false;
  size_t n = std::min<size_t>(s.size() - 1, sizeof kTail);
  return std::memcmp(s.data() + 1, kTail, n) == 0;
}

// Bytes of the zstd frame header that `head` starts (magic included): 8 for a skippable frame
// (magic and size), else 4 + the Frame_Header_Descriptor's sizes (RFC 8878 section 3.1.1.1:
// descriptor 1, window descriptor 1 unless single-segment, dictionary ID 0/1/2/4, frame content
// size 0/2/4/8 with 1 for flag 0 in a single segment). 0 while `head` is too short to tell.
size_t zstd_frame_header_size(std::string_view head) {
  if (head.size() >= 4 && is_skippable_frame_prefix(head.substr(0, 4))) return 8;
  if (head.size() < 5) return 0;
  static constexpr size_t kDictionaryIdBytes[] = {0, 1, 2, 4};
  static constexpr size_t kContentSizeBytes[] = {0, 2, 4, 8};
  const auto descriptor = static_cast<unsigned char>(head[4]);
  const size_t single_segment = (descriptor >> 5) & 1;
  const size_t content_size_flag = descriptor >> 6;
  const size_t content_size =
      content_size_flag == 0 ? single_segment : kContentSizeBytes[content_size_flag];
  return 5 + (1 - single_segment) + kDictionaryIdBytes[descriptor & 3] + content_size;
}

// Makes at least `want` bytes of writable room after out[used..].
char* room(std::string& out, size_t used, size_t want) {
  if (out.size() < used + want) out.resize(used + want);
  return out.data() + used;
}

}  // namespace

Compression detect_compression(std::string_view head) {
  if (starts_with(head, kGzipMagic, sizeof kGzipMagic)) return Compression::kGzip;
  if (starts_with(head, kZstdMagic, sizeof kZstdMagic)) return Compression::kZstd;
  if (head.size() >= 4 && is_skippable_frame_prefix(head.substr(0, 4))) return Compression::kZstd;
  if (head.size() >= 4 && is_bzip2_prefix(head.substr(0, 4))) return Compression::kBzip2;
  return Compression::kNone;
}

struct Decompressor::Impl {
  enum class GzipState { kInMember, kBetweenMembers, kPadding };

  std::string file_name;
  DecompressionLimits limits;
  uint64_t decoded = 0;  // output bytes of the compressed stream before the current call
  bool decided = false;
  Compression compression = Compression::kNone;
  std::string head;       // first bytes, kept until the format is decided
  uint64_t consumed = 0;  // compressed bytes consumed before the current call

  z_stream zs{};
  bool zs_ready = false;
  GzipState gzip_state = GzipState::kInMember;
  uint64_t gzip_member_at = 0;  // the current member's first byte in the compressed input

  ZSTD_DStream* zds = nullptr;
  size_t zstd_hint = 0;         // last ZSTD_decompressStream result: 0 = at a frame boundary
  std::string zstd_header;      // a frame header's first bytes, while it is not complete
  uint64_t zstd_header_at = 0;  // its offset in the compressed input
  bool zstd_output_full = false;

  bz_stream bz{};
  bool bz_ready = false;
  bool bz_in_stream = true;  // false between streams (after BZ_STREAM_END)
  bool bz_padding = false;   // zero bytes after the last stream

  Impl(std::string name, DecompressionLimits l) : file_name(std::move(name)), limits(l) {}
  ~Impl() {
    if (zs_ready) inflateEnd(&zs);
    if (zds != nullptr) ZSTD_freeDStream(zds);
    if (bz_ready) BZ2_bzDecompressEnd(&bz);
  }

  [[noreturn]] void fail(uint64_t offset, const std::string& what) const {
    throw ParseError(file_name, offset, 0, what);
  }

  void start(Compression c) {
    decided = true;
    compression = c;
    if (c == Compression::kGzip) {
      // windowBits 16 + 15: gzip wrapper only, 32 KiB window (zlib.h, inflateInit2).
      if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) throw std::bad_alloc();
      zs_ready = true;
    } else if (c == Compression::kZstd) {
      zds = ZSTD_createDStream();
      if (zds == nullptr) throw std::bad_alloc();
      ZSTD_initDStream(zds);
      zstd_hint = 0;  // at the first frame's start
    } else if (c == Compression::kBzip2) {
      bzip2_init();
    }
  }

  void bzip2_init() {
    bz = bz_stream{};
    // verbosity 0, small 0: the fast decoder (about 3.7 bytes of memory per block byte).
    const int rc = BZ2_bzDecompressInit(&bz, 0, 0);
    if (rc == BZ_MEM_ERROR) throw std::bad_alloc();
    if (rc != BZ_OK) fail(consumed, "bzip2 decoder init failed: " + std::to_string(rc));
    bz_ready = true;
    bz_in_stream = true;
  }

  void decode(std::string_view in, std::string& out) {
    const size_t before = out.size();
    switch (compression) {
      case Compression::kNone:
        out.append(in);
        break;
      case Compression::kGzip:
        inflate_block(in, out);
        break;
      case Compression::kZstd:
        zstd_block(in, out);
        break;
      case Compression::kBzip2:
        bzip2_block(in, out);
        break;
    }
    consumed += in.size();
    if (compression != Compression::kNone) decoded += out.size() - before;
  }

  void inflate_block(std::string_view in, std::string& out) {
    size_t pos = 0;
    const size_t start = out.size();
    size_t used = start;
    bool output_full = false;  // inflate may hold decoded bytes after consuming all input
    while (pos < in.size() || output_full) {
      if (gzip_state == GzipState::kPadding) {
        for (; pos < in.size(); ++pos) {
          if (in[pos] != '\0') fail(consumed + pos, "unexpected bytes after the last gzip member");
        }
        break;
      }
      if (gzip_state == GzipState::kBetweenMembers) {
        if (in[pos] == '\0') {
          gzip_state = GzipState::kPadding;
          continue;
        }
        if (static_cast<unsigned char>(in[pos]) != kGzipMagic[0]) {
          fail(consumed + pos, "unexpected bytes after the last gzip member");
        }
        inflateReset(&zs);  // the next member (RFC 1952 section 2.2: members are concatenated)
        gzip_member_at = consumed + pos;
        gzip_state = GzipState::kInMember;
      }
      size_t want = std::max(kMinOutputChunk, 4 * (in.size() - pos));
      zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + pos));
      zs.avail_in = static_cast<uInt>(std::min<size_t>(in.size() - pos, 1u << 30));
      zs.next_out = reinterpret_cast<Bytef*>(room(out, used, want));
      zs.avail_out = static_cast<uInt>(want);
      size_t in_before = zs.avail_in;
      int rc = inflate(&zs, Z_NO_FLUSH);
      pos += in_before - zs.avail_in;
      used += want - zs.avail_out;
      output_full = zs.avail_out == 0;
      guard(out, used, consumed + pos, decoded + (used - start));
      if (rc == Z_STREAM_END) {
        gzip_state = GzipState::kBetweenMembers;
        output_full = false;
      } else if (rc == Z_MEM_ERROR) {
        throw std::bad_alloc();
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        const std::string what = zs.msg != nullptr ? zs.msg : "inflate error " + std::to_string(rc);
        std::string why;
        const std::string member = std::to_string(gzip_member_at);
        // zlib's words for the member trailer's CRC-32 and ISIZE (RFC 1952 section 2.3.1),
        // checked in that order: damage that still decoded as deflate shows only there.
        if (what == "incorrect data check") {
          why = " (the CRC-32 at the end of the gzip member that starts at byte " + member +
                " does not match its decompressed data: the member's data is damaged where "
                "deflate could not tell, or the CRC-32 itself is)";
        } else if (what == "incorrect length check") {
          why = " (the length recorded at the end of the gzip member that starts at byte " +
                member +
                " does not match its decompressed size, though its CRC-32 does: the "
                "length field itself is likely damaged)";
        }
        fail(consumed + pos, "corrupt gzip data: " + what + why);
      }
    }
    out.resize(used);
  }

  // A frame header never spans two ZSTD_decompressStream calls. libzstd 1.5.4 takes a
  // "single-pass" shortcut when a call completes a frame's header and the whole frame seems to
  // be in that call's input, but it reads that frame from the call's first input byte, which is
  // not the frame's first byte when the header began in an earlier call (found by
  // decompression_fuzzer: a second frame's magic fed alone, the bytes after it a skippable
  // frame's, decoded as that skippable frame: 1 byte out fed whole, "corrupt" in pieces). So at
  // each frame's start a header that is not whole in the input waits in zstd_header and is
  // decoded alone once complete. Each frame's magic is checked there too: zstd's own or a
  // skippable frame's. libzstd also decodes legacy frames (v0.5's 25 b5 2f fd, ...), but only
  // when the whole frame arrives in one call, so the same file passed or failed by its block
  // boundaries; now another magic fails, whatever the cut, at the frame's first byte.
  void zstd_block(std::string_view in, std::string& out) {
    size_t pos = 0;
    for (;;) {
      if (zstd_hint == 0 && pos < in.size()) {
        if (zstd_header.empty()) {
          zstd_header_at = consumed + pos;
          const std::string_view rest = in.substr(pos);
          check_zstd_magic(rest);
          const size_t header = zstd_frame_header_size(rest);
          if (header != 0 && header <= rest.size()) {  // whole here: decode the frame on
            pos += zstd_decode(rest, zstd_header_at, out);
            if (pos >= in.size() && !zstd_output_full) return;
            continue;
          }
        }
        const size_t header = gather_zstd_header(in, pos);
        if (header == 0 || zstd_header.size() < header) return;  // the rest comes with a block
        const std::string whole = std::move(zstd_header);
        zstd_header.clear();
        for (size_t done = 0; done < whole.size();) {
          done += zstd_decode(std::string_view(whole).substr(done), zstd_header_at + done, out);
        }
        continue;
      }
      pos += zstd_decode(in.substr(pos), consumed + pos, out);
      if (pos >= in.size() && !zstd_output_full) return;
    }
  }

  // Fails at the frame's first byte unless `head` (its first bytes) may start a zstd frame or a
  // skippable frame.
  void check_zstd_magic(std::string_view head) const {
    if (head.size() < 4) return;
    if (!starts_with(head, kZstdMagic, sizeof kZstdMagic) &&
        !is_skippable_frame_prefix(head.substr(0, 4))) {
      fail(zstd_header_at, "corrupt zstd data: Unknown frame descriptor");
    }
  }

  // Moves bytes of `in` from `pos` into zstd_header until the header is complete or `in` ends;
  // returns the header's size (0 while still unknown).
  size_t gather_zstd_header(std::string_view in, size_t& pos) {
    for (;;) {
      size_t header = zstd_frame_header_size(zstd_header);
      const size_t want = header != 0 ? header : (zstd_header.size() < 4 ? 4 : 5);
      const size_t take = std::min(in.size() - pos, want - zstd_header.size());
      zstd_header.append(in.substr(pos, take));
      pos += take;
      check_zstd_magic(zstd_header);
      header = zstd_frame_header_size(zstd_header);
      if (pos == in.size() || (header != 0 && zstd_header.size() >= header)) return header;
    }
  }

  // Decodes `in` (its first byte at `offset` in the compressed input) until it is consumed, or to
  // the end of a frame when input follows it (zstd_block checks the next frame's magic). Returns
  // the bytes of `in` consumed.
  size_t zstd_decode(std::string_view in, uint64_t offset, std::string& out) {
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    const size_t start = out.size();
    size_t used = start;
    // Called with no input only to drain output the decoder still holds; at a frame boundary
    // an empty call would instead report "more input needed" for a next frame.
    if (in.empty() && !zstd_output_full) return 0;
    for (;;) {
      size_t want = std::max({kMinOutputChunk, ZSTD_DStreamOutSize(), 4 * (in.size() - input.pos)});
      ZSTD_outBuffer output{room(out, used, want), want, 0};
      size_t rc = ZSTD_decompressStream(zds, &output, &input);
      used += output.pos;
      if (ZSTD_isError(rc)) {
        out.resize(used);
        fail(offset + input.pos, std::string("corrupt zstd data: ") + ZSTD_getErrorName(rc));
      }
      zstd_hint = rc;
      // A full output buffer may leave bytes inside the decoder, unless the frame ended: rc 0
      // means decoded and fully flushed (zstd.h). A frame whose output filled the buffer
      // exactly (131,072 bytes, ZSTD_DStreamOutSize) went on into the next frame's bytes in
      // this call, past its magic check, or, at the input's end, read as truncated.
      zstd_output_full = rc != 0 && output.pos == output.size;
      guard(out, used, offset + input.pos, decoded + (used - start));
      // Done at a frame's end, or when all input is consumed and nothing is left inside.
      if (rc == 0 || (!zstd_output_full && input.pos == input.size)) break;
    }
    out.resize(used);
    return input.pos;
  }

  // Streams follow one another (pbzip2, `cat a.bz2 b.bz2`); zero bytes after the last one are
  // padding, as for gzip.
  void bzip2_block(std::string_view in, std::string& out) {
    size_t pos = 0;
    const size_t start = out.size();
    size_t used = start;
    bool output_full = false;
    while (pos < in.size() || output_full) {
      if (!bz_in_stream) {
        if (in[pos] == '\0' || bz_padding) {
          bz_padding = true;
          for (; pos < in.size(); ++pos) {
            if (in[pos] != '\0')
              fail(consumed + pos, "unexpected bytes after the last bzip2 stream");
          }
          break;
        }
        BZ2_bzDecompressEnd(&bz);
        bz_ready = false;
        bzip2_init();
      }
      size_t want = std::max(kMinOutputChunk, 6 * (in.size() - pos));
      want = std::min<size_t>(want, 1u << 30);
      bz.next_in = const_cast<char*>(in.data() + pos);
      bz.avail_in = static_cast<unsigned>(std::min<size_t>(in.size() - pos, 1u << 30));
      bz.next_out = room(out, used, want);
      bz.avail_out = static_cast<unsigned>(want);
      const size_t in_before = bz.avail_in;
      const int rc = BZ2_bzDecompress(&bz);
      pos += in_before - bz.avail_in;
      used += want - bz.avail_out;
      output_full = bz.avail_out == 0;
      guard(out, used, consumed + pos, decoded + (used - start));
      if (rc == BZ_STREAM_END) {
        bz_in_stream = false;
        output_full = false;
      } else if (rc == BZ_MEM_ERROR) {
        throw std::bad_alloc();
      } else if (rc == BZ_DATA_ERROR_MAGIC) {
        out.resize(used);
        fail(consumed + pos, "unexpected bytes after the last bzip2 stream");
      } else if (rc != BZ_OK) {
        out.resize(used);
        fail(consumed + pos, "corrupt bzip2 data (libbz2 error " + std::to_string(rc) + ")");
      }
    }
    out.resize(used);
  }

  // Throws ParseError, `out` cut to its `used` decoded bytes, if `output_bytes` (the stream's
  // whole output so far) from the first `input_bytes` compressed bytes is a decompression bomb's
  // (DecompressionLimits).
  void guard(std::string& out, size_t used, uint64_t input_bytes, uint64_t output_bytes) const {
    if (output_bytes <= limits.floor_bytes) return;
    if (output_bytes / std::max<uint64_t>(input_bytes, 1) <= limits.max_ratio) return;
    out.resize(used);
    const char* format = compression == Compression::kGzip   ? "gzip"
                         : compression == Compression::kZstd ? "zstd"
                                                             : "bzip2";
    fail(input_bytes, std::string(format) + " data decompresses to more than " +
                          std::to_string(limits.max_ratio) + " times its compressed size (" +
                          std::to_string(output_bytes) + " bytes from the first " +
                          std::to_string(input_bytes) +
                          "): not a peak list or FASTA (a decompression bomb?)");
  }

  void end() {
    if (compression == Compression::kBzip2 && bz_in_stream) {
      fail(consumed, "truncated bzip2 data: the input ends inside a stream");
    }
    if (compression == Compression::kGzip && gzip_state == GzipState::kInMember) {
      fail(consumed, "truncated gzip data: the stream ends inside a member");
    }
    if (compression == Compression::kZstd && (zstd_hint != 0 || !zstd_header.empty())) {
      fail(consumed, "truncated zstd data: the stream ends inside a frame");
    }
  }
};

Decompressor::Decompressor(std::string file_name, DecompressionLimits limits)
    : impl_(std::make_unique<Impl>(std::move(file_name), limits)) {}

Decompressor::~Decompressor() = default;

void Decompressor::feed(std::string_view block, std::string& out) {
  Impl& d = *impl_;
  if (d.decided) {
    d.decode(block, out);
    return;
  }
  // Undecided: look at the bytes kept so far plus this block.
  d.head.append(block.substr(0, sizeof kZstdMagic));
  std::string_view head = d.head;
  if (is_proper_prefix(head, kGzipMagic, sizeof kGzipMagic) ||
      is_proper_prefix(head, kZstdMagic, sizeof kZstdMagic) ||
      (head.size() < 4 && is_bzip2_prefix(head)) ||
      (head.size() < 4 && is_skippable_frame_prefix(head))) {
    // Still ambiguous: the whole block went into head (it was shorter than the magic).
    return;
  }
  d.start(detect_compression(head));
  // head holds the previous bytes plus up to 4 of this block; decode the previous bytes, then
  // the block itself.
  size_t from_block = std::min(block.size(), sizeof kZstdMagic);
  std::string kept = std::move(d.head);
  kept.resize(kept.size() - from_block);
  d.decode(kept, out);
  d.decode(block, out);
}

std::string_view Decompressor::feed_view(std::string_view block, std::string& scratch) {
  Impl& d = *impl_;
  if (!d.decided && d.head.empty() && block.size() >= sizeof kZstdMagic &&
      detect_compression(block) == Compression::kNone) {
    d.start(Compression::kNone);
  }
  if (d.decided && d.compression == Compression::kNone) {
    d.consumed += block.size();
    return block;
  }
  scratch.clear();
  feed(block, scratch);
  return scratch;
}

void Decompressor::finish(std::string& out) {
  Impl& d = *impl_;
  if (!d.decided) {
    std::string kept = std::move(d.head);
    d.start(Compression::kNone);
    d.decode(kept, out);
  }
  d.end();
}

void Decompressor::finish() {
  Impl& d = *impl_;
  if (!d.decided && !d.head.empty()) {
    d.fail(0, "input of " + std::to_string(d.head.size()) +
                  " bytes is too short to tell its compression; use finish(out)");
  }
  std::string none;
  finish(none);
}

Compression Decompressor::compression() const {
  return impl_->compression;
}

uint64_t Decompressor::compressed_bytes() const {
  return impl_->consumed;
}

}  // namespace ionflow
