// PeakListParser (io/peak_list_parser.hpp) on the first 5 E. coli spectra (MGF excerpt of
// openms-doc ID/Ecoli_MS2_small.mzML): in blocks of any size, plain or gzip, the queries are
// exactly those of reading the whole file and preparing each spectrum; the counts, the
// unsearchable-file warning and the errors name the file.
#include "io/peak_list_parser.hpp"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/spectrum_reader.hpp"
#include "io_test_support.hpp"
#include "scoring/search.hpp"

namespace ionflow {
namespace {

const std::string kMgf = std::string(IONFLOW_TEST_DATA_DIR) + "/ecoli_ms2_small_first5.mgf";
const std::string kMgfGz = kMgf + ".gz";

// The queries of `path` read whole and prepared one spectrum at a time.
std::vector<Query> reference_queries(const SearchParameters& params) {
  auto reader = make_spectrum_reader(PeakListFormat::kMgf, kMgf, 0);
  std::vector<RawSpectrum> spectra;
  reader->feed(io_testing::read_file(kMgf), spectra);
  reader->finish(spectra);
  std::vector<Query> out;
  for (const RawSpectrum& s : spectra) {
    for (Query& q : prepare_spectrum(s, params).queries) out.push_back(std::move(q));
  }
  return out;
}

// Feeds `path` (file index 0) in blocks of `block` bytes.
std::vector<Query> parse_in_blocks(PeakListParser& parser, const std::string& path, size_t block) {
  const std::string bytes = io_testing::read_file(path);
  std::vector<Query> out;
  for (size_t at = 0; at < bytes.size(); at += block) {
    const bool last = at + block >= bytes.size();
    parser.feed(0, std::string_view(bytes).substr(at, block), last, out);
  }
  return out;
}

void expect_same_queries(const std::vector<Query>& got, const std::vector<Query>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].native_id, want[i].native_id);
    EXPECT_EQ(got[i].charge, want[i].charge);
    EXPECT_EQ(got[i].neutral_mass, want[i].neutral_mass);
    EXPECT_EQ(got[i].peaks.size(), want[i].peaks.size());
  }
}

TEST(PeakListParser, PlainAndGzipInAnyBlockSizeGiveTheWholeFilesQueries) {
  const SearchParameters params;
  const std::vector<Query> want = reference_queries(params);
  ASSERT_FALSE(want.empty());
  for (const std::string& path : {kMgf, kMgfGz}) {
    for (size_t block : {size_t{7}, size_t{600}, size_t{1} << 20}) {
      PeakListParser parser({path}, params);
      expect_same_queries(parse_in_blocks(parser, path, block), want);
      const ParseTally& tally = parser.tally();
      EXPECT_EQ(tally.spectra_read, 5u) << path << " " << block;
      EXPECT_EQ(tally.spectra_parsed, 5u);
      EXPECT_EQ(tally.queries, want.size());
      EXPECT_TRUE(tally.warnings.empty());
    }
  }
}

TEST(PeakListParser, AFileWithoutASearchableSpectrumIsWarnedAbout) {
  SearchParameters params;
  params.min_peaks = 100000;  // no spectrum has that many peaks
  PeakListParser parser({kMgf}, params);
  EXPECT_TRUE(parse_in_blocks(parser, kMgf, 1 << 20).empty());
  EXPECT_EQ(parser.tally().spectra_searched, 0u);
  EXPECT_EQ(parser.tally().spectra_skipped.at("too few peaks"), 5u);
  EXPECT_EQ(parser.tally().warnings,
            std::vector<std::string>{kMgf + ": 0 of 5 spectra searchable (5 too few peaks)"});
}

// The first skipped spectrum of each reason is named in the summary: an MGF spectrum without
// TITLE by its place in the file (0-based, as results name it) and its SCANS when given.
std::string first_too_few_peaks(const std::string& mgf) {
  SearchParameters params;
  params.min_peaks = 2;
  PeakListParser parser({"untitled.mgf"}, params);
  std::vector<Query> out;
  parser.feed(0, mgf, true, out);
  return parser.tally().spectra_skipped_first.at("too few peaks");
}

TEST(PeakListParser, ASkippedSpectrumWithoutTitleIsNamedByItsPlace) {
  EXPECT_EQ(first_too_few_peaks("BEGIN IONS\nPEPMASS=400\nCHARGE=2+\n100 1\nEND IONS\n"),
            "untitled.mgf: spectrum index=0");
  EXPECT_EQ(first_too_few_peaks("BEGIN IONS\nPEPMASS=400\nCHARGE=2+\nSCANS=7\n100 1\nEND IONS\n"),
            "untitled.mgf: spectrum index=0 scan=7");
  EXPECT_EQ(first_too_few_peaks("BEGIN IONS\nTITLE=t1\nPEPMASS=400\nCHARGE=2+\n100 1\nEND IONS\n"),
            "untitled.mgf: spectrum t1");
}

// A reviewer's catch: negative intensities were dropped by preparation without a word, so a
// spectrum of only negative intensities was "too few peaks" and nothing said why. The reader
// drops and counts them now, as NaN ones: the spectrum has no peaks, and the warning names the
// first one's line.
TEST(PeakListParser, ASpectrumOfNegativeIntensitiesIsNoPeaksAndWarned) {
  PeakListParser parser({"x.mgf"}, SearchParameters{});
  std::vector<Query> out;
  parser.feed(0, "BEGIN IONS\nTITLE=neg\nPEPMASS=400\nCHARGE=2+\n100 -1\n200 -2\nEND IONS\n", true,
              out);
  EXPECT_EQ(parser.tally().spectra_skipped, (std::map<std::string, uint64_t>{{"no peaks", 1}}));
  EXPECT_EQ(parser.tally().spectra_skipped_first.at("no peaks"), "x.mgf: line 1");
  EXPECT_EQ(
      parser.tally().warnings,
      (std::vector<std::string>{"x.mgf: 2 peaks dropped: intensity negative (first at line 5)",
                                "x.mgf: 0 of 1 spectra searchable (1 no peaks)"}));
}

TEST(PeakListParser, AnEmptyFileIsAParseErrorNamingIt) {
  PeakListParser parser({"empty.mgf"}, SearchParameters{});
  std::vector<Query> out;
  try {
    parser.feed(0, "", true, out);
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()),
              "empty.mgf: byte 0: empty file: no mzML, mzXML, MGF or MS2 content");
    EXPECT_EQ(parser.failure_message(e, 0, 0), e.what());
  }
}

TEST(PeakListParser, AFailureInACompressedFileSaysHowToCheckIt) {
  PeakListParser parser({kMgfGz}, SearchParameters{});
  std::vector<Query> out;
  parser.feed(0, io_testing::read_file(kMgfGz).substr(0, 100), false, out);
  EXPECT_EQ(parser.failure_message(std::runtime_error("bad peak"), 0, 100),
            kMgfGz +
                " (block at byte 100): bad peak (line and byte count the decompressed data; if "
                "the file is damaged, `gzip -t` will say so)");
}

// A warning that names a byte of a compressed file says the count is of the decompressed data:
// a gzip of an mzML cut inside <run> (76 bytes decompressed, fewer compressed).
TEST(PeakListParser, AWarningInACompressedFileSaysItsBytesAreDecompressed) {
  const std::string cut =
      "<?xml version=\"1.0\"?>\n<mzML xmlns=\"http://psi.hupo.org/ms/mzml\"><run id=\"x\">";
  ASSERT_EQ(cut.size(), 76u);
  for (const bool compressed : {false, true}) {
    const std::string name = compressed ? "cut.mzML.gz" : "cut.mzML";
    PeakListParser parser({name}, SearchParameters{});
    std::vector<Query> out;
    parser.feed(0, compressed ? io_testing::gzip(cut) : cut, true, out);
    const std::string warning = name +
                                ": 1 file ends early (truncated?) (first at byte 76, the end of "
                                "the file, inside <run>)" +
                                (compressed ? " (bytes count the decompressed data)" : "");
    EXPECT_EQ(parser.tally().warnings.at(0), warning);
  }
}

}  // namespace
}  // namespace ionflow
