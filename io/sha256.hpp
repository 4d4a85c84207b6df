// Sha256: streaming SHA-256 (FIPS 180-4) of a byte stream, so the reader actor can checksum each
// input file while it reads it (one pass, no second read).
//
// Contract: update() with consecutive chunks of any size, then hex_digest() once; the object is
// then spent (call reset() to reuse). Not thread-safe; one per stream. Never throws.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ionflow {

class Sha256 {
 public:
  Sha256() { reset(); }
  void reset();
  // Appends `bytes` to the message.
  void update(std::string_view bytes);
  // Finishes the message and returns the 64-character lower-case hex digest.
  std::string hex_digest();

 private:
  void compress(const unsigned char* block64);
  std::array<uint32_t, 8> state_{};
  std::array<unsigned char, 64> buffer_{};
  uint64_t length_bytes_ = 0;
  size_t buffered_ = 0;
};

// SHA-256 of a whole string, hex.
std::string sha256_hex(std::string_view bytes);

}  // namespace ionflow
