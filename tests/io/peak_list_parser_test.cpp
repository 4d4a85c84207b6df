// PeakListParser (io/peak_list_parser.hpp) on the first 5 E. coli spectra (MGF excerpt of
// openms-doc ID/Ecoli_MS2_small.mzML): in blocks of any size, plain or gzip, the queries are
// exactly those of reading the whole file and preparing each spectrum; the counts, the
// unsearchable-file warning and the errors name the file.
#include "io/peak_list_parser.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/base64.hpp"
#include "io/mzml_reader.hpp"
#include "io/sha256.hpp"
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
            "untitled.mgf: spectrum index=0 (line 1)");
  EXPECT_EQ(first_too_few_peaks("BEGIN IONS\nPEPMASS=400\nCHARGE=2+\nSCANS=7\n100 1\nEND IONS\n"),
            "untitled.mgf: spectrum index=0 scan=7 (line 1)");
  EXPECT_EQ(
      first_too_few_peaks("\nBEGIN IONS\nTITLE=t1\nPEPMASS=400\nCHARGE=2+\n100 1\nEND IONS\n"),
      "untitled.mgf: spectrum t1 (line 2)");
}

// One MS2 mzML spectrum: precursor `precursor_mz`, charge 2, 20 peaks (64-bit, uncompressed).
std::string one_spectrum_mzml(const std::string& precursor_mz) {
  std::vector<double> mz;
  std::vector<double> intensity;
  for (int i = 0; i < 20; ++i) {
    mz.push_back(150.0 + 25.0 * i);
    intensity.push_back(10.0 + i);
  }
  auto array = [](const char* kind, const std::vector<double>& values) {
    std::string bytes(values.size() * sizeof(double), '\0');
    std::memcpy(bytes.data(), values.data(), bytes.size());
    const std::string text = base64_encode(bytes);
    return std::string("<binaryDataArray encodedLength=\"") + std::to_string(text.size()) +
           "\"><cvParam cvRef=\"MS\" accession=\"MS:1000523\" name=\"64-bit float\"/>"
           "<cvParam cvRef=\"MS\" accession=\"MS:1000576\" name=\"no compression\"/>"
           "<cvParam cvRef=\"MS\" accession=\"" +
           kind + "\" name=\"array\"/><binary>" + text + "</binary></binaryDataArray>\n";
  };
  return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<mzML xmlns=\"http://psi.hupo.org/ms/mzml\" "
         "version=\"1.1.0\">\n<run id=\"r\">\n<spectrumList count=\"1\">\n"
         "<spectrum id=\"scan=7\" index=\"0\" defaultArrayLength=\"20\">\n"
         "<cvParam cvRef=\"MS\" accession=\"MS:1000511\" name=\"ms level\" value=\"2\"/>\n"
         "<precursorList count=\"1\"><precursor><selectedIonList count=\"1\"><selectedIon>\n"
         "<cvParam cvRef=\"MS\" accession=\"MS:1000744\" name=\"selected ion m/z\" value=\"" +
         precursor_mz +
         "\"/>\n<cvParam cvRef=\"MS\" accession=\"MS:1000041\" name=\"charge state\" "
         "value=\"2\"/>\n</selectedIon></selectedIonList></precursor></precursorList>\n"
         "<binaryDataArrayList count=\"2\">\n" +
         array("MS:1000514", mz) + array("MS:1000515", intensity) +
         "</binaryDataArrayList>\n</spectrum>\n</spectrumList>\n</run>\n</mzML>\n";
}

// A reviewer's catch: "precursor m/z above 100000" and "precursor charge above 10" (reasons of
// spectrum preparation) named the spectrum by its title alone. Its place is added where the
// reader knows it: the MGF entry's BEGIN IONS line, the byte offset of the mzML <spectrum> (of
// the decompressed data when the file is compressed).
TEST(PeakListParser, ASpectrumSkippedByPreparationIsNamedWithItsPlace) {
  SearchParameters params;
  params.min_peaks = 1;
  const std::string mgf =
      "BEGIN IONS\nTITLE=huge\nPEPMASS=1e6\nCHARGE=2+\n100 1\nEND IONS\n"   // 1-6
      "BEGIN IONS\nTITLE=z12\nPEPMASS=400\nCHARGE=12+\n100 1\nEND IONS\n";  // 7-12
  PeakListParser parser({"x.mgf"}, params);
  std::vector<Query> out;
  parser.feed(0, mgf, true, out);
  EXPECT_EQ(parser.tally().spectra_skipped_first,
            (std::map<std::string, std::string>{
                {"precursor m/z above 100000", "x.mgf: spectrum huge (line 1)"},
                {"precursor charge above 10", "x.mgf: spectrum z12 (line 7)"}}));

  const std::string mzml = one_spectrum_mzml("200000.5");
  const size_t at = mzml.find("<spectrum ");
  ASSERT_EQ(at, 136u);
  for (const bool compressed : {false, true}) {
    const std::string name = compressed ? "x.mzML.gz" : "x.mzML";
    for (const bool tokenize : {false, true}) {
      // The mzML reader's own tokenizer (for plain spectra) and expat give the same place.
      auto reader = make_mzml_reader(name, 0, tokenize);
      std::vector<RawSpectrum> spectra;
      reader->feed(mzml, spectra);
      reader->finish(spectra);
      ASSERT_EQ(spectra.size(), 1u);
      EXPECT_EQ(spectra[0].source_byte, at);
      EXPECT_EQ(spectra[0].source_line, 0u);
    }
    PeakListParser mzml_parser({name}, params);
    mzml_parser.feed(0, compressed ? io_testing::gzip(mzml) : mzml, true, out);
    EXPECT_EQ(
        mzml_parser.tally().spectra_skipped_first.at("precursor m/z above 100000"),
        name + ": spectrum scan=7 (byte 136" + (compressed ? " of the decompressed data)" : ")"));
  }
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

// A reviewer's catch: X.mgf and X.mgf.gz (the same spectra) were searched twice without a word;
// only the same path given twice was warned about. A job of several files hashes the
// decompressed bytes of each compressed one (an uncompressed file's SHA-256 is the reader's);
// equal data is warned about, naming both files.
TEST(PeakListParser, IdenticalSpectraFilesAreNamedByTheirData) {
  const std::string data = sha256_hex(io_testing::read_file(kMgf));
  const std::string on_disk_gz = sha256_hex(io_testing::read_file(kMgfGz));
  ASSERT_NE(data, on_disk_gz);
  PeakListParser parser({kMgf, kMgfGz}, SearchParameters{});
  std::vector<Query> out;
  parser.feed(0, io_testing::read_file(kMgf), true, out);
  const std::string gz = io_testing::read_file(kMgfGz);
  parser.feed(1, std::string_view(gz).substr(0, 100), false, out);
  parser.feed(1, std::string_view(gz).substr(100), true, out);
  EXPECT_EQ(parser.tally().decompressed_sha256,
            (std::map<std::string, std::string>{{kMgfGz, data}}));
  const std::string twice =
      ": its spectra are searched twice, each competing with itself for its q-value";
  EXPECT_EQ(identical_spectra_file_warnings({kMgf, kMgfGz}, {{kMgf, data}, {kMgfGz, on_disk_gz}},
                                            parser.tally().decompressed_sha256),
            std::vector<std::string>{"spectra file " + kMgfGz + " holds the same data as " + kMgf +
                                     " once decompressed (SHA-256 " + data.substr(0, 16) + "...)" +
                                     twice});
  // A one-file job hashes nothing more.
  PeakListParser one({kMgfGz}, SearchParameters{});
  one.feed(0, gz, true, out);
  EXPECT_TRUE(one.tally().decompressed_sha256.empty());
  // Plain copies, the same path twice, three files of one data: each later one names the first.
  const std::string a(64, 'a');
  const std::string b(64, 'b');
  EXPECT_EQ(identical_spectra_file_warnings({"x.mgf", "y.mgf", "copy.mgf", "x.mgf"},
                                            {{"x.mgf", a}, {"y.mgf", b}, {"copy.mgf", a}}, {}),
            (std::vector<std::string>{
                "spectra file copy.mgf holds the same data as x.mgf (SHA-256 aaaaaaaaaaaaaaaa...)" +
                    twice,
                "spectra file x.mgf is given twice" + twice}));
  // Different data: nothing; a compressed file's bytes on disk are not its data.
  EXPECT_TRUE(identical_spectra_file_warnings({"x.mgf", "y.mgf.gz"},
                                              {{"x.mgf", a}, {"y.mgf.gz", a}}, {{"y.mgf.gz", b}})
                  .empty());
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
