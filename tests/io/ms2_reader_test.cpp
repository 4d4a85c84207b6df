// MS2 text reader: the real excerpt tests/data/BSA1_identified_excerpt.ms2 (the 15 spectra of
// BSA1_identified_excerpt.mzML, written as MGF by OpenMS FileConverter and converted with
// tests/data/tools/mgf_to_ms2.awk) gives the spectra of that mzML; hand-written records check
// two Z lines, I RTime, a precursor m/z from the Z line and the skip reasons.
#include "io/ms2_reader.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "io/peak_checks.hpp"
#include "io/spectrum_reader.hpp"
#include "io_test_support.hpp"

namespace ionflow {
namespace {

using io_testing::read_file;

std::vector<RawSpectrum> read_ms2(const std::string& text, size_t block,
                                  ReadStats* stats = nullptr) {
  EXPECT_EQ(detect_peak_list_format(text), PeakListFormat::kMs2);
  io_testing::PeakListRead r = io_testing::read_peak_list(text, "x.ms2", block, 1);
  if (stats != nullptr) *stats = r.stats;
  return std::move(r.spectra);
}

TEST(Ms2Reader, TheRealExcerptGivesTheMzmlSpectra) {
  const std::string mzml = read_file(IONFLOW_TEST_DATA_DIR "/BSA1_identified_excerpt.mzML");
  auto mzml_reader = make_spectrum_reader(PeakListFormat::kMzML, "excerpt.mzML", 1);
  std::vector<RawSpectrum> expected;
  mzml_reader->feed(mzml, expected);
  mzml_reader->finish(expected);
  ASSERT_EQ(expected.size(), 15u);

  const std::string text = read_file(IONFLOW_TEST_DATA_DIR "/BSA1_identified_excerpt.ms2");
  for (size_t block : {size_t{1} << 20, size_t{13}}) {
    ReadStats stats;
    const auto got = read_ms2(text, block, &stats);
    ASSERT_EQ(got.size(), 15u);
    EXPECT_EQ(stats.spectra_seen, 15u);
    EXPECT_TRUE(stats.skipped.empty());
    EXPECT_TRUE(stats.problems.empty());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].native_id, "scan=" + expected[i].native_id.substr(9));  // "spectrum=N"
      EXPECT_EQ(got[i].scan, expected[i].scan);
      EXPECT_NEAR(got[i].precursor_mz, expected[i].precursor_mz, 1e-9);
      EXPECT_EQ(got[i].precursor_charges, expected[i].precursor_charges);
      EXPECT_NEAR(got[i].rt_seconds, expected[i].rt_seconds, 1e-6);  // 10 digits of minutes
      ASSERT_EQ(got[i].mz.size(), expected[i].mz.size());
      for (size_t p = 0; p < got[i].mz.size(); ++p) {
        EXPECT_NEAR(got[i].mz[p], expected[i].mz[p], 1e-9);
        EXPECT_NEAR(got[i].intensity[p], expected[i].intensity[p],
                    1e-6 * expected[i].intensity[p]);  // OpenMS prints 7 digits
      }
    }
  }
}

TEST(Ms2Reader, TwoZLinesAreTwoCandidateCharges) {
  const std::string text =
      "H\tCreationDate\t2026-12-01\n"
      "H\tExtractor\tMakeMS2\n"
      "S\t000012\t000012\t500.25\n"
      "I\tRTime\t2.5\n"
      "I\tActivationType\tHCD\n"
      "Z\t2\t999.492724\n"
      "Z\t3\t1498.735448\n"
      "D\tseq\tPEPTIDE\n"
      "200.1 10\n"
      "300.2\t20.5\r\n"
      "S\t13\t13\n"  // no m/z field: from the Z line, (1000.5 + 1.00728) / 2
      "Z\t2\t1000.5\n"
      "150 1\n";
  ReadStats stats;
  const auto got = read_ms2(text, 5, &stats);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].native_id, "scan=12");
  EXPECT_EQ(got[0].scan, 12);
  EXPECT_DOUBLE_EQ(got[0].precursor_mz, 500.25);
  EXPECT_EQ(got[0].precursor_charges, (std::vector<int>{2, 3}));
  EXPECT_DOUBLE_EQ(got[0].rt_seconds, 150.0);
  EXPECT_EQ(got[0].activation, "HCD");
  EXPECT_EQ(got[0].mz, (std::vector<double>{200.1, 300.2}));
  EXPECT_EQ(got[0].intensity, (std::vector<float>{10.0f, 20.5f}));
  EXPECT_NEAR(got[1].precursor_mz, (1000.5 + 1.007276466621) / 2, 1e-12);
  EXPECT_LT(got[1].rt_seconds, 0.0);
  EXPECT_EQ(got[1].spectrum_index, 1u);
}

TEST(Ms2Reader, BadRecordsAreSkippedAndCounted) {
  const std::string text =
      "S\t1\t1\t500.0\nZ\t-2\t999\n100 1\n"                 // negative charge
      "S\t2\t2\t500.0\nZ\t2.5\t999\n100 1\n"                // bad charge
      "S\t3\t3\t500.0\nZ\tabc\t999\n100 1\n"                // bad charge
      "S\t4\t4\t500.0\nZ\t0\t999\n100 1\n"                  // unknown charge: kept
      "S\tx\t5\t500.0\n100 1\n"                             // bad S line
      "S\t6\t6\t500.0\n100 1\nxyz 2\n"                      // bad peak line
      "S\t7\t7\t500.0\nI\tRTime\tsoon\n100 1\n"             // bad I line
      "S\t8\t8\t500.0\n100\nnan 5\n-3 5\n200 7\n1e400 2\n"  // peaks: no intensity, NaN,
                                                            // negative, beyond the range
      "S\t9\t9\t500.0\n";                                   // no peaks
  ReadStats stats;
  const auto got = read_ms2(text, 1 << 20, &stats);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].scan, 4);
  EXPECT_TRUE(got[0].precursor_charges.empty());
  EXPECT_EQ(got[1].scan, 8);
  EXPECT_EQ(got[1].mz, (std::vector<double>{100.0, 200.0}));
  EXPECT_EQ(got[1].intensity, (std::vector<float>{1.0f, 7.0f}));
  EXPECT_EQ(stats.spectra_seen, 9u);
  EXPECT_EQ(stats.skipped.at(kSkipNegativeCharge), 1u);
  EXPECT_EQ(stats.skipped.at(kSkipBadCharge), 2u);
  EXPECT_EQ(stats.first_skipped_at.at(kSkipBadCharge), "line 5");
  EXPECT_EQ(stats.skipped.at("bad S line"), 1u);
  EXPECT_EQ(stats.skipped.at("bad peak line"), 1u);
  EXPECT_EQ(stats.skipped.at("bad I line"), 1u);
  EXPECT_EQ(stats.skipped.at(kSkipNoPeaks), 1u);
  EXPECT_EQ(stats.problems.at(kPeakWithoutIntensity), 1u);
  EXPECT_EQ(stats.problems.at(kDroppedBadMz), 3u);  // "1e400" is infinite, not a bad line
  EXPECT_EQ(stats.first_problem_at.at(kPeakWithoutIntensity), "line 22");
  // The warnings count in the singular after one ("1 peak line", not "1 peak lines").
  EXPECT_EQ(read_problem_warnings("x.ms2", stats),
            (std::vector<std::string>{
                "x.ms2: 1 peak line without an intensity (given intensity 1) (first at line 22)",
                "x.ms2: 3 peaks dropped: m/z NaN, infinite or not positive (first at line 23)"}));
}

// A dropped peak is named at its own line, as in MGF: here the intensity 1e300 (infinite as a
// 32-bit float) on line 5 and the m/z "nan" on line 6, not the S line.
TEST(Ms2Reader, DroppedPeaksAreNamedAtTheirLine) {
  const std::string text = "S\t1\t1\t500.0\nZ\t2\t999\n100 1\n150 2\n200 1e300\nnan 3\n300 2\n";
  ReadStats stats;
  const auto got = read_ms2(text, 1 << 20, &stats);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].mz, (std::vector<double>{100.0, 150.0, 300.0}));
  EXPECT_EQ(stats.first_problem_at.at(kDroppedBadIntensity), "line 5");
  EXPECT_EQ(stats.first_problem_at.at(kDroppedBadMz), "line 6");
}

// A file cut inside its last line (no line end at the end): that spectrum is skipped as
// truncated, with the warning, in any block size; the one before it is kept.
TEST(Ms2Reader, AFileCutInsideItsLastLineSkipsThatSpectrum) {
  const std::string whole =
      "S\t1\t1\t500.0\nZ\t2\t999\n100 1\nS\t2\t2\t600.0\nZ\t2\t1199\n812.4 1520\n";
  const std::string cut = whole.substr(0, whole.size() - 3);  // "812.4 15"
  for (size_t block : {size_t{1}, size_t{7}, size_t{1} << 20}) {
    ReadStats stats;
    const auto got = read_ms2(cut, block, &stats);
    ASSERT_EQ(got.size(), 1u) << "block " << block;
    EXPECT_EQ(got[0].scan, 1);
    EXPECT_EQ(stats.skipped.at(kSkipTruncated), 1u);
    EXPECT_EQ(stats.first_skipped_at.at(kSkipTruncated), "line 6");
    EXPECT_EQ(stats.problems.at(kFileEndsEarly), 1u);
    EXPECT_EQ(stats.first_problem_at.at(kFileEndsEarly), "line 6");
  }
  EXPECT_EQ(read_ms2(whole, 7).size(), 2u);  // with its last line end, both
}

TEST(Ms2Reader, CarriageReturnLineEndsAreRefusedWithTheirCause) {
  auto reader = make_spectrum_reader(PeakListFormat::kMs2, "mac.ms2", 0);
  std::vector<RawSpectrum> out;
  try {
    reader->feed("H\tCreationDate\tx\rS\t1\t1\t500.25\rZ\t2\t999.49\r100.5 10\r", out);
    reader->finish(out);
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 1u);
    EXPECT_NE(std::string(e.what()).find("mac.ms2: line 1 (byte 0): lines end with a carriage "
                                         "return (CR) alone"),
              std::string::npos)
        << e.what();
  }
}

// A hostile check: line ends that switch from LF to CR alone lost the later spectra silently.
TEST(Ms2Reader, LineEndsSwitchingToCarriageReturnsAreRefusedWhereTheySwitch) {
  auto reader = make_spectrum_reader(PeakListFormat::kMs2, "switch.ms2", 0);
  std::vector<RawSpectrum> out;
  try {
    reader->feed(
        "S\t1\t1\t500.25\nZ\t2\t999.49\n100.5 10\n"  // lines 1-3
        "S\t2\t2\t600.25\rZ\t2\t1199.49\r200.5 10\r",
        out);
    reader->finish(out);
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 4u);
    EXPECT_NE(std::string(e.what()).find("carriage return (CR) alone"), std::string::npos);
  }
}

// A reviewer's catch: LF CR line ends and a CR inside a comment read as before.
TEST(Ms2Reader, CarriageReturnsInsideValuesOrAfterLineFeedsStillRead) {
  const auto got = read_ms2(
      "H\tCreationDate\tx\n\rS\t1\t1\t500.25\n\rI\tComment\tfoo\rbar\n\rZ\t2\t999.49\n\r"
      "100.5 10\n\r200.5 20\n\r",
      1 << 20);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].mz, (std::vector<double>{100.5, 200.5}));
}

TEST(Ms2Reader, CarriageReturnsBeforeTheLineFeedReadAsBefore) {
  ReadStats stats;
  const auto got = read_ms2(
      "H\tCreationDate\tx\r\r\nS\t1\t1\t500.25\r\r\nZ\t2\t999.49\r\r\n"
      "100.5 10\r\r\n200.5 20\r\r\n",
      1 << 20, &stats);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].mz, (std::vector<double>{100.5, 200.5}));
}

TEST(Ms2Reader, AFileThatIsNotMs2IsAParseError) {
  auto reader = make_spectrum_reader(PeakListFormat::kMs2, "x.ms2", 0);
  std::vector<RawSpectrum> out;
  try {
    reader->feed("H\tx\ty\nhello\n", out);
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()),
              "x.ms2: line 2 (byte 6): not MS2: expected an H or S line before the first "
              "spectrum, found \"hello\"");
  }
}

// A binary file (here a gzip member's head) named .ms2: its bytes are quoted as \xNN, as the MGF
// and FASTA readers quote them, not put raw into the message and the log.
TEST(Ms2Reader, BinaryBytesInTheErrorAreWrittenAsHex) {
  auto reader = make_spectrum_reader(PeakListFormat::kMs2, "x.ms2", 0);
  std::vector<RawSpectrum> out;
  try {
    reader->feed(std::string("\x1f\x8b\x08\x00\x00\x00Z\xff\n", 9), out);
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()),
              "x.ms2: line 1 (byte 0): not MS2: expected an H or S line before the first "
              "spectrum, found \"\\x1f\\x8b\\x08\\x00\\x00\\x00Z\\xff\"");
  }
}

}  // namespace
}  // namespace ionflow
