// SHA-256 against the FIPS 180-2 / NIST CSRC example vectors.
#include "io/sha256.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
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

// A file of 3,000,000 'a' (three 1 MiB blocks, the last short) hashes as the same bytes in
// memory; a missing file throws naming it.
TEST(Sha256, FileEqualsItsBytes) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "ionflow_sha256_file_test.txt";
  const std::string bytes(3000000, 'a');
  std::ofstream(path, std::ios::binary) << bytes;
  EXPECT_EQ(file_sha256_hex(path.string()), sha256_hex(bytes));
  std::filesystem::remove(path);
  try {
    file_sha256_hex(path.string());
    FAIL() << "expected runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), path.string() + ": cannot open to checksum");
  }
}

}  // namespace
}  // namespace ionflow
