// Decompressor with bzip2 input: detection by the "BZh1".."BZh9" magic, streaming in blocks of
// any size, several streams one after another (as pbzip2 writes), and ParseError on corrupt or
// truncated data. The .bz2 excerpt was made with bzip2(1) 1.0.8 (`bzip2 -9`) from
// tests/data/ecoli_ms2_small_first5.mgf.
#include <bzlib.h>
#include <gtest/gtest.h>

#include <string>

#include "io/decompression.hpp"
#include "io/parse_error.hpp"
#include "io/spectrum_reader.hpp"
#include "io_test_support.hpp"

namespace ionflow {
namespace {

using io_testing::read_file;

std::string mgf() {
  return read_file(IONFLOW_TEST_DATA_DIR "/ecoli_ms2_small_first5.mgf");
}
std::string bz2() {
  return read_file(IONFLOW_TEST_DATA_DIR "/ecoli_ms2_small_first5.mgf.bz2");
}

std::string decode(std::string_view in, size_t block, const std::string& name = "in.bz2") {
  Decompressor d(name);
  std::string out;
  for (size_t i = 0; i < in.size(); i += block) d.feed(in.substr(i, block), out);
  d.finish(out);
  EXPECT_EQ(d.compression(), Compression::kBzip2);
  EXPECT_EQ(d.compressed_bytes(), in.size());
  return out;
}

std::string decode_error(std::string_view in, const std::string& name) {
  try {
    decode(in, 4096, name);
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), name);
    return e.what();
  }
  ADD_FAILURE() << "no ParseError";
  return "";
}

TEST(Bzip2Decompression, DetectsTheStreamMagic) {
  EXPECT_EQ(detect_compression(bz2()), Compression::kBzip2);
  EXPECT_EQ(detect_compression("BZh9"), Compression::kBzip2);
  EXPECT_EQ(detect_compression("BZh1"), Compression::kBzip2);
  EXPECT_EQ(detect_compression("BZh0"), Compression::kNone);  // block size digit is 1-9
  EXPECT_EQ(detect_compression("BZhx"), Compression::kNone);
  EXPECT_EQ(detect_compression("BZh"), Compression::kNone);  // too short to tell
  EXPECT_EQ(bz2().substr(0, 4), "BZh9");
}

TEST(Bzip2Decompression, DecodesTheRealExcerptInAnyBlockSize) {
  const std::string expected = mgf();
  ASSERT_EQ(expected.size(), 42177u);
  for (size_t block : {1u, 3u, 4u, 5u, 777u, 65536u}) {
    EXPECT_EQ(decode(bz2(), block), expected) << "block " << block;
  }
}

TEST(Bzip2Decompression, ReadsConcatenatedStreamsAndZeroPadding) {
  const std::string two = bz2() + bz2();
  EXPECT_EQ(decode(two, 1000), mgf() + mgf());
  EXPECT_EQ(decode(two, 1), mgf() + mgf());
  EXPECT_EQ(decode(bz2() + std::string(512, '\0'), 100), mgf());
}

TEST(Bzip2Decompression, TruncationAndCorruptionAreParseErrors) {
  const std::string packed = bz2();
  EXPECT_EQ(decode_error(packed.substr(0, packed.size() / 2), "half.mgf.bz2"),
            "half.mgf.bz2: byte " + std::to_string(packed.size() / 2) +
                ": truncated bzip2 data: the input ends inside a stream");
  // Every cut after the magic is reported.
  for (size_t n : {4u, 5u, 10u, 100u, 16899u}) {
    EXPECT_NE(decode_error(packed.substr(0, n), "cut.bz2").find("truncated bzip2 data"),
              std::string::npos)
        << n;
  }
  std::string damaged = packed;
  for (size_t i = 100; i < 140; ++i) damaged[i] = static_cast<char>(0x55);
  EXPECT_NE(decode_error(damaged, "bad.bz2").find("corrupt bzip2 data"), std::string::npos);
  EXPECT_NE(decode_error(packed + "garbage", "tail.bz2")
                .find("unexpected bytes after the last bzip2 stream"),
            std::string::npos);
}

// A bzip2-compressed peak list is read like the plain one: format detection sees the
// decompressed bytes.
TEST(Bzip2Decompression, CompressedMgfGivesTheSameSpectra) {
  auto read = [](const std::string& text) {
    auto reader = make_spectrum_reader(detect_peak_list_format(text), "x", 0);
    std::vector<RawSpectrum> spectra;
    reader->feed(text, spectra);
    reader->finish(spectra);
    return spectra;
  };
  const auto plain = read(mgf());
  const auto unpacked = read(decode(bz2(), 4096));
  ASSERT_EQ(plain.size(), 5u);
  ASSERT_EQ(unpacked.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(unpacked[i].native_id, plain[i].native_id);
    EXPECT_EQ(unpacked[i].mz, plain[i].mz);
  }
  EXPECT_EQ(unpacked[0].scan, 11461);
}

// One bzip2 stream of 80 MiB of zero bytes (about 100 bytes: a "decompression bomb") is refused
// with the default limits once its output passes 64 MiB, naming the file and both sizes,
// instead of expanding into memory.
TEST(Bzip2Decompression, ABombIsRefusedAtTheDefaultLimits) {
  const std::string zeros(80u << 20, '\0');
  std::string packed(1 << 20, '\0');
  unsigned packed_size = static_cast<unsigned>(packed.size());
  ASSERT_EQ(BZ2_bzBuffToBuffCompress(packed.data(), &packed_size, const_cast<char*>(zeros.data()),
                                     static_cast<unsigned>(zeros.size()), 9, 0, 0),
            BZ_OK);
  packed.resize(packed_size);
  ASSERT_LT(packed.size(), 1000u);
  const std::string error = decode_error(packed, "bomb.mgf.bz2");
  EXPECT_NE(error.find("bomb.mgf.bz2"), std::string::npos) << error;
  EXPECT_NE(error.find("bzip2 data decompresses to more than 1000 times its compressed size ("),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("(a decompression bomb?)"), std::string::npos) << error;
}

}  // namespace
}  // namespace ionflow
