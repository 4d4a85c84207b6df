// MGF reader: known values of a real excerpt and every edge case of the format rules in
// io/mgf_reader.hpp.
#include "io/mgf_reader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <numeric>
#include "io/peak_checks.hpp"
#include "io_test_support.hpp"

namespace ionflow {
namespace {

using io_testing::read_file;

struct Parsed {
  std::vector<RawSpectrum> spectra;
  ReadStats stats;
};

Parsed parse(std::string_view text, uint32_t file_index = 0) {
  auto reader = make_mgf_reader("test.mgf", file_index);
  Parsed p;
  reader->feed(text, p.spectra);
  reader->finish(p.spectra);
  p.stats = reader->stats();
  return p;
}

uint64_t skipped_total(const ReadStats& s) {
  uint64_t n = 0;
  for (const auto& [reason, count] : s.skipped) n += count;
  return n;
}

// A minimal valid block with the given extra lines.
std::string block(const std::string& lines) {
  return "BEGIN IONS\nPEPMASS=500.25\n" + lines + "100.5 10\nEND IONS\n";
}

// Ecoli_MS2_small.mzML (openms-doc) first 5 spectra converted to MGF; the expected values are the
// mzML's own: scan numbers, "scan start time", "selected ion m/z", "charge state", array lengths
// (defaultArrayLength) and, for scan 11461, the userParams "lowest observed m/z" 175.288360595703,
// "base peak m/z" 582.263671875 and "base peak intensity" 1094.31640625.
TEST(MgfReader, RealExcerptKnownValues) {
  Parsed p = parse(read_file(IONFLOW_TEST_DATA_DIR "/ecoli_ms2_small_first5.mgf"), 3);
  ASSERT_EQ(p.spectra.size(), 5u);
  EXPECT_EQ(p.stats.spectra_seen, 5u);
  EXPECT_EQ(p.stats.spectra_emitted, 5u);
  EXPECT_TRUE(p.stats.skipped.empty());

  const RawSpectrum& s0 = p.spectra[0];
  EXPECT_EQ(s0.file_index, 3u);
  EXPECT_EQ(s0.spectrum_index, 0u);
  EXPECT_EQ(s0.native_id, "controllerType=0 controllerNumber=1 scan=11461");
  EXPECT_EQ(s0.scan, 11461);
  EXPECT_EQ(s0.ms_level, 2);
  EXPECT_DOUBLE_EQ(s0.rt_seconds, 5000.0916);
  EXPECT_NEAR(s0.precursor_mz, 617.318542480469, 1e-9);
  EXPECT_EQ(s0.precursor_charges, std::vector<int>{2});
  EXPECT_EQ(s0.precursor_intensity, 0.0);
  EXPECT_TRUE(s0.activation.empty());
  ASSERT_EQ(s0.mz.size(), 260u);
  ASSERT_EQ(s0.intensity.size(), 260u);
  EXPECT_NEAR(s0.mz.front(), 175.288360595703, 1e-9);
  EXPECT_NEAR(s0.mz.back(), 1175.233642578125, 1e-9);
  auto base = std::max_element(s0.intensity.begin(), s0.intensity.end());
  EXPECT_FLOAT_EQ(*base, 1094.31640625f);
  EXPECT_NEAR(s0.mz[base - s0.intensity.begin()], 582.263671875, 1e-9);
  // "total ion current" 8986.03515625 in the mzML.
  double tic = std::accumulate(s0.intensity.begin(), s0.intensity.end(), 0.0);
  EXPECT_NEAR(tic, 8986.03515625, 1e-2);

  EXPECT_EQ(p.spectra[1].scan, 11462);
  EXPECT_EQ(p.spectra[1].precursor_charges, std::vector<int>{3});
  EXPECT_EQ(p.spectra[1].mz.size(), 441u);
  EXPECT_EQ(p.spectra[2].precursor_charges, std::vector<int>{4});
  EXPECT_EQ(p.spectra[2].mz.size(), 173u);
  EXPECT_NEAR(p.spectra[2].precursor_mz, 565.770080566406, 1e-9);
  EXPECT_EQ(p.spectra[3].mz.size(), 264u);
  EXPECT_EQ(p.spectra[4].scan, 11466);
  EXPECT_EQ(p.spectra[4].spectrum_index, 4u);
  EXPECT_DOUBLE_EQ(p.spectra[4].rt_seconds, 5002.0174);
  EXPECT_EQ(p.spectra[4].mz.size(), 366u);
  EXPECT_FLOAT_EQ(p.spectra[4].intensity.front(), 208.0791778564453f);
}

TEST(MgfReader, ChargeNotations) {
  const std::pair<const char*, std::vector<int>> cases[] = {
      {"2+", {2}},           {"2", {2}},        {"+2", {2}},
      {"2+ and 3+", {2, 3}}, {"2+,3+", {2, 3}}, {"2+, 3+ AND 4+", {2, 3, 4}},
      {"2+ and 2+", {2}},    {"0", {}},
  };
  for (const auto& [text, expected] : cases) {
    Parsed p = parse(block(std::string("CHARGE=") + text + "\n"));
    ASSERT_EQ(p.spectra.size(), 1u) << text;
    EXPECT_EQ(p.spectra[0].precursor_charges, expected) << text;
  }
  Parsed none = parse(block(""));
  ASSERT_EQ(none.spectra.size(), 1u);
  EXPECT_TRUE(none.spectra[0].precursor_charges.empty());  // unknown
  // A negative-mode charge, as every reader treats it (peak_checks.hpp): not searched.
  for (const char* text : {"3-", "-3", "2+ and 3-"}) {
    Parsed negative = parse(block(std::string("CHARGE=") + text + "\n"));
    EXPECT_TRUE(negative.spectra.empty()) << text;
    EXPECT_EQ(
        negative.stats.skipped.at("negative precursor charge (negative mode is not searched)"), 1u);
  }
  for (const char* text : {"2.5", "abc", "2+3", "+"}) {
    Parsed bad = parse(block(std::string("CHARGE=") + text + "\n"));
    EXPECT_TRUE(bad.spectra.empty()) << text;
    EXPECT_EQ(bad.stats.skipped.at("bad precursor charge"), 1u) << text;
  }
}

TEST(MgfReader, FileLevelChargeIsTheDefault) {
  Parsed p = parse("MASS=Monoisotopic\nCHARGE=2+ and 3+\n\n" + block("TITLE=a\n") +
                   block("TITLE=b\nCHARGE=4+\n") + block("TITLE=c\n"));
  ASSERT_EQ(p.spectra.size(), 3u);
  EXPECT_EQ(p.spectra[0].precursor_charges, (std::vector<int>{2, 3}));
  EXPECT_EQ(p.spectra[1].precursor_charges, std::vector<int>{4});
  EXPECT_EQ(p.spectra[2].precursor_charges, (std::vector<int>{2, 3}));  // reset, not carried over
}

TEST(MgfReader, EveryFieldIsResetAtBeginIons) {
  Parsed p = parse(
      "BEGIN IONS\nTITLE=first\nPEPMASS=600.5 12345.5\nCHARGE=3+\nRTINSECONDS=61.5\nSCANS=17\n"
      "100 1\n200 2\nEND IONS\n"
      "BEGIN IONS\nPEPMASS=700.25\n300 3\nEND IONS\n");
  ASSERT_EQ(p.spectra.size(), 2u);
  const RawSpectrum& a = p.spectra[0];
  EXPECT_EQ(a.native_id, "first");
  EXPECT_DOUBLE_EQ(a.precursor_mz, 600.5);
  EXPECT_DOUBLE_EQ(a.precursor_intensity, 12345.5);
  EXPECT_EQ(a.precursor_charges, std::vector<int>{3});
  EXPECT_DOUBLE_EQ(a.rt_seconds, 61.5);
  EXPECT_EQ(a.scan, 17);
  EXPECT_EQ(a.mz, (std::vector<double>{100, 200}));
  const RawSpectrum& b = p.spectra[1];
  EXPECT_EQ(b.native_id, "");
  EXPECT_DOUBLE_EQ(b.precursor_mz, 700.25);
  EXPECT_EQ(b.precursor_intensity, 0.0);
  EXPECT_TRUE(b.precursor_charges.empty());
  EXPECT_EQ(b.rt_seconds, -1.0);
  EXPECT_EQ(b.scan, -1);
  EXPECT_EQ(b.mz, std::vector<double>{300});
  EXPECT_EQ(b.spectrum_index, 1u);
}

TEST(MgfReader, RangesTakeTheFirstValue) {
  Parsed p = parse(block("RTINSECONDS=120.5-130.5\nSCANS=100-105\n") +
                   block("RTINSECONDS=1.5e2,160\nSCANS=7,9\n"));
  ASSERT_EQ(p.spectra.size(), 2u);
  EXPECT_DOUBLE_EQ(p.spectra[0].rt_seconds, 120.5);
  EXPECT_EQ(p.spectra[0].scan, 100);
  EXPECT_DOUBLE_EQ(p.spectra[1].rt_seconds, 150.0);
  EXPECT_EQ(p.spectra[1].scan, 7);
}

TEST(MgfReader, ScanFromMsconvertTitleWhenNoScans) {
  Parsed p = parse(block("TITLE=run1.11461.11461.2 File:\"run1.raw\", NativeID:\"controllerType=0 "
                         "controllerNumber=1 scan=11461\"\n") +
                   block("TITLE=x scan=5\nSCANS=9\n"));
  ASSERT_EQ(p.spectra.size(), 2u);
  EXPECT_EQ(p.spectra[0].scan, 11461);
  EXPECT_EQ(p.spectra[1].scan, 9);  // SCANS wins
}

// OpenMS FileConverter (3.x, Ecoli_MS2_small.mzML → MGF) writes SCANS=-1 on every spectrum when
// it cannot extract a scan number; the head of its output, first spectrum cut to three peaks. The
// spectrum is kept; its scan comes from the native id inside the TITLE.
TEST(MgfReader, OpenMsScansMinusOneMeansNoScanNumber) {
  Parsed p = parse(
      "COM=OpenMS_search\nFORMAT=Mascot generic\nCHARGE=1,2,3\n\n"
      "BEGIN IONS\n"
      "TITLE=617.318542480468977_5000.091599999999744_controllerType=0 controllerNumber=1 "
      "scan=11461_ecoli\n"
      "PEPMASS=617.318542480468977\n"
      "RTINSECONDS=5000.091599999999744\n"
      "SCANS=-1\n"
      "CHARGE=2+\n"
      "175.288360595703125 6.732368\n"
      "183.220443725585938 11.534481\n"
      "184.152267456054688 14.246655\n"
      "END IONS\n");
  ASSERT_EQ(p.spectra.size(), 1u);
  EXPECT_TRUE(p.stats.skipped.empty());
  const RawSpectrum& s = p.spectra[0];
  EXPECT_EQ(s.scan, 11461);
  EXPECT_DOUBLE_EQ(s.precursor_mz, 617.318542480468977);
  EXPECT_DOUBLE_EQ(s.rt_seconds, 5000.0916);
  EXPECT_EQ(s.precursor_charges, std::vector<int>{2});
  EXPECT_EQ(s.mz,
            (std::vector<double>{175.288360595703125, 183.220443725585938, 184.152267456054688}));
  EXPECT_EQ(s.intensity, (std::vector<float>{6.732368f, 11.534481f, 14.246655f}));
}

// A SCANS value that does not start with a digit is "no scan number" (scan -1 when the TITLE
// has no scan=N either); one that starts with a digit but is damaged still skips the spectrum.
TEST(MgfReader, ScansThatIsNotANumberMeansNoScanNumber) {
  Parsed p = parse(block("TITLE=a\nSCANS=-1\n") + block("TITLE=b\nSCANS=\n") +
                   block("TITLE=c\nSCANS=spectrum_5\n") + block("TITLE=d\nSCANS=0\n") +
                   block("TITLE=e\nSCANS=-7\n") + block("TITLE=f\nSCANS=5\nSCANS=-1\n") +
                   block("TITLE=g\nSCANS=12x\n") + block("TITLE=h\nSCANS=10-\n") +
                   block("TITLE=i\nSCANS=99999999999999999999\n"));
  ASSERT_EQ(p.spectra.size(), 6u);
  const std::vector<std::pair<std::string, int64_t>> expected = {{"a", -1}, {"b", -1}, {"c", -1},
                                                                 {"d", 0},  {"e", -1}, {"f", -1}};
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(p.spectra[i].native_id, expected[i].first);
    EXPECT_EQ(p.spectra[i].scan, expected[i].second) << expected[i].first;
    EXPECT_EQ(p.spectra[i].mz, std::vector<double>{100.5});
  }
  EXPECT_EQ(p.stats.skipped, (std::map<std::string, uint64_t>{{"bad SCANS", 3}}));
  EXPECT_EQ(p.stats.first_skipped_at.at("bad SCANS"), "line 41");
}

TEST(MgfReader, CommentsBlanksTabsCrlfExponentsAndThirdColumn) {
  std::string text =
      "# a comment\r\n; another\r\n! and another\r\n/ and a last one\r\n\r\n"
      "COM=header comment\r\n"
      "  BEGIN IONS  \r\n"
      "TITLE=crlf spectrum\r\n"
      "PEPMASS=1.5e3\t2.5E4\r\n"
      "\r\n"
      "# comment inside\r\n"
      "100.25\t10\r\n"
      "200.5    20.5\r\n"
      "1.5e3 2E2\r\n"
      "  300.75 \t 30 \t 2+\r\n"
      "4.0E+02 4e-1 some annotation\r\n"
      "+500 5\r\n"
      "END IONS\r\n";
  Parsed p = parse(text);
  ASSERT_EQ(p.spectra.size(), 1u) << (p.stats.skipped.empty() ? ""
                                                              : p.stats.skipped.begin()->first);
  const RawSpectrum& s = p.spectra[0];
  EXPECT_EQ(s.native_id, "crlf spectrum");
  EXPECT_DOUBLE_EQ(s.precursor_mz, 1500.0);
  EXPECT_DOUBLE_EQ(s.precursor_intensity, 25000.0);
  EXPECT_EQ(s.mz, (std::vector<double>{100.25, 200.5, 1500.0, 300.75, 400.0, 500.0}));
  EXPECT_EQ(s.intensity, (std::vector<float>{10.f, 20.5f, 200.f, 30.f, 0.4f, 5.f}));
}

// A reviewer's catch: "101.5 200 300 extra" was read as the peak 101.5/200 without a word. A
// third column that is a fragment charge (Mascot's "2+") is understood and not used; any other
// column after the intensity is counted at its line, the peak kept, the file read on.
TEST(MgfReader, ColumnsBeyondIntensityAndFragmentChargeAreCountedAtTheirLine) {
  const std::string text =
      "BEGIN IONS\nTITLE=a\nPEPMASS=500.2\nCHARGE=2+\n"     // 1-4
      "100.5 10 2+\n"                                       // 5: a fragment charge
      "101.5 200 300 extra\n"                               // 6: 300 is no charge; a 4th column
      "102.5 30 +1\n103.5 40 1\n104.5 50 0\n105.5 60 1-\n"  // 7-10: charges
      "106.5 70 2+ b3\n"                                    // 11: a charge and a 4th column
      "107.5 80 y5\n"                                       // 12: an annotation
      "108.5 90 11+\n"                                      // 13: no fragment has 11 charges
      "END IONS\n";
  for (size_t block_size : {size_t{1}, size_t{5}, size_t{1} << 20}) {
    SCOPED_TRACE(block_size);
    const io_testing::PeakListRead r = io_testing::read_peak_list(text, "x.mgf", block_size);
    ASSERT_EQ(r.spectra.size(), 1u);
    EXPECT_EQ(r.spectra[0].mz,
              (std::vector<double>{100.5, 101.5, 102.5, 103.5, 104.5, 105.5, 106.5, 107.5, 108.5}));
    EXPECT_EQ(r.spectra[0].intensity[1], 200.f);
    EXPECT_TRUE(r.stats.skipped.empty());
    EXPECT_EQ(read_problem_warnings("x.mgf", r.stats),
              std::vector<std::string>{
                  "x.mgf: 4 peak lines with columns other than m/z, intensity and fragment "
                  "charge (ignored) (first at line 6)"});
  }
  EXPECT_EQ(read_problem_warnings("x.mgf", parse("BEGIN IONS\nPEPMASS=500.2\n101.5 200 300 "
                                                 "extra\nEND IONS\n")
                                               .stats),
            std::vector<std::string>{"x.mgf: 1 peak line with columns other than m/z, intensity "
                                     "and fragment charge (ignored) (first at line 3)"});
}

TEST(MgfReader, PeakWithoutIntensityGetsIntensityOne) {
  Parsed p = parse(block("150.5\n250.5 \t\n"));
  ASSERT_EQ(p.spectra.size(), 1u);
  EXPECT_EQ(p.spectra[0].mz, (std::vector<double>{150.5, 250.5, 100.5}));
  EXPECT_EQ(p.spectra[0].intensity, (std::vector<float>{1.f, 1.f, 10.f}));
}

TEST(MgfReader, KeyValueSplitsAtFirstEqualsAndUnknownKeysAreIgnored) {
  Parsed p =
      parse(block("TITLE=a=b c=d\nSEQ=PEPTIDE\nTOL=10\nINSTRUMENT=ESI-TRAP\n"
                  "title=lower case wins later\n"));
  ASSERT_EQ(p.spectra.size(), 1u);
  EXPECT_EQ(p.spectra[0].native_id, "lower case wins later");
  p = parse(block("TITLE=a=b c=d\n"));
  EXPECT_EQ(p.spectra[0].native_id, "a=b c=d");
}

TEST(MgfReader, MarkersAreCaseInsensitive) {
  Parsed p = parse("begin ions\npepmass=400.5\n100 1\nend\tions\n");
  ASSERT_EQ(p.spectra.size(), 1u);
  EXPECT_DOUBLE_EQ(p.spectra[0].precursor_mz, 400.5);
}

TEST(MgfReader, Utf8ByteOrderMarkIsSkipped) {
  Parsed p = parse(
      "\xEF\xBB\xBF"
      "BEGIN IONS\nPEPMASS=400.5\n100 1\nEND IONS\n");
  ASSERT_EQ(p.spectra.size(), 1u);
  p = parse("\xEF\xBB\xBF# comment\r\nCHARGE=2+\r\n" + block(""));
  ASSERT_EQ(p.spectra.size(), 1u);
  EXPECT_EQ(p.spectra[0].precursor_charges, std::vector<int>{2});
}

TEST(MgfReader, LastLineWithoutNewline) {
  Parsed p = parse("BEGIN IONS\nPEPMASS=400.5\n100 1\nEND IONS");
  EXPECT_EQ(p.spectra.size(), 1u);
  EXPECT_EQ(p.stats.spectra_emitted, 1u);
}

TEST(MgfReader, MalformedSpectraAreSkippedWithAReasonAndOthersKept) {
  std::string text = block("TITLE=good1\n") +  // kept
                     "BEGIN IONS\nTITLE=badnum\nPEPMASS=500\n100.0 abc\n200 2\nEND IONS\n" +  // bad
                     "BEGIN IONS\nTITLE=badmz\nPEPMASS=500\n1oo 5\nEND IONS\n" +              // bad
                     "BEGIN IONS\nTITLE=nopepmass\n100 1\nEND IONS\n" +             // missing
                     "BEGIN IONS\nTITLE=nested\nPEPMASS=500\n100 1\n" +             // nested
                     block("TITLE=good2\n") +                                       // kept
                     "END IONS\n" +                                                 // orphan END
                     block("TITLE=good3\n") +                                       // kept
                     "TITLE=no begin\nPEPMASS=300\n100 1\nEND IONS\n" +             // no BEGIN
                     "BEGIN IONS\nTITLE=nopeaks\nPEPMASS=500\nEND IONS\n" +         // no peaks
                     "BEGIN IONS\nPEPMASS=abc\n100 1\nEND IONS\n" +                 // bad PEPMASS
                     "BEGIN IONS\nPEPMASS=500\nCHARGE=two\n100 1\nEND IONS\n" +     // bad charge
                     "BEGIN IONS\nPEPMASS=500\nRTINSECONDS=x\n100 1\nEND IONS\n" +  // bad RT
                     "BEGIN IONS\nPEPMASS=500\nSCANS=7x\n100 1\nEND IONS\n" +       // bad SCANS
                     "BEGIN IONS\nPEPMASS=500\n100 1\nTHIS IS NOT A PEAK\nEND IONS\n" +  // bad line
                     "BEGIN IONS\nPEPMASS=500\n100 nan\nEND IONS\n" +  // dropped: no peaks
                     "BEGIN IONS\nPEPMASS=500\n-100 5\nEND IONS\n" +   // dropped: no peaks
                     "BEGIN IONS\nPEPMASS=500\n100 5x\nEND IONS\n" +   // trailing junk
                     "stray 1\n" + block("TITLE=good4\n") +            // outside
                     "BEGIN IONS\nTITLE=cut\nPEPMASS=500\n100 1\n";    // truncated
  Parsed p = parse(text);
  ASSERT_EQ(p.spectra.size(), 4u);
  EXPECT_EQ(p.spectra[0].native_id, "good1");
  EXPECT_EQ(p.spectra[1].native_id, "good2");
  EXPECT_EQ(p.spectra[2].native_id, "good3");
  EXPECT_EQ(p.spectra[3].native_id, "good4");
  for (size_t i = 0; i < p.spectra.size(); ++i) EXPECT_EQ(p.spectra[i].spectrum_index, i);

  const std::map<std::string, uint64_t> expected = {
      {"bad peak line", 4},
      {"missing PEPMASS", 1},
      {"nested BEGIN IONS (END IONS missing)", 1},
      {"END IONS without BEGIN IONS", 1},
      {"no peaks", 3},
      {"bad PEPMASS", 1},
      {"bad precursor charge", 1},
      {"bad RTINSECONDS", 1},
      {"bad SCANS", 1},
      {"truncated at end of file", 1},
  };
  EXPECT_EQ(p.stats.skipped, expected);
  EXPECT_EQ(p.stats.spectra_emitted, 4u);
  EXPECT_EQ(p.stats.spectra_seen, p.stats.spectra_emitted + skipped_total(p.stats));
  EXPECT_EQ(p.stats.spectra_seen, 19u);
  // The NaN intensity and the negative m/z are counted peaks, the orphan END and the stray line
  // are no spectrum, and the cut last block says the file ends early.
  const std::map<std::string, uint64_t> problems = {
      {"peaks dropped: intensity NaN or infinite (as a 32-bit float: beyond 3.4e38)", 1},
      {"peaks dropped: m/z NaN, infinite or not positive", 1},
      {"lines outside BEGIN IONS/END IONS ignored", 2},
      {"file ends early (truncated?)", 1},
  };
  EXPECT_EQ(p.stats.problems, problems);
}

// A stray line after END IONS was counted as a spectrum read and skipped ("lines outside BEGIN
// IONS/END IONS"): one entry and one stray line gave spectra_read 2; so did a repeated END IONS
// ("END IONS without BEGIN IONS"). Lines between entries, or after the last, are no spectrum:
// counted as lines, a data problem at the first one's line, whatever the blocks. Content that an
// END IONS closes is still a spectrum without BEGIN IONS.
TEST(MgfReader, LinesOutsideEntriesAreAProblemNotASpectrum) {
  struct Case {
    std::string text;
    uint64_t spectra;
    uint64_t lines;  // outside entries, not blank, not comments
    std::string warning;
  };
  const Case cases[] = {
      {block("TITLE=a\n") + "stray\n", 1, 1,
       "x.mgf: 1 line outside BEGIN IONS/END IONS ignored (first at line 6)"},
      // Lines 6 and 13-15 (12 blank, 14 a comment), the last ones at the end of the file.
      {block("TITLE=a\n") + "stray\n" + block("TITLE=b\n") + "\nstray 2\n# comment\n100 5", 2, 3,
       "x.mgf: 3 lines outside BEGIN IONS/END IONS ignored (first at line 6)"},
      // Before the first entry: a peak line where a header cannot hold one.
      {"100 5\n" + block("TITLE=a\n"), 1, 1,
       "x.mgf: 1 line outside BEGIN IONS/END IONS ignored (first at line 1)"},
      // An END IONS twice: the second closes nothing (it gave a second spectrum read).
      {block("TITLE=a\n") + "END IONS\n" + block("TITLE=b\n"), 2, 1,
       "x.mgf: 1 line outside BEGIN IONS/END IONS ignored (first at line 6)"},
  };
  for (const Case& c : cases) {
    for (size_t block_size : {size_t{1}, size_t{7}, size_t{1} << 20}) {
      SCOPED_TRACE(c.text + " in blocks of " + std::to_string(block_size));
      const io_testing::PeakListRead r = io_testing::read_peak_list(c.text, "x.mgf", block_size);
      EXPECT_EQ(r.spectra.size(), c.spectra);
      EXPECT_EQ(r.stats.spectra_seen, c.spectra);
      EXPECT_TRUE(r.stats.skipped.empty());
      EXPECT_EQ(r.stats.problems, (std::map<std::string, uint64_t>{
                                      {"lines outside BEGIN IONS/END IONS ignored", c.lines}}));
      EXPECT_EQ(read_problem_warnings("x.mgf", r.stats), std::vector<std::string>{c.warning});
    }
  }
  // Closed by END IONS: a spectrum whose BEGIN IONS is missing, read and skipped as before.
  const Parsed p = parse(block("TITLE=a\n") + "TITLE=b\nPEPMASS=300\n100 1\nEND IONS\n");
  EXPECT_EQ(p.spectra.size(), 1u);
  EXPECT_EQ(p.stats.spectra_seen, 2u);
  EXPECT_EQ(p.stats.skipped, (std::map<std::string, uint64_t>{{"END IONS without BEGIN IONS", 1}}));
  EXPECT_TRUE(p.stats.problems.empty());
}

// A dropped peak is reported at its own line, not its spectrum's BEGIN IONS (found by a new
// user: "first at line 1" for a NaN intensity on line 6). An intensity that overflows the float
// it is stored in is infinite too.
TEST(MgfReader, DroppedPeaksAreReportedAtTheirLines) {
  Parsed p = parse(
      "BEGIN IONS\nTITLE=a\nPEPMASS=500.2\nCHARGE=2+\n100.0 5\n200.0 nan\n300 4\n"  // 1-7
      "-4 2\n400 1e39\n0 3\nEND IONS\n");                                           // 8-11
  ASSERT_EQ(p.spectra.size(), 1u);
  EXPECT_EQ(p.spectra[0].mz, (std::vector<double>{100.0, 300.0}));
  const std::map<std::string, uint64_t> problems = {
      {"peaks dropped: intensity NaN or infinite (as a 32-bit float: beyond 3.4e38)", 2},
      {"peaks dropped: m/z NaN, infinite or not positive", 2},
  };
  EXPECT_EQ(p.stats.problems, problems);
  EXPECT_EQ(p.stats.first_problem_at.at(
                "peaks dropped: intensity NaN or infinite (as a 32-bit float: beyond 3.4e38)"),
            "line 6");
  EXPECT_EQ(p.stats.first_problem_at.at("peaks dropped: m/z NaN, infinite or not positive"),
            "line 8");
}

// A reviewer's catch: negative intensities were dropped by spectrum preparation without a word
// (a spectrum of only negative intensities was skipped as "too few peaks"), where NaN and
// infinite ones were counted at their line. They are dropped and counted the same way now; a zero
// intensity (also "-0") is no problem.
TEST(MgfReader, NegativeIntensitiesAreDroppedAndCountedAtTheirLines) {
  Parsed p = parse(
      "BEGIN IONS\nTITLE=a\nPEPMASS=500.2\nCHARGE=2+\n100 5\n200 -3\n300 0\n"        // 1-7
      "400 -0\n500 -1e-3\n600 -inf\nEND IONS\n"                                      // 8-11
      "BEGIN IONS\nTITLE=b\nPEPMASS=500.2\nCHARGE=2+\n100 -1\n200 -2\nEND IONS\n");  // 12-18
  ASSERT_EQ(p.spectra.size(), 1u);
  EXPECT_EQ(p.spectra[0].mz, (std::vector<double>{100, 300, 400}));
  EXPECT_EQ(p.stats.problems, (std::map<std::string, uint64_t>{{kDroppedBadIntensity, 1},
                                                               {kDroppedNegativeIntensity, 4}}));
  EXPECT_EQ(p.stats.skipped, (std::map<std::string, uint64_t>{{kSkipNoPeaks, 1}}));
  EXPECT_EQ(p.stats.first_skipped_at.at(kSkipNoPeaks), "line 12");
  EXPECT_EQ(read_problem_warnings("x.mgf", p.stats),
            (std::vector<std::string>{
                "x.mgf: 1 peak dropped: intensity NaN or infinite (as a 32-bit float: beyond "
                "3.4e38) (first at line 10)",
                "x.mgf: 4 peaks dropped: intensity negative (first at line 6)"}));
}

// A hostile check: "1e400 1" failed its line and skipped the spectrum as a bad peak line, where
// "inf 1" dropped only the peak. Values beyond the double range saturate now (to infinity, or
// to 0 below it), and the peak rule decides, as for "inf".
TEST(MgfReader, NumbersBeyondTheDoubleRangeAreDroppedPeaksNotBadLines) {
  Parsed p = parse(
      "BEGIN IONS\nPEPMASS=500.2\nCHARGE=2+\n100 5\n1e400 1\n-1e400 2\n"  // 1-6
      "1e-400 3\n200 1e400\n300 1e-400\n400 4\nEND IONS\n");              // 7-11
  ASSERT_EQ(p.spectra.size(), 1u);
  EXPECT_EQ(p.spectra[0].mz, (std::vector<double>{100.0, 300.0, 400.0}));
  EXPECT_EQ(p.spectra[0].intensity, (std::vector<float>{5.0f, 0.0f, 4.0f}));
  EXPECT_EQ(p.stats.problems.at(kDroppedBadMz), 3u);  // +inf, -inf, 0
  EXPECT_EQ(p.stats.problems.at(kDroppedBadIntensity), 1u);
  EXPECT_EQ(p.stats.first_problem_at.at(kDroppedBadMz), "line 5");
  EXPECT_EQ(p.stats.first_problem_at.at(kDroppedBadIntensity), "line 8");
  EXPECT_TRUE(p.stats.skipped.empty());
  // A finite intensity beyond a float's range (1e300, 3.4e39) is infinite as stored: dropped,
  // under the reason that names the float's range; 3.4e38 itself is kept.
  Parsed big = parse(
      "BEGIN IONS\nPEPMASS=500.2\nCHARGE=2+\n100 1e300\n200 3.4e39\n300 3.4e38\n"
      "END IONS\n");
  ASSERT_EQ(big.spectra.size(), 1u);
  EXPECT_EQ(big.spectra[0].mz, (std::vector<double>{300.0}));
  EXPECT_EQ(big.stats.problems.at(kDroppedBadIntensity), 2u);
  EXPECT_EQ(big.stats.first_problem_at.at(kDroppedBadIntensity), "line 4");
  // A precursor m/z beyond the range is still a bad PEPMASS (infinite).
  EXPECT_EQ(parse("BEGIN IONS\nPEPMASS=1e400\n100 1\nEND IONS\n").stats.skipped.at("bad PEPMASS"),
            1u);
}

// Each skip reason remembers where its first spectrum is: the offending line, or the BEGIN IONS
// line of an entry that lacks something (a new user's catch: an MGF without PEPMASS named its
// first entry at its END IONS line, 211, not where it starts, line 1).
TEST(MgfReader, FirstSkippedSpectrumOfEachReasonNamesItsLine) {
  Parsed p = parse(
      "BEGIN IONS\nTITLE=a\nPEPMASS=abc\n100 1\nEND IONS\n"                      // lines 1-5
      "BEGIN IONS\nTITLE=b\nPEPMASS=500.2\nCHARGE=2+\n100 1\n200 x\nEND IONS\n"  // 6-12
      "BEGIN IONS\nTITLE=c\nCHARGE=2+\n100 1\nEND IONS\n"                        // 13-17
      "BEGIN IONS\nTITLE=d\nPEPMASS=abc\n100 1\nEND IONS\n"                      // 18-22
      "BEGIN IONS\nTITLE=e\nPEPMASS=500.2\n100 nan\n200 inf\nEND IONS\n");       // 23-28
  EXPECT_EQ(p.stats.skipped.at("bad PEPMASS"), 2u);
  EXPECT_EQ(p.stats.first_skipped_at, (std::map<std::string, std::string>{
                                          {"bad PEPMASS", "line 3"},
                                          {"bad peak line", "line 11"},
                                          {"missing PEPMASS", "line 13"},
                                          {"no peaks", "line 23"},
                                      }));
  // A file-level CHARGE that skips an entry (negative mode) names the entry too.
  Parsed negative = parse("CHARGE=2-\n" + block("TITLE=f\n"));
  EXPECT_EQ(negative.stats.first_skipped_at,
            (std::map<std::string, std::string>{{kSkipNegativeCharge, "line 2"}}));
  // The reviewer's file: 10 entries without PEPMASS, each 21 lines long.
  std::string entries;
  for (int i = 0; i < 10; ++i) {
    entries += "BEGIN IONS\nTITLE=t" + std::to_string(i) + "\nCHARGE=2+\n";
    for (int k = 0; k < 17; ++k) entries += std::to_string(100 + k) + " 5\n";
    entries += "END IONS\n";
  }
  const io_testing::PeakListRead r = io_testing::read_peak_list(entries, "x.mgf", 100);
  EXPECT_EQ(r.stats.skipped, (std::map<std::string, uint64_t>{{"missing PEPMASS", 10}}));
  EXPECT_EQ(r.stats.first_skipped_at.at("missing PEPMASS"), "line 1");
}

TEST(MgfReader, TruncatedFileDropsOnlyThePartialSpectrum) {
  Parsed p = parse(block("TITLE=whole\n") + "BEGIN IONS\nTITLE=cut\nPEPMASS=500\n100 1\n200");
  ASSERT_EQ(p.spectra.size(), 1u);
  EXPECT_EQ(p.spectra[0].native_id, "whole");
  EXPECT_EQ(p.stats.skipped.at("truncated at end of file"), 1u);
  EXPECT_EQ(p.stats.spectra_seen, 2u);
  // A new user's catch: the warning named the cut block's first line and the skip the cut line,
  // and the cut line "200" was also counted as a peak without an intensity. Both name the cut
  // line now, which is not read as a peak.
  EXPECT_EQ(p.stats.first_skipped_at.at("truncated at end of file"), "line 10");
  EXPECT_EQ(p.stats.first_problem_at.at("file ends early (truncated?)"), "line 10");
  EXPECT_EQ(p.stats.problems.count("peak lines without an intensity (given intensity 1)"), 0u);
  // A last END IONS without a newline ends its block.
  p = parse("BEGIN IONS\nTITLE=a\nPEPMASS=500\n100 1\nEND IONS");
  ASSERT_EQ(p.spectra.size(), 1u);
  EXPECT_TRUE(p.stats.problems.empty());
}

TEST(MgfReader, EmptyInputGivesNothing) {
  Parsed p = parse("");
  EXPECT_TRUE(p.spectra.empty());
  EXPECT_EQ(p.stats.spectra_seen, 0u);
  p = parse("# only a comment\n\nMASS=Monoisotopic\n");
  EXPECT_TRUE(p.spectra.empty());
  EXPECT_TRUE(p.stats.skipped.empty());
}

TEST(MgfReader, NotMgfThrowsWithFileLineAndByteOffset) {
  auto reader = make_mgf_reader("proteins.fasta", 0);
  std::vector<RawSpectrum> out;
  std::string text = "MASS=Monoisotopic\n\n>sp|P02769|ALBU_BOVIN Serum albumin\nMKWVTF\n";
  try {
    // One byte at a time: the line number and offset must survive block boundaries.
    for (char c : text) reader->feed(std::string_view(&c, 1), out);
    reader->finish(out);
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), "proteins.fasta");
    EXPECT_EQ(e.line(), 3u);
    EXPECT_EQ(e.byte_offset(), 19u);
    EXPECT_NE(std::string(e.what()).find("proteins.fasta: line 3 (byte 19)"), std::string::npos)
        << e.what();
  }
}

TEST(MgfReader, BinaryContentIsQuotedAsEscapesInTheError) {
  auto reader = make_mgf_reader("run.raw.mgf", 0);
  std::vector<RawSpectrum> out;
  const std::string binary("\x01\x00\xfftrash\n", 9);
  try {
    reader->feed(binary, out);
    reader->finish(out);
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("found \"\\x01\\x00\\xfftrash\""), std::string::npos)
        << e.what();
  }
}

// The ParseError message of reading `text` fed in pieces of `block` bytes, "" when none.
std::string error_fed_in_pieces(const std::string& name, const std::string& text, size_t block) {
  auto reader = make_mgf_reader(name, 0);
  std::vector<RawSpectrum> out;
  try {
    for (size_t at = 0; at < text.size(); at += block) reader->feed(text.substr(at, block), out);
    reader->finish(out);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "";
}

// Classic Mac OS line ends (CR alone) read as one line with no spectrum: a new user got "0 of 0
// spectra searchable" and exit 0. Refused at line 1, saying how to convert; CR LF still reads.
TEST(MgfReader, CarriageReturnLineEndsAreRefusedWithTheirCause) {
  const std::string cr = "BEGIN IONS\rTITLE=a\rPEPMASS=500.25\r100.5 10\rEND IONS\r";
  for (const size_t block : {size_t{1}, size_t{7}, cr.size()}) {
    EXPECT_EQ(error_fed_in_pieces("mac.mgf", cr, block),
              "mac.mgf: line 1 (byte 0): lines end with a carriage return (CR) alone, as on "
              "classic Mac OS; convert them to LF line ends (e.g. tr '\\r' '\\n' < FILE > "
              "NEW_FILE, on the uncompressed file)");
  }
  Parsed crlf = parse("BEGIN IONS\r\nTITLE=a\r\nPEPMASS=500.25\r\n100.5 10\r\nEND IONS\r\n");
  ASSERT_EQ(crlf.spectra.size(), 1u);
  EXPECT_EQ(crlf.spectra[0].native_id, "a");
  // CR CR LF (a CR LF written through a text-mode stream) reads as before.
  Parsed crcrlf = parse(
      "BEGIN IONS\r\r\nTITLE=a\r\r\nPEPMASS=500.25\r\r\n100.5 10\r\r\n"
      "END IONS\r\r\n");
  ASSERT_EQ(crcrlf.spectra.size(), 1u);
  // The first non-blank line is the one looked at: blank lines before CR-only content.
  try {
    parse("\n \r\nBEGIN IONS\rTITLE=a\rPEPMASS=500.25\r100.5 10\rEND IONS\r");
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 3u);
  }
  // Binary content holding a CR keeps the reader's own error (its bytes quoted), not this advice.
  try {
    parse(
        std::string("\x01\xa1"
                    "F\0i\0\x0d\0\0\x0a\0",
                    12));
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()).find("carriage return"), std::string::npos) << e.what();
  }
}

// A hostile check: a file whose line ends switch from LF to CR alone after its first spectrum
// kept that spectrum and lost the rest as lines outside a block, naming no CR. Refused at the
// line where they switch, in any block size; past the longest line allowed too.
TEST(MgfReader, LineEndsSwitchingToCarriageReturnsAreRefusedWhereTheySwitch) {
  const std::string lf = "BEGIN IONS\nTITLE=a\nPEPMASS=500.25\n100.5 10\nEND IONS\n";  // 1-5
  const std::string text = lf + "BEGIN IONS\rTITLE=b\rPEPMASS=600.25\r200.5 10\rEND IONS\r";
  for (const size_t block : {size_t{1}, size_t{13}, text.size()}) {
    EXPECT_EQ(error_fed_in_pieces("switch.mgf", text, block)
                  .rfind("switch.mgf: line 6 (byte " + std::to_string(lf.size()) +
                             "): lines end with a carriage return (CR) alone",
                         0),
              0u);
  }
  std::string long_cr = lf;
  while (long_cr.size() < (17u << 20))
    long_cr += "BEGIN IONS\rPEPMASS=600.25\r200.5 10\rEND IONS\r";
  auto reader = make_mgf_reader("switch.mgf", 0);
  std::vector<RawSpectrum> out;
  try {
    for (size_t at = 0; at < long_cr.size(); at += 1 << 20) {
      reader->feed(std::string_view(long_cr).substr(at, 1 << 20), out);
    }
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 6u);
    EXPECT_NE(std::string(e.what()).find("carriage return (CR) alone"), std::string::npos);
  }
}

// A reviewer's catch: checking every line holding a CR refused files the reader had read — LF CR
// line ends, a CR inside a TITLE or a comment. Only a CR between text and text that reads as
// an MGF line (BEGIN/END IONS, KEY=value, a peak) means CR line ends.
TEST(MgfReader, CarriageReturnsInsideValuesOrAfterLineFeedsStillRead) {
  const std::string lf = "BEGIN IONS\nTITLE=a\nPEPMASS=500.25\n100.5 10\nEND IONS\n";
  std::string lfcr;
  for (char c : lf) lfcr += c == '\n' ? std::string("\n\r") : std::string(1, c);
  Parsed p = parse(lfcr);
  ASSERT_EQ(p.spectra.size(), 1u);
  EXPECT_EQ(p.spectra[0].native_id, "a");
  p = parse("#written by X\rY\n" + lf +
            "BEGIN IONS\nTITLE=foo\rbar\nPEPMASS=600.25\n200.5 10\nEND IONS\n");
  ASSERT_EQ(p.spectra.size(), 2u);
  EXPECT_EQ(p.spectra[1].native_id, "foo\rbar");
  // A CR before a parameter is a line end: refused at that line.
  try {
    parse(lf + "BEGIN IONS\nTITLE=b\rPEPMASS=600.25\n200.5 10\nEND IONS\n");
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 7u);
  }
}

TEST(MgfReader, BadFileLevelChargeThrows) {
  auto reader = make_mgf_reader("x.mgf", 0);
  std::vector<RawSpectrum> out;
  EXPECT_THROW(reader->feed("CHARGE=lots\n", out), ParseError);
}

}  // namespace
}  // namespace ionflow
