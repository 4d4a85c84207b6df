// SHA-256 against the FIPS 180-2 / NIST CSRC example vectors.
#include "io/sha256.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ionflow {
namespace {

TEST(Sha256, NistVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, StreamedInOddChunksEqualsOneShot) {
  // One million 'a' (FIPS 180-2 appendix B.3), fed in chunks of 1..97 bytes.
  Sha256 h;
  std::string block(97, 'a');
  size_t left = 1000000, step = 1;
  while (left > 0) {
    size_t n = std::min(left, step);
    h.update(std::string_view(block).substr(0, n));
    left -= n;
    step = step % 97 + 1;
  }
  EXPECT_EQ(h.hex_digest(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

}  // namespace
}  // namespace ionflow
