// Decompressor: format detection from the first bytes, streaming gzip and zstd in blocks of any
// size, multi-member/multi-frame input, and ParseError on corrupt or truncated data.
#include "io/decompression.hpp"

#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <fstream>
#include <iterator>

#include "io/mgf_reader.hpp"
#include "io/parse_error.hpp"
#include "io_test_support.hpp"

namespace ionflow {
namespace {

using io_testing::gzip;
using io_testing::read_file;

std::string mgf_excerpt() {
  return read_file(IONFLOW_TEST_DATA_DIR "/ecoli_ms2_small_first5.mgf");
}

// One zstd frame (RFC 8878).
std::string zstd(std::string_view data, int level = 3) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), level);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

// Decodes `in` fed in blocks of `block` bytes.
std::string decode(std::string_view in, size_t block, Compression* detected = nullptr) {
  Decompressor d("in.dat");
  std::string out;
  for (size_t i = 0; i < in.size(); i += block) d.feed(in.substr(i, block), out);
  d.finish(out);
  if (detected != nullptr) *detected = d.compression();
  return out;
}

std::string decode_split(std::string_view in, size_t cut) {
  Decompressor d("in.dat");
  std::string out;
  d.feed(in.substr(0, cut), out);
  d.feed(in.substr(cut), out);
  d.finish(out);
  return out;
}

TEST(Decompression, DetectsFromMagicBytes) {
  EXPECT_EQ(detect_compression("\x1f\x8b\x08"), Compression::kGzip);
  EXPECT_EQ(detect_compression(std::string_view("\x28\xb5\x2f\xfd\x00", 5)), Compression::kZstd);
  EXPECT_EQ(detect_compression("BEGIN IONS"), Compression::kNone);
  EXPECT_EQ(detect_compression("<?xml"), Compression::kNone);
  EXPECT_EQ(detect_compression(""), Compression::kNone);
  EXPECT_EQ(detect_compression("\x28\xb5\x2f"), Compression::kNone);  // too short to tell
  EXPECT_EQ(detect_compression(gzip("x")), Compression::kGzip);
  EXPECT_EQ(detect_compression(zstd("x")), Compression::kZstd);
  EXPECT_EQ(detect_compression("\x50\x2a\x4d\x18"), Compression::kZstd);  // skippable frame
  EXPECT_EQ(detect_compression("\x5f\x2a\x4d\x18"), Compression::kZstd);
  EXPECT_EQ(detect_compression("\x60\x2a\x4d\x18"), Compression::kNone);
}

// A skippable frame (RFC 8878 section 3.1.2: magic 0x184D2A5?, 4-byte little-endian size, data)
// before the data frame, as pzstd writes, is skipped.
TEST(Decompression, ZstdSkippableFrameFirst) {
  std::string text = "BEGIN IONS\nPEPMASS=500.25\n100.5 10\nEND IONS\n";
  std::string skippable("\x50\x2a\x4d\x18\x03\x00\x00\x00xyz", 11);
  std::string packed = skippable + zstd(text);
  for (size_t block : {size_t{1}, size_t{3}, size_t{1000}}) {
    Compression c = Compression::kNone;
    EXPECT_EQ(decode(packed, block, &c), text);
    EXPECT_EQ(c, Compression::kZstd);
  }
  EXPECT_EQ(decode("P*", 1), "P*");  // a 2-byte text starting like the magic passes through
}

// Found by decompression_fuzzer (2,498,244 executions, 2026-12-04): a skippable frame followed
// by bytes that are no zstd frame ("%\xb5/\xfd") was accepted fed whole and refused in pieces.
// Every cut must give the same verdict, naming the byte where the bad frame starts.
TEST(Decompression, BadFrameAfterASkippableFrameFailsWhateverTheBlocks) {
  const std::string input(
      "\x50\x2a\x4d\x18\x04\x00\x00\x00\x00\xa2\x1f\x30\x25\xb5\x2f\xfd"
      "\x00\xe5\x31\x32",
      20);
  for (size_t block : {size_t{1}, size_t{2}, size_t{3}, size_t{5}, size_t{13}, input.size()}) {
    SCOPED_TRACE(block);
    try {
      const std::string out = decode(input, block);
      ADD_FAILURE() << "accepted, " << out.size() << " bytes out";
    } catch (const ParseError& e) {
      EXPECT_NE(std::string(e.what()).find("zstd"), std::string::npos) << e.what();
    }
  }
}

// Found by decompression_fuzzer: a one-byte frame, then a frame whose header (FCS 6477) is
// followed by bytes that also read as a skippable frame (50 2a 4d 18) and a raw block far beyond
// the window. libzstd's single-pass shortcut, reached when a header completes in a later call
// than its magic, decoded the skippable frame instead: accepted whole (1 byte), corrupt in pieces.
TEST(Decompression, AFrameHeaderCutAnywhereDecodesTheSameFrame) {
  const std::string input(
      "\x28\xb5\x2f\xfd\x00\x4c\x0b\x00\x00\x00\x28\xb5\x2f\xfd\x50\x2a\x4d\x18\x10\x00"
      "\x00\x00\x50\x2a\x4d\x18\x00\x2a\x4d\x18\x00\x00\x18\x00\x00\x00\x00\x50",
      38);
  for (size_t block : {size_t{1}, size_t{2}, size_t{3}, size_t{5}, size_t{11}, size_t{13},
                       size_t{20}, input.size()}) {
    SCOPED_TRACE(block);
    try {
      const std::string out = decode(input, block);
      ADD_FAILURE() << "accepted, " << out.size() << " bytes out";
    } catch (const ParseError& e) {
      EXPECT_NE(std::string(e.what()).find("corrupt zstd data"), std::string::npos) << e.what();
    }
  }
  // Two good frames with the second's header cut at every byte: the same bytes out.
  const std::string a = zstd("first frame "), b = zstd("second frame");
  for (size_t cut = a.size(); cut <= a.size() + 8; ++cut) {
    EXPECT_EQ(decode_split(a + b, cut), "first frame second frame") << cut;
  }
}

// Found by review: a frame whose output fills the decoder's buffer exactly (ZSTD_DStreamOutSize,
// 131,072 bytes) was refused as truncated, and the next frame's bytes were decoded in the same
// call, past the magic check (a legacy frame after it passed or failed by the cut).
TEST(Decompression, AFrameFillingTheOutputBufferExactlyEndsThere) {
  std::string text(ZSTD_DStreamOutSize(), 'a');
  for (size_t i = 0; i < text.size(); i += 7) text[i] = static_cast<char>('a' + i % 23);
  const std::string frame = zstd(text);
  for (size_t block : {size_t{1}, size_t{5}, size_t{97}, size_t{4096}, frame.size()}) {
    EXPECT_EQ(decode(frame, block), text) << block;
    EXPECT_EQ(decode(frame + zstd("tail"), block), text + "tail") << block;
  }
  const std::string legacy = frame + std::string("\x25\xb5\x2f\xfd\x00\x00\x00\x00", 8);
  for (size_t cut : {frame.size() - 2, frame.size(), frame.size() + 2, legacy.size()}) {
    try {
      const std::string out = decode_split(legacy, cut);
      ADD_FAILURE() << "accepted at cut " << cut << ", " << out.size() << " bytes";
    } catch (const ParseError& e) {
      EXPECT_NE(std::string(e.what()).find("Unknown frame descriptor"), std::string::npos)
          << cut << ": " << e.what();
    }
  }
}

TEST(Decompression, GzipRoundTripInBlocksOfAnySize) {
  std::string mgf = mgf_excerpt();
  std::string gz = gzip(mgf);
  for (size_t block : {size_t{1}, size_t{2}, size_t{3}, size_t{5}, size_t{4096}, gz.size()}) {
    Compression c = Compression::kNone;
    EXPECT_EQ(decode(gz, block, &c), mgf) << "block " << block;
    EXPECT_EQ(c, Compression::kGzip);
  }
}

TEST(Decompression, ZstdRoundTripInBlocksOfAnySize) {
  std::string mgf = mgf_excerpt();
  std::string zst = zstd(mgf, 19);
  for (size_t block : {size_t{1}, size_t{2}, size_t{3}, size_t{5}, size_t{4096}, zst.size()}) {
    Compression c = Compression::kNone;
    EXPECT_EQ(decode(zst, block, &c), mgf) << "block " << block;
    EXPECT_EQ(c, Compression::kZstd);
  }
}

TEST(Decompression, SplitInTwoAtEveryBytePosition) {
  std::string text = "BEGIN IONS\nPEPMASS=500.25\n100.5 10\nEND IONS\n";
  for (const std::string& packed : {gzip(text), zstd(text), text}) {
    for (size_t cut = 0; cut <= packed.size(); ++cut) {
      EXPECT_EQ(decode_split(packed, cut), text) << "cut " << cut;
    }
  }
}

TEST(Decompression, HighlyCompressibleInputGrowsTheOutput) {
  std::string zeros(5'000'000, 'A');
  EXPECT_EQ(decode(gzip(zeros, 9), 1 << 20), zeros);
  EXPECT_EQ(decode(zstd(zeros, 19), 1 << 20), zeros);
}

// With tight limits (1 MiB floor, 100:1) 8 MiB of one letter is refused as gzip (about 1000:1)
// and as zstd (about 30,000:1), while a real MGF (about 3:1) still decodes: the limit is a ratio
// past a floor, so highly compressible real data is never refused for its size alone.
TEST(Decompression, OutputFarBeyondTheCompressedSizeIsRefusedPastTheFloor) {
  const DecompressionLimits tight{1u << 20, 100};
  const std::string letters(8u << 20, 'A');
  for (const std::string& packed : {gzip(letters, 9), zstd(letters, 19)}) {
    Decompressor d("bomb.dat", tight);
    std::string out;
    try {
      d.feed(packed, out);
      d.finish(out);
      ADD_FAILURE() << "no ParseError";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.file(), "bomb.dat");
      EXPECT_NE(std::string(e.what()).find("more than 100 times its compressed size"),
                std::string::npos)
          << e.what();
    }
    EXPECT_LE(out.size(), (1u << 20) + (4u << 20));  // stopped near the floor, not at 8 MiB
  }
  Decompressor real("real.mgf.gz", tight);
  std::string out;
  real.feed(gzip(mgf_excerpt()), out);
  real.finish(out);
  EXPECT_EQ(out, mgf_excerpt());
}

TEST(Decompression, MultiMemberGzipAndMultiFrameZstd) {
  std::string a = "first part\n";
  std::string b = "second part\n";
  std::string c = "third part\n";
  std::string gz = gzip(a) + gzip(b) + gzip(c);
  std::string zst = zstd(a) + zstd(b) + zstd(c);
  for (size_t block : {size_t{1}, size_t{7}, size_t{1000}}) {
    EXPECT_EQ(decode(gz, block), a + b + c);
    EXPECT_EQ(decode(zst, block), a + b + c);
  }
  // Zero padding after the last member is ignored, as by gzip(1).
  EXPECT_EQ(decode(gz + std::string(512, '\0'), 100), a + b + c);
}

TEST(Decompression, PlainInputPassesThrough) {
  std::string mgf = mgf_excerpt();
  Compression c = Compression::kGzip;
  EXPECT_EQ(decode(mgf, 1, &c), mgf);
  EXPECT_EQ(c, Compression::kNone);
  EXPECT_EQ(decode("", 1), "");
  // Shorter than the magic numbers, starting like them: kept until finish(out).
  EXPECT_EQ(decode("(", 1), "(");
  EXPECT_EQ(decode("\x1f", 1), "\x1f");
  EXPECT_EQ(decode("(\xb5/", 1), "(\xb5/");
  EXPECT_EQ(decode("ab", 1), "ab");
}

TEST(Decompression, FeedViewReturnsPlainBlocksInPlaceAndDecodesCompressedOnes) {
  const std::string mgf = mgf_excerpt();
  const std::string_view first = std::string_view(mgf).substr(0, 100);
  const std::string_view rest = std::string_view(mgf).substr(100);
  Decompressor plain("plain.mgf");
  std::string scratch;
  const std::string_view a = plain.feed_view(first, scratch);
  EXPECT_EQ(a.data(), first.data());  // the block itself, not a copy
  EXPECT_EQ(a.size(), 100u);
  EXPECT_EQ(plain.feed_view(rest, scratch).data(), rest.data());
  EXPECT_TRUE(scratch.empty());
  EXPECT_EQ(plain.compression(), Compression::kNone);
  EXPECT_EQ(plain.compressed_bytes(), mgf.size());

  // Undecided first bytes ("\x1f" could start gzip) are held, then come out with the next block.
  Decompressor held("held.mgf");
  EXPECT_EQ(held.feed_view("\x1f", scratch), "");
  EXPECT_EQ(held.feed_view("abc", scratch),
            "\x1f"
            "abc");

  const std::string packed = gzip(mgf);
  Decompressor gz("excerpt.mgf.gz");
  std::string out;
  for (size_t at = 0; at < packed.size(); at += 1000) {
    out += gz.feed_view(std::string_view(packed).substr(at, 1000), scratch);
  }
  gz.finish();
  EXPECT_EQ(out, mgf);
  EXPECT_EQ(gz.compression(), Compression::kGzip);
}

TEST(Decompression, FinishWithoutOutputRefusesToDropUndecidedBytes) {
  Decompressor d("short.mgf");
  std::string out;
  d.feed("(", out);
  EXPECT_EQ(out, "");
  EXPECT_THROW(d.finish(), ParseError);

  Decompressor plain("plain.mgf");
  plain.feed("BEGIN", out);
  EXPECT_EQ(out, "BEGIN");
  EXPECT_NO_THROW(plain.finish());
}

TEST(Decompression, CommittedGzipFileDecodesToTheExcerpt) {
  std::string gz = read_file(IONFLOW_TEST_DATA_DIR "/ecoli_ms2_small_first5.mgf.gz");
  EXPECT_EQ(decode(gz, 1000), mgf_excerpt());
}

// The same MGF plain, gzip and zstd gives the same spectra.
TEST(Decompression, CompressedMgfParsesIdentically) {
  std::string mgf = mgf_excerpt();
  auto spectra_of = [](std::string_view file_bytes) {
    Decompressor d("x");
    auto reader = make_mgf_reader("x", 0);
    std::vector<RawSpectrum> spectra;
    std::string text;
    for (size_t i = 0; i < file_bytes.size(); i += 777) {
      text.clear();
      d.feed(file_bytes.substr(i, 777), text);
      reader->feed(text, spectra);
    }
    text.clear();
    d.finish(text);
    reader->feed(text, spectra);
    reader->finish(spectra);
    return spectra;
  };
  std::vector<RawSpectrum> plain = spectra_of(mgf);
  ASSERT_EQ(plain.size(), 5u);
  for (const std::string& packed : {gzip(mgf), zstd(mgf)}) {
    std::vector<RawSpectrum> other = spectra_of(packed);
    ASSERT_EQ(other.size(), plain.size());
    for (size_t i = 0; i < plain.size(); ++i) {
      EXPECT_EQ(other[i].native_id, plain[i].native_id);
      EXPECT_EQ(other[i].precursor_mz, plain[i].precursor_mz);
      EXPECT_EQ(other[i].mz, plain[i].mz);
      EXPECT_EQ(other[i].intensity, plain[i].intensity);
    }
  }
}

// Expects ParseError from decoding `in` (fed in 1000-byte blocks) naming the file.
ParseError decode_error(std::string_view in, const std::string& file = "run1.mgf.gz") {
  Decompressor d(file);
  std::string out;
  try {
    for (size_t i = 0; i < in.size(); i += 1000) d.feed(in.substr(i, 1000), out);
    d.finish(out);
  } catch (const ParseError& e) {
    return e;
  }
  ADD_FAILURE() << "no ParseError";
  return ParseError(file, 0, 0, "none");
}

TEST(Decompression, CorruptGzipNamesFileAndOffset) {
  std::string gz = gzip(mgf_excerpt());
  gz[gz.size() / 2] ^= 0x55;
  gz[gz.size() / 2 + 1] ^= 0x55;
  ParseError e = decode_error(gz);
  EXPECT_EQ(e.file(), "run1.mgf.gz");
  EXPECT_EQ(e.line(), 0u);
  EXPECT_GT(e.byte_offset(), 10u);
  EXPECT_LE(e.byte_offset(), gz.size());
  EXPECT_NE(std::string(e.what()).find("run1.mgf.gz: byte "), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("gzip"), std::string::npos) << e.what();

  // A bad header: compression method 9 instead of 8 (deflate) at byte 2; zlib reads method and
  // flags (bytes 2-3) before it checks.
  std::string bad_method = gzip("abc");
  bad_method[2] = 9;
  EXPECT_EQ(decode_error(bad_method).byte_offset(), 4u);

  // Corrupt CRC-32 in the trailer (RFC 1952 section 2.3.1).
  std::string bad_crc = gzip("abc");
  bad_crc[bad_crc.size() - 6] ^= 1;
  EXPECT_NE(std::string(decode_error(bad_crc).what()).find("incorrect data check"),
            std::string::npos);

  // Non-zero bytes after the last member.
  EXPECT_NE(std::string(decode_error(gzip("abc") + "junk").what()).find("after the last gzip"),
            std::string::npos);
}

// Damage that still decodes as deflate (here a byte of a stored block's data) shows only at the
// member's trailer (RFC 1952 section 2.3.1: CRC-32, then ISIZE), after its data: zlib's
// "incorrect data check" named that byte alone, as if the trailer were what was damaged. The
// message now says which field disagrees, that the data or the field may be what is damaged
// (ISIZE is checked after the CRC-32, so a wrong length alone is the field's), and names the
// member's first byte (here the second member's).
TEST(Decompression, DamageSeenOnlyByTheTrailerNamesTheMember) {
  const std::string first = gzip("BEGIN IONS\n");
  std::string second = gzip(mgf_excerpt(), 0);  // level 0: stored blocks, no Huffman codes
  second[second.size() / 2] ^= 0x20;
  const std::string both = first + second;
  ParseError e = decode_error(both);
  EXPECT_EQ(e.byte_offset(), both.size() - 4);  // zlib has read the CRC-32
  EXPECT_EQ(std::string(e.what()),
            "run1.mgf.gz: byte " + std::to_string(both.size() - 4) +
                ": corrupt gzip data: incorrect data check (the CRC-32 at the end of the gzip "
                "member that starts at byte " +
                std::to_string(first.size()) +
                " does not match its decompressed data: the member's data is damaged where "
                "deflate could not tell, or the CRC-32 itself is)");

  // ISIZE, the member's length modulo 2^32, wrong in the first member.
  std::string bad_size = first;
  bad_size[bad_size.size() - 1] ^= 1;
  ParseError size_error = decode_error(bad_size + gzip(mgf_excerpt()));
  EXPECT_EQ(size_error.byte_offset(), first.size());
  EXPECT_NE(std::string(size_error.what())
                .find("corrupt gzip data: incorrect length check (the length recorded at the end "
                      "of the gzip member that starts at byte 0 does not match its decompressed "
                      "size, though its CRC-32 does: the length field itself is likely damaged)"),
            std::string::npos)
      << size_error.what();
}

TEST(Decompression, TruncatedGzipAndZstdThrowAtFinish) {
  std::string mgf = mgf_excerpt();
  std::string gz = gzip(mgf);
  ParseError e = decode_error(std::string_view(gz).substr(0, gz.size() - 20));
  EXPECT_EQ(e.byte_offset(), gz.size() - 20);
  EXPECT_NE(std::string(e.what()).find("truncated gzip"), std::string::npos) << e.what();
  EXPECT_NE(std::string(decode_error(std::string_view(gz).substr(0, 2)).what()).find("truncated"),
            std::string::npos);

  std::string zst = zstd(mgf);
  ParseError z = decode_error(std::string_view(zst).substr(0, zst.size() / 2), "run1.mgf.zst");
  EXPECT_EQ(z.file(), "run1.mgf.zst");
  EXPECT_EQ(z.byte_offset(), zst.size() / 2);
  EXPECT_NE(std::string(z.what()).find("truncated zstd"), std::string::npos) << z.what();
}

TEST(Decompression, CorruptZstdNamesFile) {
  std::string zst = zstd(mgf_excerpt());
  for (size_t i = 20; i < 60; ++i) zst[i] = static_cast<char>(0xff);
  ParseError e = decode_error(zst, "run2.zst");
  EXPECT_EQ(e.file(), "run2.zst");
  EXPECT_NE(std::string(e.what()).find("corrupt zstd"), std::string::npos) << e.what();
  // Trailing garbage after the frame is not another frame.
  ParseError tail = decode_error(zstd("abc") + "garbage!", "run3.zst");
  EXPECT_NE(std::string(tail.what()).find("zstd"), std::string::npos) << tail.what();
}

// Every proper prefix of a compressed stream that shows the whole magic number (2 bytes for
// gzip, 4 for zstd; shorter ones pass through as text) is truncated: ParseError, never a crash or
// a silent short output.
TEST(Decompression, EveryTruncationIsReported) {
  std::string text = "BEGIN IONS\nPEPMASS=500.25\n100.5 10\n200.5 20\nEND IONS\n";
  for (const std::string& packed : {gzip(text), zstd(text)}) {
    size_t magic = detect_compression(packed) == Compression::kGzip ? 2 : 4;
    for (size_t n = magic; n < packed.size(); ++n) {
      Decompressor d("cut.gz");
      std::string out;
      EXPECT_THROW(
          {
            d.feed(std::string_view(packed).substr(0, n), out);
            d.finish(out);
          },
          ParseError)
          << "prefix of " << n << " bytes";
    }
  }
}

}  // namespace
}  // namespace ionflow
