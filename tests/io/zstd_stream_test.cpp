// ZstdOutputStream: round trip through ZSTD_decompress, the checksum flag in the frame header,
// `zstd -t` on the file (and its refusal once a byte is flipped), closing on destruction, and
// errors as std::runtime_error.
#include <gtest/gtest.h>
#include <zstd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "io/result_writer.hpp"
#include "io/zstd_stream.hpp"
#include "result_fixture.hpp"

namespace ionflow {
namespace {

using result_testing::read_text;
using result_testing::run_command;
using result_testing::ScratchDir;

// ~3 MB of TSV-like text: compressible, larger than zstd's 128 KiB input buffer many times over.
std::string sample_text() {
  std::string text;
  for (int i = 0; i < 40000; ++i) {
    text += std::to_string(i) +
            "\tBSA1.mzML\tcontrollerType=0 controllerNumber=1 scan=" + std::to_string(i * 3 + 1) +
            "\tLVNELTEFAK\t" + std::to_string(i % 97 * 0.125) + "\n";
  }
  return text;
}

std::string decompress(const std::string& frame, std::size_t expected_size) {
  std::string out(expected_size + 16, '\0');
  const std::size_t n = ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size());
  EXPECT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
  out.resize(ZSTD_isError(n) ? 0 : n);
  return out;
}

TEST(ZstdStream, FileRoundTripsAndZstdAcceptsIt) {
  ScratchDir dir("zstd_file");
  const std::string path = dir.file("results.tsv.zst");
  const std::string text = sample_text();
  {
    ZstdOutputStream out(path);
    out << text.substr(0, 1000);                                     // operator<<
    out.write(text.data() + 1000, 500000);                           // write()
    for (std::size_t i = 501000; i < 501100; ++i) out.put(text[i]);  // single characters
    out << text.substr(501100);
    out.close();
  }
  const std::string frame = read_text(path);
  EXPECT_LT(frame.size(), text.size() / 5);  // repetitive text compresses well at level 3
  // RFC 8878 §3.1.1: magic 0xFD2FB528 (little endian), then the Frame_Header_Descriptor whose
  // bit 2 is Content_Checksum_Flag.
  ASSERT_GT(frame.size(), 5u);
  EXPECT_EQ(frame.substr(0, 4), std::string("\x28\xB5\x2F\xFD", 4));
  EXPECT_EQ((static_cast<unsigned char>(frame[4]) >> 2) & 1u, 1u);
  EXPECT_EQ(decompress(frame, text.size()), text);
  const auto test = run_command("zstd -t '" + path + "'");
  EXPECT_EQ(test.exit_code, 0) << test.output;
}

TEST(ZstdStream, FlippedByteFailsZstdTest) {
  ScratchDir dir("zstd_corrupt");
  const std::string path = dir.file("corrupt.zst");
  {
    ZstdOutputStream out(path);
    out << sample_text();
  }  // the destructor ends the frame
  std::string frame = read_text(path);
  frame[frame.size() / 2] = static_cast<char>(frame[frame.size() / 2] ^ 0x5a);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << frame;
  const auto test = run_command("zstd -t '" + path + "'");
  EXPECT_NE(test.exit_code, 0) << test.output;
}

TEST(ZstdStream, SinkStreamGetsOneCompleteFrame) {
  std::ostringstream sink;
  {
    ZstdOutputStream out(sink, 19);
    out << "psm_id\tfilename\n1\tBSA1.mzML\n";
  }
  EXPECT_EQ(decompress(sink.str(), 64), "psm_id\tfilename\n1\tBSA1.mzML\n");
}

TEST(ZstdStream, EmptyStreamIsAValidEmptyFrame) {
  std::ostringstream sink;
  ZstdOutputStream out(sink);
  out.close();
  out.close();  // idempotent
  EXPECT_FALSE(sink.str().empty());
  EXPECT_EQ(decompress(sink.str(), 0), "");
}

TEST(ZstdStream, ResultWriterOutputSurvivesCompression) {
  ScratchDir dir("zstd_tsv");
  const SearchParameters params = result_testing::fixture_parameters();
  const ResultContext context = result_testing::fixture_context(&params, dir);
  std::ostringstream plain;
  write_tsv(plain, result_testing::fixture_psms(), context);
  std::ostringstream sink;
  {
    ZstdOutputStream out(sink);
    write_tsv(out, result_testing::fixture_psms(), context);
    out.close();
  }
  EXPECT_EQ(decompress(sink.str(), plain.str().size()), plain.str());
}

TEST(ZstdStream, ErrorsThrowRuntimeError) {
  EXPECT_THROW(ZstdOutputStream("/nonexistent-dir/x.zst"), std::runtime_error);
  std::ostringstream sink;
  EXPECT_THROW(ZstdOutputStream(sink, 1000), std::runtime_error);

  std::ostringstream broken;
  broken.setstate(std::ios::badbit);
  ZstdOutputStream out(broken);
  const std::string text = sample_text();
  EXPECT_THROW(out.write(text.data(), static_cast<std::streamsize>(text.size())),
               std::runtime_error);

  std::ostringstream ok;
  ZstdOutputStream closed(ok);
  closed.close();
  EXPECT_THROW(closed << "late", std::runtime_error);
}

}  // namespace
}  // namespace ionflow
