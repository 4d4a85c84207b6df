// MGF reader block contract: a spectrum may straddle any block boundary, so splitting the same
// bytes anywhere must give identical spectra and statistics.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "io/mgf_reader.hpp"
#include "io_test_support.hpp"

namespace ionflow {
namespace {

using io_testing::read_file;

struct Parsed {
  std::vector<RawSpectrum> spectra;
  ReadStats stats;
};

// Feeds `text` cut at the given ascending positions.
Parsed parse_split(std::string_view text, const std::vector<size_t>& cuts) {
  auto reader = make_mgf_reader("split.mgf", 1);
  Parsed p;
  size_t from = 0;
  for (size_t cut : cuts) {
    reader->feed(text.substr(from, cut - from), p.spectra);
    from = cut;
  }
  reader->feed(text.substr(from), p.spectra);
  reader->finish(p.spectra);
  p.stats = reader->stats();
  return p;
}

// Empty when equal, else the first difference.
std::string difference(const Parsed& a, const Parsed& b) {
  if (a.spectra.size() != b.spectra.size()) return "spectrum count";
  if (a.stats.spectra_seen != b.stats.spectra_seen) return "spectra_seen";
  if (a.stats.spectra_emitted != b.stats.spectra_emitted) return "spectra_emitted";
  if (a.stats.skipped != b.stats.skipped) return "skipped";
  for (size_t i = 0; i < a.spectra.size(); ++i) {
    const RawSpectrum& x = a.spectra[i];
    const RawSpectrum& y = b.spectra[i];
    std::string at = " of spectrum " + std::to_string(i);
    if (x.native_id != y.native_id) return "native_id" + at;
    if (x.scan != y.scan) return "scan" + at;
    if (x.spectrum_index != y.spectrum_index) return "spectrum_index" + at;
    if (x.file_index != y.file_index) return "file_index" + at;
    if (x.rt_seconds != y.rt_seconds) return "rt" + at;
    if (x.precursor_mz != y.precursor_mz) return "precursor_mz" + at;
    if (x.precursor_intensity != y.precursor_intensity) return "precursor_intensity" + at;
    if (x.precursor_charges != y.precursor_charges) return "charges" + at;
    if (x.mz != y.mz) return "mz" + at;
    if (x.intensity != y.intensity) return "intensity" + at;
  }
  return "";
}

// Every rule at once: header parameters, comments, CRLF, tabs, exponents, ranges, multi-charge,
// malformed spectra, an orphan END IONS and a truncated last spectrum.
const char* const kEdgeCases =
    "# header comment\r\n"
    "MASS=Monoisotopic\r\n"
    "CHARGE=2+ and 3+\r\n"
    "\r\n"
    "BEGIN IONS\r\n"
    "TITLE=first=with equals\r\n"
    "PEPMASS=617.318542480469\t1234.5\r\n"
    "RTINSECONDS=5000.0916-5001.5\r\n"
    "SCANS=11461\r\n"
    "175.288360595703 6.732368\r\n"
    "182.5\t\t11.5 1+\r\n"
    "1.5e3 2.5E2\r\n"
    "199.25\r\n"
    "END IONS\r\n"
    "\n"
    "BEGIN IONS\n"
    "TITLE=second scan=42\n"
    "PEPMASS=488.925689697266\n"
    "CHARGE=+3\n"
    "; comment\n"
    "137.12989807128906   9.348644\n"
    "916.0393676757812 17.99822\n"
    "END IONS\n"
    "BEGIN IONS\n"
    "TITLE=bad\n"
    "PEPMASS=500\n"
    "100 x\n"
    "END IONS\n"
    "END IONS\n"
    "BEGIN IONS\n"
    "TITLE=third\n"
    "PEPMASS=501.5\n"
    "CHARGE=2+,4+\n"
    "RTINSECONDS=12\n"
    "123.456 789\n"
    "END IONS\n"
    "BEGIN IONS\n"
    "PEPMASS=333.3\n"
    "100 1\n"
    "200";

TEST(MgfBlocks, EdgeCasesSplitInTwoAtEveryBytePosition) {
  std::string_view text = kEdgeCases;
  Parsed whole = parse_split(text, {});
  ASSERT_EQ(whole.spectra.size(), 3u);
  EXPECT_EQ(whole.spectra[0].precursor_charges, (std::vector<int>{2, 3}));
  EXPECT_EQ(whole.spectra[0].mz, (std::vector<double>{175.288360595703, 182.5, 1500, 199.25}));
  EXPECT_EQ(whole.spectra[0].intensity, (std::vector<float>{6.732368f, 11.5f, 250.f, 1.f}));
  EXPECT_DOUBLE_EQ(whole.spectra[0].rt_seconds, 5000.0916);
  EXPECT_EQ(whole.spectra[1].scan, 42);
  EXPECT_EQ(whole.spectra[1].precursor_charges, std::vector<int>{3});
  EXPECT_EQ(whole.spectra[2].precursor_charges, (std::vector<int>{2, 4}));
  EXPECT_EQ(whole.stats.skipped.at("bad peak line"), 1u);
  EXPECT_EQ(whole.stats.skipped.at("truncated at end of file"), 1u);
  EXPECT_EQ(whole.stats.skipped.size(), 2u);
  EXPECT_EQ(whole.stats.spectra_seen, 5u);
  // The orphan END IONS closes nothing: a line outside entries, no spectrum.
  EXPECT_EQ(whole.stats.problems.at("lines outside BEGIN IONS/END IONS ignored"), 1u);
  EXPECT_EQ(whole.stats.first_problem_at.at("lines outside BEGIN IONS/END IONS ignored"),
            "line 29");

  for (size_t cut = 0; cut <= text.size(); ++cut) {
    EXPECT_EQ(difference(whole, parse_split(text, {cut})), "") << "split at byte " << cut;
  }
}

TEST(MgfBlocks, EdgeCasesSplitInThree) {
  std::string_view text = kEdgeCases;
  Parsed whole = parse_split(text, {});
  for (size_t a = 0; a <= text.size(); a += 7) {
    for (size_t b = a; b <= text.size(); b += 13) {
      EXPECT_EQ(difference(whole, parse_split(text, {a, b})), "") << "cuts " << a << ", " << b;
    }
  }
}

TEST(MgfBlocks, RealExcerptOneByteAtATime) {
  std::string text = read_file(IONFLOW_TEST_DATA_DIR "/ecoli_ms2_small_first5.mgf");
  Parsed whole = parse_split(text, {});
  ASSERT_EQ(whole.spectra.size(), 5u);
  std::vector<size_t> every_byte(text.size());
  for (size_t i = 0; i < text.size(); ++i) every_byte[i] = i;
  EXPECT_EQ(difference(whole, parse_split(text, every_byte)), "");
}

TEST(MgfBlocks, RealExcerptSplitInTwoAtManyPositions) {
  std::string text = read_file(IONFLOW_TEST_DATA_DIR "/ecoli_ms2_small_first5.mgf");
  Parsed whole = parse_split(text, {});
  for (size_t cut = 0; cut <= text.size(); cut += 101) {
    EXPECT_EQ(difference(whole, parse_split(text, {cut})), "") << "split at byte " << cut;
  }
}

// Damaged input: every byte of the edge-case file replaced in turn by characters that break
// numbers, markers and lines. The reader never crashes and every spectrum is accounted for:
// emitted or skipped with a reason (or the whole file is rejected as not MGF).
TEST(MgfBlocks, DamagedBytesAreAccountedFor) {
  const std::string original = kEdgeCases;
  for (char replacement : {'x', '\n', '=', ' ', '\0', '-'}) {
    for (size_t i = 0; i < original.size(); ++i) {
      std::string text = original;
      text[i] = replacement;
      try {
        Parsed p = parse_split(text, {i});
        uint64_t skipped = 0;
        for (const auto& [reason, count] : p.stats.skipped) skipped += count;
        EXPECT_EQ(p.stats.spectra_seen, p.stats.spectra_emitted + skipped) << "byte " << i;
        EXPECT_EQ(p.stats.spectra_emitted, p.spectra.size());
        for (const RawSpectrum& s : p.spectra) {
          EXPECT_EQ(s.mz.size(), s.intensity.size());
          EXPECT_GT(s.precursor_mz, 0.0);
        }
      } catch (const ParseError& e) {
        EXPECT_EQ(e.file(), "split.mgf");
        EXPECT_GT(e.line(), 0u);
      }
    }
  }
}

}  // namespace
}  // namespace ionflow
