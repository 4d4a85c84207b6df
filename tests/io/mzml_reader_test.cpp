// The mzML reader on real data: excerpts of the OpenMS example files (tests/data) and the full
// files (IONFLOW_EXAMPLES_DIR). Expected values were read from the files themselves (cvParam
// values; peaks decoded independently with Python's base64/struct).
#include "io/mzml_reader.hpp"
#include "io/parse_error.hpp"
#include "io/peak_checks.hpp"
#include "io/xml_root_end.hpp"

#include <gtest/gtest.h>

#include <map>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace ionflow {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string test_data(const std::string& name) {
  return slurp(std::string(IONFLOW_TEST_DATA_DIR) + "/" + name);
}

struct ReadResult {
  std::vector<RawSpectrum> spectra;
  ReadStats stats;
};

// Feeds `data` in blocks of `block` bytes (0 = one block), then finish().
ReadResult read_mzml(std::string_view data, size_t block = 0, uint32_t file_index = 0,
                     const std::string& name = "test.mzML", bool tokenize_plain_spectra = true) {
  auto reader = make_mzml_reader(name, file_index, tokenize_plain_spectra);
  ReadResult r;
  if (block == 0) block = data.size() + 1;
  for (size_t pos = 0; pos < data.size(); pos += block) {
    reader->feed(data.substr(pos, block), r.spectra);
  }
  reader->finish(r.spectra);
  r.stats = reader->stats();
  return r;
}

// Everything the reader produces, for block-independence checks.
void expect_same(const RawSpectrum& a, const RawSpectrum& b) {
  EXPECT_EQ(a.file_index, b.file_index);
  EXPECT_EQ(a.spectrum_index, b.spectrum_index);
  EXPECT_EQ(a.native_id, b.native_id);
  EXPECT_EQ(a.scan, b.scan);
  EXPECT_EQ(a.ms_level, b.ms_level);
  EXPECT_EQ(a.rt_seconds, b.rt_seconds);
  EXPECT_EQ(a.precursor_mz, b.precursor_mz);
  EXPECT_EQ(a.precursor_charges, b.precursor_charges);
  EXPECT_EQ(a.precursor_intensity, b.precursor_intensity);
  EXPECT_EQ(a.activation, b.activation);
  EXPECT_EQ(a.mz, b.mz);
  EXPECT_EQ(a.intensity, b.intensity);
}

struct Expected {
  const char* native_id;
  int64_t scan;
  double rt_seconds;
  double precursor_mz;
  int charge;
  size_t peaks;
  double first_mz, last_mz;
  float first_intensity, last_intensity;
};

void expect_spectrum(const RawSpectrum& s, const Expected& e) {
  SCOPED_TRACE(e.native_id);
  EXPECT_EQ(s.native_id, e.native_id);
  EXPECT_EQ(s.scan, e.scan);
  EXPECT_EQ(s.ms_level, 2);
  EXPECT_NEAR(s.rt_seconds, e.rt_seconds, 1e-9);
  EXPECT_NEAR(s.precursor_mz, e.precursor_mz, 1e-9);
  EXPECT_EQ(s.precursor_charges, std::vector<int>{e.charge});
  EXPECT_EQ(s.activation, "CID");
  ASSERT_EQ(s.mz.size(), e.peaks);
  ASSERT_EQ(s.intensity.size(), e.peaks);
  EXPECT_NEAR(s.mz.front(), e.first_mz, 1e-6);
  EXPECT_NEAR(s.mz.back(), e.last_mz, 1e-6);
  EXPECT_NEAR(s.intensity.front(), e.first_intensity, 1e-5);
  EXPECT_NEAR(s.intensity.back(), e.last_intensity, 1e-5);
}

// BSA1.mzML spectra (ids "spectrum=N": N is taken as the scan number).
const Expected kBsa2442{"spectrum=2442", 2442,        1503.96166992188, 457.723968505859, 2, 102,
                        147.2906036,     769.2557983, 3.42735958f,      5.96524715f};
const Expected kBsa2443{"spectrum=2443", 2443,        1508.63952636719, 483.539184570312, 3, 106,
                        187.1072083,     791.2611084, 22.6459484f,      9.16100883f};
const Expected kBsa2444{"spectrum=2444", 2444,        1509.01611328125, 618.719482421875, 2, 34,
                        226.1676483,     779.4091797, 6.11688185f,      7.65590429f};
const Expected kBsa3561{"spectrum=3561", 3561,        2499.14208984375, 706.818725585938, 2, 60,
                        205.9263611,     790.5264282, 6.84731817f,      12.7528591f};
const Expected kBsa3550{"spectrum=3550", 3550,        2491.68017578125, 1237.60559082031, 2, 14,
                        406.9320679,     791.4459229, 8.86861229f,      7.78452015f};
const Expected kBsa2446{"spectrum=2446", 2446,        1519.99584960938, 621.716674804688, 2, 28,
                        235.890625,      774.6740723, 2.12777257f,      1.58094358f};
// Ecoli_MS2_small.mzML spectra (Thermo native ids).
const Expected kEcoli11461{"controllerType=0 controllerNumber=1 scan=11461",
                           11461,
                           5000.0916,
                           617.318542480469,
                           2,
                           260,
                           175.2883606,
                           1175.233643,
                           6.73236799f,
                           26.1995888f};
const Expected kEcoli11462{"controllerType=0 controllerNumber=1 scan=11462",
                           11462,
                           5000.3859,
                           488.925689697266,
                           3,
                           441,
                           137.1298981,
                           916.0393677,
                           9.34864426f,
                           17.9982243f};
const Expected kEcoli11471{"controllerType=0 controllerNumber=1 scan=11471",
                           11471,
                           5003.6435,
                           398.232452392578,
                           2,
                           31,
                           155.2091217,
                           693.3843384,
                           5.52924967f,
                           6.29449511f};
const Expected kEcoli11614{"controllerType=0 controllerNumber=1 scan=11614",
                           11614,
                           5049.7361,
                           571.333557128906,
                           2,
                           326,
                           169.1996307,
                           1082.421265,
                           30.1614628f,
                           7.29896832f};

// indexedmzML wrapper, one MS1 then four MS2 spectra, 64-bit m/z and 32-bit intensities.
TEST(MzmlReader, Bsa1ExcerptValues) {
  const ReadResult r = read_mzml(test_data("BSA1_excerpt.mzML"), 0, 7);
  EXPECT_EQ(r.stats.spectra_seen, 5u);
  EXPECT_EQ(r.stats.spectra_emitted, 4u);
  EXPECT_EQ(r.stats.skipped, (std::map<std::string, uint64_t>{{"MS level 1", 1}}));
  EXPECT_EQ(r.stats.first_skipped_at.at("MS level 1"), "spectrum spectrum=1011");
  ASSERT_EQ(r.spectra.size(), 4u);
  expect_spectrum(r.spectra[0], kBsa2442);
  expect_spectrum(r.spectra[1], kBsa2443);
  expect_spectrum(r.spectra[2], kBsa2444);
  expect_spectrum(r.spectra[3], kBsa3561);
  for (size_t i = 0; i < r.spectra.size(); ++i) {
    EXPECT_EQ(r.spectra[i].spectrum_index, i);
    EXPECT_EQ(r.spectra[i].file_index, 7u);
    EXPECT_EQ(r.spectra[i].precursor_intensity, 0.0);  // BSA1 has no MS:1000042
  }
}

// Plain <mzML> root (no index), spectra in the ISO-8859-1 file, a TIC chromatogram (ignored,
// although it carries a precursor with isolation window target 0).
TEST(MzmlReader, EcoliExcerptValues) {
  const ReadResult r = read_mzml(test_data("Ecoli_MS2_small_excerpt.mzML"));
  EXPECT_EQ(r.stats.spectra_seen, 4u);
  EXPECT_EQ(r.stats.spectra_emitted, 4u);
  EXPECT_TRUE(r.stats.skipped.empty());
  ASSERT_EQ(r.spectra.size(), 4u);
  expect_spectrum(r.spectra[0], kEcoli11461);
  expect_spectrum(r.spectra[1], kEcoli11462);
  expect_spectrum(r.spectra[2], kEcoli11471);
  expect_spectrum(r.spectra[3], kEcoli11614);
}

// CV terms given through referenceableParamGroupRef (ms level, array type, precision,
// compression), as ProteoWizard writes them.
TEST(MzmlReader, ReferenceableParamGroups) {
  const ReadResult r = read_mzml(test_data("BSA1_three_ms2_param_groups.mzML"));
  EXPECT_EQ(r.stats.spectra_seen, 3u);
  EXPECT_TRUE(r.stats.skipped.empty());
  ASSERT_EQ(r.spectra.size(), 3u);
  expect_spectrum(r.spectra[0], kBsa2444);
  expect_spectrum(r.spectra[1], kBsa3550);
  expect_spectrum(r.spectra[2], kBsa2446);
}

// The same three spectra as written by OpenMS 2.6 FileConverter -lossy_compression: indexedmzML,
// m/z as MS-Numpress linear + zlib (MS:1002746), intensities as numpress slof + zlib
// (MS:1002748). Values match the uncompressed file within numpress precision.
TEST(MzmlReader, NumpressZlibWrittenByOpenMS) {
  const ReadResult plain = read_mzml(test_data("BSA1_three_ms2_param_groups.mzML"));
  const ReadResult packed = read_mzml(test_data("BSA1_three_ms2_numpress_openms.mzML"), 4096);
  EXPECT_EQ(packed.stats.spectra_seen, 3u);
  EXPECT_TRUE(packed.stats.skipped.empty());
  ASSERT_EQ(packed.spectra.size(), 3u);
  ASSERT_EQ(plain.spectra.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const RawSpectrum& a = plain.spectra[i];
    const RawSpectrum& b = packed.spectra[i];
    SCOPED_TRACE(a.native_id);
    EXPECT_EQ(b.native_id, a.native_id);
    EXPECT_EQ(b.scan, a.scan);
    EXPECT_NEAR(b.rt_seconds, a.rt_seconds, 1e-6);
    EXPECT_NEAR(b.precursor_mz, a.precursor_mz, 1e-9);
    EXPECT_EQ(b.precursor_charges, a.precursor_charges);
    EXPECT_EQ(b.activation, a.activation);
    ASSERT_EQ(b.mz.size(), a.mz.size());
    ASSERT_EQ(b.intensity.size(), a.intensity.size());
    for (size_t k = 0; k < a.mz.size(); ++k) {
      EXPECT_NEAR(b.mz[k], a.mz[k], 1e-6);
      EXPECT_NEAR(b.intensity[k], a.intensity[k], 1e-3 * (a.intensity[k] + 1));
    }
  }
}

// A spectrum may straddle any block boundary: two blocks split at every byte position, and
// 1-byte blocks, give exactly the spectra of a one-block feed.
TEST(MzmlReader, BlockBoundaryAtEveryByte) {
  const std::string data = test_data("BSA1_three_ms2_param_groups.mzML");
  const ReadResult whole = read_mzml(data);
  ASSERT_EQ(whole.spectra.size(), 3u);
  for (size_t cut = 1; cut < data.size(); ++cut) {
    auto reader = make_mzml_reader("split.mzML", 0);
    std::vector<RawSpectrum> out;
    reader->feed(std::string_view(data).substr(0, cut), out);
    reader->feed(std::string_view(data).substr(cut), out);
    reader->finish(out);
    ASSERT_EQ(out.size(), whole.spectra.size()) << "cut at " << cut;
    for (size_t i = 0; i < out.size(); ++i) {
      if (out[i].mz != whole.spectra[i].mz || out[i].intensity != whole.spectra[i].intensity ||
          out[i].precursor_mz != whole.spectra[i].precursor_mz ||
          out[i].native_id != whole.spectra[i].native_id ||
          out[i].rt_seconds != whole.spectra[i].rt_seconds) {
        FAIL() << "spectrum " << i << " differs when cut at byte " << cut;
      }
    }
  }
  const ReadResult bytewise = read_mzml(data, 1);
  ASSERT_EQ(bytewise.spectra.size(), whole.spectra.size());
  for (size_t i = 0; i < whole.spectra.size(); ++i) {
    expect_same(bytewise.spectra[i], whole.spectra[i]);
  }
}

TEST(MzmlReader, OneByteBlocksWithMs1AndIndex) {
  const std::string data = test_data("BSA1_excerpt.mzML");
  const ReadResult whole = read_mzml(data);
  const ReadResult bytewise = read_mzml(data, 1);
  EXPECT_EQ(bytewise.stats.spectra_seen, 5u);
  EXPECT_EQ(bytewise.stats.skipped, whole.stats.skipped);
  ASSERT_EQ(bytewise.spectra.size(), 4u);
  for (size_t i = 0; i < whole.spectra.size(); ++i) {
    expect_same(bytewise.spectra[i], whole.spectra[i]);
  }
}

// Full example files. BSA1: 1684 spectra (spectrumList count), of which `grep -c 'name="ms
// level" value="2"'` = 1120 MS2 and 564 MS1. Ecoli_MS2_small: 139 spectra, all MS2.
TEST(MzmlReader, Bsa1FullFile) {
  const std::string data = slurp(std::string(IONFLOW_EXAMPLES_DIR) + "/BSA/BSA1.mzML");
  const ReadResult r = read_mzml(data, 4 << 20);
  EXPECT_EQ(r.stats.spectra_seen, 1684u);
  EXPECT_EQ(r.stats.spectra_emitted, 1120u);
  EXPECT_EQ(r.stats.skipped, (std::map<std::string, uint64_t>{{"MS level 1", 564}}));
  ASSERT_EQ(r.spectra.size(), 1120u);
  expect_spectrum(r.spectra.front(), kBsa2442);
  expect_spectrum(r.spectra.back(), kBsa3561);
  EXPECT_EQ(r.spectra.back().spectrum_index, 1119u);
  size_t charge3 = 0;
  for (const auto& s : r.spectra) charge3 += s.precursor_charges == std::vector<int>{3};
  EXPECT_EQ(charge3, 399u);  // grep -c 'name="charge state" value="3"'
}

TEST(MzmlReader, EcoliFullFile) {
  const std::string data = slurp(std::string(IONFLOW_EXAMPLES_DIR) + "/ID/Ecoli_MS2_small.mzML");
  const ReadResult r = read_mzml(data, 65536);
  EXPECT_EQ(r.stats.spectra_seen, 139u);
  EXPECT_EQ(r.stats.spectra_emitted, 139u);
  EXPECT_TRUE(r.stats.skipped.empty());
  ASSERT_EQ(r.spectra.size(), 139u);
  expect_spectrum(r.spectra.front(), kEcoli11461);
  expect_spectrum(r.spectra.back(), kEcoli11614);
}

// --- malformed input -----------------------------------------------------------------------

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  const size_t pos = s.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  if (pos != std::string::npos) s.replace(pos, from.size(), to);
  return s;
}

TEST(MzmlReader, NotWellFormedThrowsWithFileByteAndLine) {
  const std::string good = test_data("BSA1_three_ms2_param_groups.mzML");
  // Second spectrum's </precursor> misspelt: expat reports "mismatched tag" at that tag.
  const size_t second = good.find("<spectrum id=\"spectrum=3550\"");
  const size_t tag = good.find("</precursor>", second);
  std::string bad = good;
  bad.replace(tag, 12, "</precursorX>");
  const uint64_t line = 1 + std::count(bad.begin(), bad.begin() + tag, '\n');
  for (size_t block : {size_t{0}, size_t{100}, size_t{1}}) {
    auto reader = make_mzml_reader("broken.mzML", 0);
    std::vector<RawSpectrum> out;
    try {
      for (size_t pos = 0; pos < bad.size(); pos += block == 0 ? bad.size() : block) {
        reader->feed(std::string_view(bad).substr(pos, block == 0 ? bad.size() : block), out);
      }
      reader->finish(out);
      FAIL() << "no ParseError";
    } catch (const ParseError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("broken.mzML"), std::string::npos) << what;
      EXPECT_NE(what.find("byte"), std::string::npos) << what;
      EXPECT_NE(what.find("mismatched tag"), std::string::npos) << what;
      EXPECT_EQ(e.file(), "broken.mzML");
      EXPECT_EQ(e.byte_offset(), tag + 2) << what;  // expat points at the tag's name
      EXPECT_EQ(e.line(), line) << what;
    }
    EXPECT_EQ(out.size(), 1u);  // the spectrum before the error was complete
    // The reader stays failed.
    EXPECT_THROW(reader->finish(out), ParseError);
  }
}

// A file cut short keeps the spectra before the cut; a spectrum the cut goes through is skipped
// as "truncated at end of file", and the file counts "file ends early (truncated?)", as the MGF
// and mzXML readers do (reader_agreement_test.cpp).
TEST(MzmlReader, TruncatedFileKeepsTheSpectraBeforeTheCut) {
  const std::string good = test_data("BSA1_three_ms2_param_groups.mzML");
  const size_t third = good.find("<spectrum id=", good.find("<spectrum id=\"spectrum=3550\"") + 1);
  struct Cut {
    size_t at;
    size_t spectra;
    bool cuts_a_spectrum;
  };
  for (const Cut cut : {Cut{third + 500, 2, true}, Cut{good.size() - 10, 3, false},
                        Cut{good.find("</mzML>"), 3, false}}) {
    for (bool own : {true, false}) {
      SCOPED_TRACE(std::to_string(cut.at) + (own ? " own" : " expat"));
      auto reader = make_mzml_reader("cut.mzML", 0, own);
      std::vector<RawSpectrum> out;
      reader->feed(std::string_view(good).substr(0, cut.at), out);
      reader->finish(out);
      EXPECT_EQ(out.size(), cut.spectra);
      const ReadStats& stats = reader->stats();
      EXPECT_EQ(stats.problems,
                (std::map<std::string, uint64_t>{{"file ends early (truncated?)", 1}}));
      if (cut.cuts_a_spectrum) {
        EXPECT_EQ(stats.spectra_seen, 3u);
        EXPECT_EQ(stats.skipped.at("truncated at end of file"), 1u);
        EXPECT_EQ(stats.first_skipped_at.at("truncated at end of file"), "spectrum spectrum=2446");
      } else {
        EXPECT_TRUE(stats.skipped.empty());
      }
    }
  }
  // A file that is not even an mzML start is still an error.
  auto reader = make_mzml_reader("cut.mzML", 0);
  std::vector<RawSpectrum> out;
  reader->feed("<?xml version=\"1.0\"?>\n<mz", out);
  EXPECT_THROW(reader->finish(out), ParseError);
}

// A file cut outside a spectrum (before its spectrum list, between spectra, before </run>,
// </mzML> or </indexedmzML>) is a file that ends early, as one cut inside a spectrum is: the
// problem names the byte where the file ends and the element it ends in (it said "end of file",
// and a file cut before <spectrumList> read as 0 spectra with nothing to say where). A complete
// file without spectra has no problem. Both reader paths, whole and in 1-byte blocks.
TEST(MzmlReader, AFileCutOutsideASpectrumSaysWhereItEndsAndInWhichElement) {
  const std::string head = "<?xml version=\"1.0\"?>\n<mzML xmlns=\"http://psi.hupo.org/ms/mzml\">";
  const std::string good = test_data("BSA1_three_ms2_param_groups.mzML");
  const std::string indexed = "<?xml version=\"1.0\"?>\n<indexedmzML>\n" +
                              good.substr(good.find("<mzML")) + "<indexList count=\"1\">";
  struct Cut {
    std::string text;
    std::string inside;  // "" for a complete file
    size_t spectra;
  };
  const Cut cuts[] = {
      {head + "<run id=\"x\">", "run", 0},  // a new user's: read as a valid file of 0 spectra
      {head + "<run id=", "mzML", 0},       // inside the <run> start tag: <run> is not open
      {head + "<run id=\"x\"><spectrumList count=\"0\">", "spectrumList", 0},
      {head + "<run id=\"x\"><spectrumList count=\"0\"/>", "run", 0},
      {head + "<run id=\"x\"><spectrumList count=\"0\"/></run>\n", "mzML", 0},
      {good.substr(0, good.find("</spectrumList>")), "spectrumList", 3},
      {good.substr(0, good.find("</mzML>")), "mzML", 3},
      {indexed.substr(0, indexed.find("<indexList")), "indexedmzML", 3},
      {indexed, "indexList", 3},
      // Complete, without spectra: valid, nothing to say.
      {head + "<run id=\"x\"><spectrumList count=\"0\"/></run></mzML>\n", "", 0},
      {head + "<run id=\"x\"><spectrumList count=\"0\"></spectrumList></run></mzML>", "", 0},
      {"<indexedmzML>" + head.substr(head.find("<mzML")) +
           "<run id=\"x\"><spectrumList count=\"0\"/></run></mzML><indexList count=\"0\"/>"
           "</indexedmzML>\n",
       "", 0},
  };
  for (const Cut& cut : cuts) {
    for (bool own : {true, false}) {
      for (size_t block : {size_t{0}, size_t{1}}) {
        SCOPED_TRACE(cut.text.substr(0, 120) + (own ? " own" : " expat") +
                     (block == 1 ? " 1-byte blocks" : ""));
        const ReadResult r = read_mzml(cut.text, block, 0, "cut.mzML", own);
        EXPECT_EQ(r.spectra.size(), cut.spectra);
        EXPECT_EQ(r.stats.spectra_seen, cut.spectra);
        EXPECT_TRUE(r.stats.skipped.empty());
        if (cut.inside.empty()) {
          EXPECT_TRUE(r.stats.problems.empty());
          continue;
        }
        const std::string where = "byte " + std::to_string(cut.text.size()) +
                                  ", the end of the file, inside <" + cut.inside + ">";
        EXPECT_EQ(r.stats.problems, (std::map<std::string, uint64_t>{{kFileEndsEarly, 1}}));
        EXPECT_EQ(read_problem_warnings("cut.mzML", r.stats),
                  std::vector<std::string>{"cut.mzML: 1 file ends early (truncated?) (first at " +
                                           where + ")"});
      }
    }
  }
}

// After the root element, expat's error depends on where the input was cut ("invalid token" on
// line 2 whole, "junk after document element" on line 1 cut before it; found by
// mzml_expat_fuzzer in CI). Every spectrum has been read by then: every cut keeps them and notes
// the one problem at </mzML> (io/xml_root_end.hpp); an MS1 spectrum after it is not counted.
TEST(MzmlReader, BytesAfterTheRootElementAreIgnoredAtItsEndTagWhateverTheCut) {
  const std::string good = test_data("BSA1_three_ms2_param_groups.mzML");
  const size_t root_end = good.rfind("</mzML>");
  const uint64_t line = 1 + std::count(good.begin(), good.begin() + root_end, '\n');
  const std::string where =
      "</mzML> on line " + std::to_string(line) + " (byte " + std::to_string(root_end) + ")";
  const std::string ms1 =
      "<spectrum id=\"s1\" index=\"9\"><cvParam cvRef=\"MS\" accession=\"MS:1000511\" "
      "name=\"ms level\" value=\"1\"/></spectrum>";
  for (const std::string& tail : std::vector<std::string>{
           "\"\r\n\"\xf3!x!]-", "\r\n\r\n<a b=\"\xff", "<!-- open", "x" + ms1 + "\xff"}) {
    const std::string bad = good + tail;
    for (bool own : {true, false}) {
      for (size_t cut = root_end; cut <= bad.size(); ++cut) {
        SCOPED_TRACE("cut at " + std::to_string(cut) + (own ? " own" : " expat"));
        auto reader = make_mzml_reader("joined.mzML", 0, own);
        std::vector<RawSpectrum> out;
        reader->feed(std::string_view(bad).substr(0, cut), out);
        reader->feed(std::string_view(bad).substr(cut), out);
        reader->finish(out);
        EXPECT_EQ(out.size(), 3u);
        const ReadStats& stats = reader->stats();
        EXPECT_EQ(stats.spectra_seen, 3u);
        EXPECT_EQ(stats.problems, (std::map<std::string, uint64_t>{{kBytesAfterRootIgnored, 1}}));
        EXPECT_EQ(stats.first_problem_at.at(kBytesAfterRootIgnored), where);
      }
    }
  }
  // Whitespace, comments and processing instructions after it are XML: no problem.
  const ReadResult misc = read_mzml(good + "\r\n<!-- end -->\n<?pi x?>\n", 7);
  EXPECT_EQ(misc.spectra.size(), 3u);
  EXPECT_TRUE(misc.stats.problems.empty());
}

TEST(MzmlReader, EmptyInputAndWrongRootThrow) {
  EXPECT_THROW(read_mzml(""), ParseError);
  EXPECT_THROW(read_mzml("<?xml version=\"1.0\"?>\n<mzXML></mzXML>\n"), ParseError);
  EXPECT_THROW(read_mzml("BEGIN IONS\nPEPMASS=500\nEND IONS\n"), ParseError);
}

// Millions of nested elements cost expat memory per open element: the reader stops at 64
// levels (mzML needs about 10), naming the byte where it stopped.
TEST(MzmlReader, DeepNestingStopsAtDepth64) {
  std::string deep = "<?xml version=\"1.0\"?>\n<mzML>";
  for (int i = 0; i < 100000; ++i) deep += "<a>";
  auto reader = make_mzml_reader("deep.mzML", 0);
  std::vector<RawSpectrum> out;
  try {
    reader->feed(deep, out);
    reader->finish(out);
    FAIL() << "no ParseError";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("elements nested more than 64 deep: not mzML"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.file(), "deep.mzML");
    // Where expat stopped: just after the 64th <a> (depth 65 with <mzML>), 22 + 6 + 64 * 3.
    EXPECT_EQ(e.byte_offset(), 22u + 6u + 64u * 3u) << e.what();
  }
}

TEST(MzmlReader, BadBase64SkipsOnlyThatSpectrum) {
  const std::string good = test_data("BSA1_three_ms2_param_groups.mzML");
  const size_t second = good.find("<spectrum id=\"spectrum=3550\"");
  std::string bad = good;
  bad.insert(good.find("<binary>", second) + 20, "!");
  const ReadResult r = read_mzml(bad);
  EXPECT_EQ(r.stats.spectra_seen, 3u);
  EXPECT_EQ(r.stats.spectra_emitted, 2u);
  EXPECT_EQ(r.stats.skipped, (std::map<std::string, uint64_t>{{"bad base64", 1}}));
  ASSERT_EQ(r.spectra.size(), 2u);
  expect_spectrum(r.spectra[0], kBsa2444);
  expect_spectrum(r.spectra[1], kBsa2446);
  EXPECT_EQ(r.spectra[1].spectrum_index, 1u);  // among the emitted spectra
}

TEST(MzmlReader, DefaultArrayLengthMismatchSkips) {
  const std::string good = test_data("BSA1_three_ms2_param_groups.mzML");
  const std::string bad =
      replace_once(good, "defaultArrayLength=\"14\"", "defaultArrayLength=\"15\"");
  const ReadResult r = read_mzml(bad);
  EXPECT_EQ(r.stats.skipped, (std::map<std::string, uint64_t>{{"array length mismatch", 1}}));
  ASSERT_EQ(r.spectra.size(), 2u);
  expect_spectrum(r.spectra[1], kBsa2446);
}

// A hostile check: defaultArrayLength="-5" was reported as "no defaultArrayLength".
TEST(MzmlReader, AnInvalidDefaultArrayLengthIsNamedSo) {
  const std::string good = test_data("BSA1_three_ms2_param_groups.mzML");
  for (const char* bad : {"-5", "14.0", "x"}) {
    const ReadResult r = read_mzml(replace_once(good, "defaultArrayLength=\"14\"",
                                                std::string("defaultArrayLength=\"") + bad + "\""));
    EXPECT_EQ(r.stats.skipped, (std::map<std::string, uint64_t>{{"invalid defaultArrayLength", 1}}))
        << bad;
    EXPECT_EQ(r.spectra.size(), 2u);
  }
}

std::string drop_line_containing(std::string s, const std::string& needle, size_t from = 0) {
  const size_t at = s.find(needle, from);
  EXPECT_NE(at, std::string::npos) << needle;
  const size_t begin = s.rfind('\n', at) + 1;
  const size_t end = s.find('\n', at) + 1;
  s.erase(begin, end - begin);
  return s;
}

TEST(MzmlReader, IsolationWindowTargetWhenNoSelectedIonMz) {
  const std::string good = test_data("BSA1_three_ms2_param_groups.mzML");
  const std::string no_selected = drop_line_containing(good, "MS:1000744");
  const ReadResult r = read_mzml(no_selected);
  ASSERT_EQ(r.spectra.size(), 3u);
  EXPECT_NEAR(r.spectra[0].precursor_mz, 618.719482421875, 1e-9);  // isolation window target
  EXPECT_EQ(r.spectra[0].precursor_charges, std::vector<int>{2});

  const std::string no_mz = drop_line_containing(no_selected, "MS:1000827");
  const ReadResult r2 = read_mzml(no_mz);
  EXPECT_EQ(r2.stats.skipped, (std::map<std::string, uint64_t>{{"no precursor m/z", 1}}));
  ASSERT_EQ(r2.spectra.size(), 2u);
  EXPECT_EQ(r2.spectra[0].native_id, "spectrum=3550");
}

TEST(MzmlReader, ChargeZeroOrMissingIsUnknown) {
  const std::string good = test_data("BSA1_three_ms2_param_groups.mzML");
  std::string zero =
      replace_once(good, "name=\"charge state\" value=\"2\"", "name=\"charge state\" value=\"0\"");
  const ReadResult r = read_mzml(zero);
  ASSERT_EQ(r.spectra.size(), 3u);
  EXPECT_TRUE(r.spectra[0].precursor_charges.empty());
  EXPECT_EQ(r.spectra[1].precursor_charges, std::vector<int>{2});

  // MS:1000633 possible charge states stand in when there is no charge state.
  std::string possible = drop_line_containing(good, "MS:1000041");
  const size_t at = possible.find("MS:1000744");
  const size_t line_end = possible.find('\n', at) + 1;
  possible.insert(line_end,
                  "<cvParam cvRef=\"MS\" accession=\"MS:1000633\" name=\"possible charge state\" "
                  "value=\"2\"/>\n<cvParam cvRef=\"MS\" accession=\"MS:1000633\" "
                  "name=\"possible charge state\" value=\"3\"/>\n");
  const ReadResult r2 = read_mzml(possible);
  ASSERT_EQ(r2.spectra.size(), 3u);
  EXPECT_EQ(r2.spectra[0].precursor_charges, (std::vector<int>{2, 3}));
}

TEST(MzmlReader, RetentionTimeInMinutes) {
  const std::string good = test_data("BSA1_three_ms2_param_groups.mzML");
  const std::string minutes = replace_once(
      good, "value=\"1509.01611328125\" unitAccession=\"UO:0000010\" unitName=\"second\"",
      "value=\"25.15\" unitAccession=\"UO:0000031\" unitName=\"minute\"");
  const ReadResult r = read_mzml(minutes);
  ASSERT_EQ(r.spectra.size(), 3u);
  EXPECT_NEAR(r.spectra[0].rt_seconds, 1509.0, 1e-9);
  EXPECT_NEAR(r.spectra[1].rt_seconds, 2491.68017578125, 1e-9);
}

// The reader's own tokenizer for plain spectra and expat give the same spectra, counts and skip
// reasons: on the real files, on every excerpt, and on spectra written in XML the tokenizer
// hands back to expat (an entity, a comment, a CDATA section) or takes in another spelling
// (single quotes, blanks around '=', self-closing tags, a blank before '>').
TEST(MzmlReader, OwnTokenizerMatchesExpat) {
  std::vector<std::pair<std::string, std::string>> files = {
      {"BSA1.mzML", slurp(std::string(IONFLOW_EXAMPLES_DIR) + "/BSA/BSA1.mzML")},
      {"Ecoli_MS2_small.mzML",
       slurp(std::string(IONFLOW_EXAMPLES_DIR) + "/ID/Ecoli_MS2_small.mzML")},
  };
  for (const char* name :
       {"BSA1_excerpt.mzML", "BSA1_identified_excerpt.mzML", "BSA1_three_ms2_numpress_openms.mzML",
        "BSA1_three_ms2_param_groups.mzML", "Ecoli_MS2_small_excerpt.mzML"}) {
    files.emplace_back(name, test_data(name));
  }
  const std::string excerpt = test_data("BSA1_excerpt.mzML");
  const size_t second = excerpt.find("<spectrum ", excerpt.find("<spectrum ") + 1);
  ASSERT_NE(second, std::string::npos);
  // `from` replaced by `to` where it first occurs in the second spectrum.
  auto edited = [&](const std::string& from, const std::string& to) {
    std::string s = excerpt;
    const size_t at = s.find(from, second);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) s.replace(at, from.size(), to);
    return s;
  };
  files.emplace_back("entity", edited("name=\"charge state\"", "name=\"charge&#32;state\""));
  files.emplace_back("comment", edited("<precursorList", "<!-- x --><precursorList"));
  files.emplace_back("cdata", edited("</binary>", "<![CDATA[]]></binary>"));
  files.emplace_back("quotes", edited("value=\"2\"", "value = '2'"));
  files.emplace_back("self-closing", edited("/>", "></cvParam>"));
  files.emplace_back("blank",
                     edited("<precursorList count=\"1\">", "<precursorList count=\"1\" >"));
  for (const auto& [name, data] : files) {
    SCOPED_TRACE(name);
    const ReadResult own = read_mzml(data, 65536, 0, name, true);
    const ReadResult expat = read_mzml(data, 65536, 0, name, false);
    EXPECT_GT(own.stats.spectra_emitted, 0u);
    EXPECT_EQ(own.stats.spectra_seen, expat.stats.spectra_seen);
    EXPECT_EQ(own.stats.spectra_emitted, expat.stats.spectra_emitted);
    EXPECT_EQ(own.stats.skipped, expat.stats.skipped);
    EXPECT_EQ(own.stats.first_skipped_at, expat.stats.first_skipped_at);
    ASSERT_EQ(own.spectra.size(), expat.spectra.size());
    for (size_t i = 0; i < own.spectra.size(); ++i) expect_same(own.spectra[i], expat.spectra[i]);
  }
}

// An unfinished tag right before a plain spectrum ("<binaryDa<spectrum ...") fails where expat
// finds it, on both reader paths. Found by mzml_tokenizer_fuzzer: the own tokenizer took the
// spectrum while expat still held "<binaryDa", so the error came after the spectra taken next
// (line 103 instead of 51).
TEST(MzmlReader, UnfinishedTagBeforeASpectrumFailsThere) {
  const std::string good = test_data("BSA1_three_ms2_param_groups.mzML");
  const size_t first = good.find("<spectrum ");
  const std::string bad = good.substr(0, first) + "<binaryDa" + good.substr(first);
  const uint64_t line = 1 + std::count(bad.begin(), bad.begin() + first, '\n');
  for (bool own : {true, false}) {
    SCOPED_TRACE(own ? "own" : "expat");
    try {
      read_mzml(bad, 0, 0, "unfinished.mzML", own);
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(std::string(e.what()),
                "unfinished.mzML: line " + std::to_string(line) + " (byte " +
                    std::to_string(first + 9) +
                    "): XML not well-formed: not well-formed (invalid token)");
    }
  }
}

// A spectrum inside a spectrum used to replace it silently (a new-user test lost a PSM that
// way): the file fails at the inner start tag, on either reader path.
TEST(MzmlReader, SpectrumInsideASpectrumFailsTheFile) {
  const std::string excerpt = test_data("BSA1_excerpt.mzML");
  const size_t second = excerpt.find("<spectrum ", excerpt.find("<spectrum ") + 1);
  const size_t scan_list = excerpt.find("<scanList", second);
  ASSERT_NE(scan_list, std::string::npos);
  for (const std::string inner :
       {"<spectrum id=\"inner\" index=\"9999\" defaultArrayLength=\"0\"/>",
        "<spectrum id=\"inner\" index=\"9999\" defaultArrayLength=\"0\"></spectrum>"}) {
    std::string data = excerpt;
    data.insert(scan_list, inner);
    for (bool own : {true, false}) {
      SCOPED_TRACE(inner + (own ? " own" : " expat"));
      try {
        read_mzml(data, 65536, 0, "nested.mzML", own);
        FAIL() << "no error";
      } catch (const ParseError& e) {
        // Reported where the outer spectrum starts: its </spectrum> is what seems missing.
        EXPECT_NE(std::string(e.what()).find("is not closed: another <spectrum> starts at line"),
                  std::string::npos)
            << e.what();
        EXPECT_EQ(e.byte_offset(), second) << e.what();
      }
    }
  }
}

// An MS1 spectrum whose </spectrum> is missing, followed by MS1 spectra (which the reader drops
// unparsed): the error names the next spectrum's line, not the first MS2 spectrum's (a new
// user's file: line 1364 expected, 22268 given).
TEST(MzmlReader, UnclosedMs1SpectrumIsReportedAtTheNextSpectrum) {
  const std::string excerpt = test_data("BSA1_excerpt.mzML");
  const size_t ms1 = excerpt.find("<spectrum id=\"spectrum=1011\"");
  const size_t end = excerpt.find("</spectrum>", ms1);
  ASSERT_NE(end, std::string::npos);
  std::string copy = excerpt.substr(ms1, end + 11 - ms1);
  copy.replace(copy.find("spectrum=1011"), 13, "spectrum=1012");
  std::string data = excerpt.substr(0, end) + "\n" + copy + excerpt.substr(end + 11);
  const size_t next = data.find("<spectrum id=\"spectrum=1012\"");
  const uint64_t next_line = 1 + std::count(data.begin(), data.begin() + next, '\n');
  const uint64_t first_line = 1 + std::count(data.begin(), data.begin() + ms1, '\n');
  for (bool own : {true, false}) {
    SCOPED_TRACE(own ? "own" : "expat");
    try {
      read_mzml(data, 65536, 0, "unclosed.mzML", own);
      FAIL() << "no error";
    } catch (const ParseError& e) {
      EXPECT_NE(std::string(e.what()).find("<spectrum id=\"spectrum=1011\"> starting at line " +
                                           std::to_string(first_line) +
                                           " is not closed: another <spectrum> starts at line " +
                                           std::to_string(next_line) + " (</spectrum> missing?)"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace ionflow
