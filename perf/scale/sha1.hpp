// Sha1: streaming SHA-1 (FIPS 180-4, section 6.1) for the <fileChecksum> of indexed mzML, which
// the mzML 1.1 index schema (mzML1.1.2_idx.xsd) defines as the SHA-1 of the file up to and
// including the opening <fileChecksum> tag. Not for security.
//
// Usage: update() with the bytes in order, then hex() once (40 lower-case hex digits).
// Header-only; not thread-safe (one instance per stream). Checked against `sha1sum` by
// perf/scale/check_scale_set.sh.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace ionflow::scale {

class Sha1 {
 public:
  void update(std::string_view bytes) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    std::size_t n = bytes.size();
    length_bytes_ += n;
    if (buffered_ > 0) {
      std::size_t take = std::min(n, sizeof(block_) - buffered_);
      std::memcpy(block_ + buffered_, p, take);
      buffered_ += take;
      p += take;
      n -= take;
      if (buffered_ < sizeof(block_)) return;
      compress(block_);
      buffered_ = 0;
    }
    for (; n >= 64; p += 64, n -= 64) compress(p);
    std::memcpy(block_, p, n);
    buffered_ = n;
  }

  // Finishes the digest; the object must not be updated afterwards.
  std::string hex() {
    const uint64_t bits = length_bytes_ * 8;
    unsigned char pad[72] = {0x80};
    std::size_t pad_len = (buffered_ < 56 ? 56 - buffered_ : 120 - buffered_);
    for (int i = 0; i < 8; ++i) pad[pad_len + i] = static_cast<unsigned char>(bits >> (56 - 8 * i));
    const uint64_t saved = length_bytes_;
    update(std::string_view(reinterpret_cast<const char*>(pad), pad_len + 8));
    length_bytes_ = saved;
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (uint32_t word : h_) {
      for (int shift = 28; shift >= 0; shift -= 4) out.push_back(digits[(word >> shift) & 0xF]);
    }
    return out;
  }

 private:
  static uint32_t rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

  void compress(const unsigned char* b) {
    uint32_t w[80];
    for (int i = 0; i < 16; ++i) {
      w[i] = (uint32_t(b[4 * i]) << 24) | (uint32_t(b[4 * i + 1]) << 16) |
             (uint32_t(b[4 * i + 2]) << 8) | uint32_t(b[4 * i + 3]);
    }
    for (int i = 16; i < 80; ++i) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h_[0], bb = h_[1], c = h_[2], d = h_[3], e = h_[4];
    for (int i = 0; i < 80; ++i) {
      uint32_t f, k;
      if (i < 20) {
        f = (bb & c) | (~bb & d);
        k = 0x5A827999;
      } else if (i < 40) {
        f = bb ^ c ^ d;
        k = 0x6ED9EBA1;
      } else if (i < 60) {
        f = (bb & c) | (bb & d) | (c & d);
        k = 0x8F1BBCDC;
      } else {
        f = bb ^ c ^ d;
        k = 0xCA62C1D6;
      }
      uint32_t t = rotl(a, 5) + f + e + k + w[i];
      e = d;
      d = c;
      c = rotl(bb, 30);
      bb = a;
      a = t;
    }
    h_[0] += a;
    h_[1] += bb;
    h_[2] += c;
    h_[3] += d;
    h_[4] += e;
  }

  std::array<uint32_t, 5> h_ = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
  unsigned char block_[64] = {};
  std::size_t buffered_ = 0;
  uint64_t length_bytes_ = 0;
};

}  // namespace ionflow::scale
