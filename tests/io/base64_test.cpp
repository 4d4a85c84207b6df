#include "io/base64.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "io/mzml_reader.hpp"
#include "io_test_support.hpp"

namespace ionflow {
namespace {

// RFC 4648 section 10 test vectors.
TEST(Base64, Rfc4648Vectors) {
  const std::pair<const char*, const char*> vectors[] = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(base64_encode(plain), encoded);
    std::string out;
    ASSERT_TRUE(base64_decode(encoded, out)) << encoded;
    EXPECT_EQ(out, plain);
  }
}

TEST(Base64, PaddingRequiredAndWhitespaceSkipped) {
  std::string out;
  // xs:base64Binary: the non-whitespace characters number a multiple of 4.
  EXPECT_FALSE(base64_decode("Zm9vYg", out));
  EXPECT_FALSE(base64_decode("Zm9vYmE", out));
  ASSERT_TRUE(base64_decode("Zm9vYg==", out));
  EXPECT_EQ(out, "foob");
  ASSERT_TRUE(base64_decode(" Zm9v\r\n\tYmE=\n", out));
  EXPECT_EQ(out, "fooba");
  ASSERT_TRUE(base64_decode("Zm9vYg= =", out));  // whitespace between padding characters
  EXPECT_EQ(out, "foob");
}

TEST(Base64, RejectsInvalidText) {
  std::string out;
  EXPECT_FALSE(base64_decode("Zm9v!mFy", out));  // outside the alphabet
  EXPECT_FALSE(base64_decode("Zm9vY", out));     // lone trailing character
  EXPECT_FALSE(base64_decode("Zm9vYg=", out));   // half the padding
  EXPECT_FALSE(base64_decode("Zg==Zg==", out));  // data after padding
  EXPECT_FALSE(base64_decode("Z===", out));      // padding after one character
  EXPECT_FALSE(base64_decode("Zm9-", out));      // base64url alphabet is not mzML's
}

// All 256 byte values, decoded from text split into two pieces at every position and with
// whitespace inside: the streaming decoder must give the same bytes as a one-piece decode.
TEST(Base64, StreamingSplitAtEveryPosition) {
  std::string raw;
  for (int i = 0; i < 256; ++i) raw.push_back(static_cast<char>(i));
  raw += "x";  // 257 bytes: the last group is padded
  const std::string encoded = base64_encode(raw);
  const std::string text =
      encoded.substr(0, 10) + "  " + encoded.substr(10, 66) + "\n" + encoded.substr(76);
  for (size_t cut = 0; cut <= text.size(); ++cut) {
    Base64Decoder decoder;
    std::string out;
    ASSERT_TRUE(decoder.feed(std::string_view(text).substr(0, cut), out));
    ASSERT_TRUE(decoder.feed(std::string_view(text).substr(cut), out));
    ASSERT_TRUE(decoder.finish(out));
    ASSERT_EQ(out, raw) << "cut at " << cut;
  }
  Base64Decoder decoder;
  std::string out;
  for (char c : text) ASSERT_TRUE(decoder.feed(std::string_view(&c, 1), out));
  ASSERT_TRUE(decoder.finish(out));
  EXPECT_EQ(out, raw);
}

TEST(Base64, DecoderStaysFailedUntilReset) {
  Base64Decoder decoder;
  std::string out;
  EXPECT_FALSE(decoder.feed("Zm#9", out));
  EXPECT_FALSE(decoder.feed("Zm9v", out));
  EXPECT_FALSE(decoder.finish(out));
  decoder.reset();
  out.clear();
  EXPECT_TRUE(decoder.feed("Zm9v", out));
  EXPECT_TRUE(decoder.finish(out));
  EXPECT_EQ(out, "foo");
}

// In an mzML: base64 text whose length is not a multiple of 4 is "bad base64"; well-formed base64
// of the wrong number of bytes for arrayLength x precision is "array length mismatch". The first
// spectrum of BSA1_three_ms2_param_groups.mzML (34 peaks) has a 364-character m/z array (272
// bytes of 64-bit floats, ending in one '='); the other two spectra stay readable.
TEST(Base64, MzmlWrongLengthTextIsBadBase64AndWrongByteCountIsALengthMismatch) {
  const std::string original =
      io_testing::read_file(IONFLOW_TEST_DATA_DIR "/BSA1_three_ms2_param_groups.mzML");
  const size_t text = original.find("<binary>AAAAYF1FbEAAAABAahBxQ") + 8;
  ASSERT_NE(text, std::string::npos + 8);
  const size_t end = original.find("</binary>", text);
  ASSERT_EQ(end - text, 364u);
  ASSERT_EQ(original[end - 1], '=');
  auto skipped = [](const std::string& mzml) {
    auto reader = make_mzml_reader("edited.mzML", 0);
    std::vector<RawSpectrum> spectra;
    reader->feed(mzml, spectra);
    reader->finish(spectra);
    EXPECT_EQ(spectra.size(), 2u);
    return reader->stats().skipped;
  };
  // The '=' and the character before it cut: 362 characters, 90 groups and 2 left over (the
  // unpadded decoder made 271 bytes of them and said "array length mismatch").
  std::string cut = original;
  cut.erase(end - 2, 2);
  EXPECT_EQ(skipped(cut), (std::map<std::string, uint64_t>{{"bad base64", 1}}));
  // The first group removed: valid base64 of 269 bytes, not 34 x 8.
  std::string short_array = original;
  short_array.erase(text, 4);
  EXPECT_EQ(skipped(short_array), (std::map<std::string, uint64_t>{{"array length mismatch", 1}}));
}

}  // namespace
}  // namespace ionflow
