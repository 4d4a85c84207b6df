// The readers agree on bad data: the same spectra written as MGF, mzML, mzXML and MS2, each with
// the same defect (a bad precursor charge, NaN/inf/negative peak m/z, a cut last spectrum), give
// the same spectra, the same skip reasons and the same counted problems. Also: mzML spectra
// outside <spectrumList> are not read, a missing </spectrum> is reported where the spectrum
// starts, and an MGF laid out as Mascot Distiller writes it is read.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "io/base64.hpp"
#include "io/peak_checks.hpp"
#include "io/spectrum_reader.hpp"
#include "io_test_support.hpp"

namespace ionflow {
namespace {

using io_testing::read_file;

struct Peak {
  double mz;
  double intensity;
};

struct Entry {
  int scan;
  std::string charge;  // as written: "2", "0", "-2", "2.5", "abc"
  std::vector<Peak> peaks;
};

std::string number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

std::string mgf(const std::vector<Entry>& entries) {
  std::string out = "MASS=Monoisotopic\n";
  for (const Entry& e : entries) {
    out += "BEGIN IONS\nTITLE=scan=" + std::to_string(e.scan) + "\nPEPMASS=500.25\n";
    // MGF writes the sign after the digits.
    std::string charge = e.charge;
    if (!charge.empty() && charge[0] == '-') charge = charge.substr(1) + "-";
    out += "CHARGE=" + charge + "\nSCANS=" + std::to_string(e.scan) + "\n";
    for (const Peak& p : e.peaks) out += number(p.mz) + " " + number(p.intensity) + "\n";
    out += "END IONS\n";
  }
  return out;
}

std::string ms2(const std::vector<Entry>& entries) {
  std::string out = "H\tExtractor\ttest\n";
  for (const Entry& e : entries) {
    const std::string s = std::to_string(e.scan);
    out += "S\t" + s + "\t" + s + "\t500.25\nZ\t" + e.charge + "\t999.49\n";
    for (const Peak& p : e.peaks) out += number(p.mz) + " " + number(p.intensity) + "\n";
  }
  return out;
}

template <typename T>
std::string little_endian(const std::vector<T>& values) {
  std::string bytes(values.size() * sizeof(T), '\0');
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return base64_encode(bytes);
}

std::string mzml_array(const char* kind, const std::string& base64) {
  return std::string("<binaryDataArray encodedLength=\"") + std::to_string(base64.size()) +
         "\"><cvParam cvRef=\"MS\" accession=\"MS:1000523\" name=\"64-bit float\"/>"
         "<cvParam cvRef=\"MS\" accession=\"MS:1000576\" name=\"no compression\"/>"
         "<cvParam cvRef=\"MS\" accession=\"" +
         kind + "\" name=\"array\"/><binary>" + base64 + "</binary></binaryDataArray>\n";
}

std::string mzml_spectrum(const Entry& e, size_t index) {
  std::vector<double> mz, intensity;
  for (const Peak& p : e.peaks) {
    mz.push_back(p.mz);
    intensity.push_back(p.intensity);
  }
  return "<spectrum id=\"scan=" + std::to_string(e.scan) + "\" index=\"" + std::to_string(index) +
         "\" defaultArrayLength=\"" + std::to_string(e.peaks.size()) +
         "\">\n<cvParam cvRef=\"MS\" accession=\"MS:1000511\" name=\"ms level\" value=\"2\"/>\n"
         "<precursorList count=\"1\"><precursor><selectedIonList count=\"1\"><selectedIon>\n"
         "<cvParam cvRef=\"MS\" accession=\"MS:1000744\" name=\"selected ion m/z\" "
         "value=\"500.25\"/>\n<cvParam cvRef=\"MS\" accession=\"MS:1000041\" name=\"charge "
         "state\" value=\"" +
         e.charge +
         "\"/>\n</selectedIon></selectedIonList></precursor></precursorList>\n"
         "<binaryDataArrayList count=\"2\">\n" +
         mzml_array("MS:1000514", little_endian(mz)) +
         mzml_array("MS:1000515", little_endian(intensity)) +
         "</binaryDataArrayList>\n</spectrum>\n";
}

std::string mzml(const std::vector<Entry>& entries) {
  std::string out =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<mzML xmlns=\"http://psi.hupo.org/ms/mzml\" "
      "version=\"1.1.0\">\n<run id=\"r\">\n<spectrumList count=\"" +
      std::to_string(entries.size()) + "\">\n";
  for (size_t i = 0; i < entries.size(); ++i) out += mzml_spectrum(entries[i], i);
  return out + "</spectrumList>\n</run>\n</mzML>\n";
}

std::string mzxml(const std::vector<Entry>& entries) {
  std::string out = "<?xml version=\"1.0\"?>\n<mzXML>\n<msRun scanCount=\"1\">\n";
  for (const Entry& e : entries) {
    std::string bytes;
    for (const Peak& p : e.peaks) {
      for (double v : {p.mz, p.intensity}) {
        uint64_t w;
        std::memcpy(&w, &v, 8);
        for (int b = 7; b >= 0; --b) bytes += static_cast<char>((w >> (8 * b)) & 0xff);
      }
    }
    out += "<scan num=\"" + std::to_string(e.scan) + "\" msLevel=\"2\" peaksCount=\"" +
           std::to_string(e.peaks.size()) + "\">\n<precursorMz precursorCharge=\"" + e.charge +
           "\">500.25</precursorMz>\n<peaks precision=\"64\" byteOrder=\"network\" "
           "contentType=\"m/z-int\" compressionType=\"none\">" +
           base64_encode(bytes) + "</peaks>\n</scan>\n";
  }
  return out + "</msRun>\n</mzXML>\n";
}

using Read = io_testing::PeakListRead;

Read read(const std::string& text, const std::string& name) {
  return io_testing::read_peak_list(text, name, 333);
}

// The same reading of `entries` by all four readers: spectra (scan, charges, peaks), skip
// counts and problem counts.
void expect_readers_agree(const std::vector<Entry>& entries, const Read& expected_mgf) {
  const Read mgf_read = expected_mgf;
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"x.mzML", mzml(entries)},
                                   {"x.mzXML", mzxml(entries)},
                                   {"x.ms2", ms2(entries)}}) {
    SCOPED_TRACE(name);
    const Read r = read(text, name);
    ASSERT_EQ(r.spectra.size(), mgf_read.spectra.size());
    for (size_t i = 0; i < r.spectra.size(); ++i) {
      EXPECT_EQ(r.spectra[i].scan, mgf_read.spectra[i].scan);
      EXPECT_EQ(r.spectra[i].precursor_charges, mgf_read.spectra[i].precursor_charges);
      EXPECT_EQ(r.spectra[i].mz, mgf_read.spectra[i].mz);
      EXPECT_EQ(r.spectra[i].intensity, mgf_read.spectra[i].intensity);
    }
    EXPECT_EQ(r.stats.spectra_seen, mgf_read.stats.spectra_seen);
    EXPECT_EQ(r.stats.skipped, mgf_read.stats.skipped);
    EXPECT_EQ(r.stats.problems, mgf_read.stats.problems);
  }
}

const std::vector<Peak> kPeaks = {{200.5, 10}, {300.25, 40}, {400.125, 5}};

TEST(ReaderAgreement, BadPrecursorChargesAreHandledAlike) {
  const std::vector<Entry> entries = {{1, "2", kPeaks},   {2, "0", kPeaks},   {3, "-2", kPeaks},
                                      {4, "2.5", kPeaks}, {5, "abc", kPeaks}, {6, "3", kPeaks}};
  const Read r = read(mgf(entries), "x.mgf");
  ASSERT_EQ(r.spectra.size(), 3u);
  EXPECT_EQ(r.spectra[0].precursor_charges, std::vector<int>{2});
  EXPECT_TRUE(r.spectra[1].precursor_charges.empty());  // 0: unknown, every charge is tried
  EXPECT_EQ(r.spectra[2].precursor_charges, std::vector<int>{3});
  EXPECT_EQ(r.stats.spectra_seen, 6u);
  EXPECT_EQ(r.stats.skipped.at(kSkipNegativeCharge), 1u);
  EXPECT_EQ(r.stats.skipped.at(kSkipBadCharge), 2u);
  EXPECT_EQ(r.stats.skipped.size(), 2u);
  expect_readers_agree(entries, r);
}

TEST(ReaderAgreement, NonFiniteAndNegativePeakValuesAreDroppedAndCounted) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<Entry> entries = {
      {1, "2", {{nan, 10}, {200.5, 10}, {-5, 3}, {inf, 4}, {300.25, inf}, {0, 9}, {400.125, 5}}},
      {2, "2", {{nan, 1}, {-inf, 2}}},  // nothing left: "no peaks"
      {3, "2", kPeaks}};
  const Read r = read(mgf(entries), "x.mgf");
  ASSERT_EQ(r.spectra.size(), 2u);
  EXPECT_EQ(r.spectra[0].mz, (std::vector<double>{200.5, 400.125}));
  EXPECT_EQ(r.stats.problems.at(kDroppedBadMz), 6u);  // NaN, -5, inf, 0, NaN, -inf
  EXPECT_EQ(r.stats.problems.at(kDroppedBadIntensity), 1u);
  EXPECT_EQ(r.stats.skipped.at(kSkipNoPeaks), 1u);
  EXPECT_EQ(read_problem_warnings("x.mgf", r.stats),
            (std::vector<std::string>{
                // The peak lines themselves: the first entry's BEGIN IONS is line 2, its first
                // peak (m/z NaN) line 7, its fifth (intensity inf) line 11.
                "x.mgf: 1 peak dropped: intensity NaN or infinite (as a 32-bit float: beyond "
                "3.4e38) (first "
                "at line 11)",
                "x.mgf: 6 peaks dropped: m/z NaN, infinite or not positive (first at line 7)"}));
  expect_readers_agree(entries, r);
}

// A reviewer's catch: negative intensities were dropped by spectrum preparation without a word (a
// spectrum of only negative ones was "too few peaks"), where NaN and infinite ones are counted.
// Every reader drops and counts them now, named where it names the NaN ones: the MGF and MS2
// peak line, the mzML spectrum, the mzXML <scan> line. Zero (and -0) is no problem.
TEST(ReaderAgreement, NegativeIntensitiesAreDroppedAndCountedLikeNonFiniteOnes) {
  const std::vector<Entry> entries = {
      {1, "2", {{200.5, 10}, {300.25, -4}, {400.125, 5}, {500.5, -0.0}, {600.5, -1e-3}}},
      {2, "2", {{200.5, -1}, {300.25, -2}}},  // nothing left: "no peaks"
      {3, "2", kPeaks}};
  const Read r = read(mgf(entries), "x.mgf");
  ASSERT_EQ(r.spectra.size(), 2u);
  EXPECT_EQ(r.spectra[0].mz, (std::vector<double>{200.5, 400.125, 500.5}));
  EXPECT_EQ(r.stats.problems, (std::map<std::string, uint64_t>{{kDroppedNegativeIntensity, 4}}));
  EXPECT_EQ(r.stats.skipped, (std::map<std::string, uint64_t>{{kSkipNoPeaks, 1}}));
  expect_readers_agree(entries, r);
  // Where: the first entry's BEGIN IONS is line 2, its second peak line 8 (MGF); its S line 2,
  // its second peak line 5 (MS2); its <scan> line 4 (mzXML).
  for (const auto& [name, text, where] :
       {std::tuple<std::string, std::string, std::string>{"x.mgf", mgf(entries), "line 8"},
        {"x.ms2", ms2(entries), "line 5"},
        {"x.mzML", mzml(entries), "spectrum scan=1"},
        {"x.mzXML", mzxml(entries), "line 4"}}) {
    EXPECT_EQ(read_problem_warnings(name, read(text, name).stats),
              std::vector<std::string>{name + ": 4 peaks dropped: intensity negative (first at " +
                                       where + ")"});
  }
}

// A file cut inside its last spectrum keeps the spectra before it, skips the cut one and says
// the file ends early, whatever the format (MS2 has no end marker: a cut there is invisible).
TEST(ReaderAgreement, ATruncatedLastSpectrumIsTreatedAlike) {
  const std::vector<Entry> entries = {{1, "2", kPeaks}, {2, "3", kPeaks}, {3, "2", kPeaks}};
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"x.mgf", mgf(entries)},
                                   {"x.mzML", mzml(entries)},
                                   {"x.mzXML", mzxml(entries)}}) {
    SCOPED_TRACE(name);
    // Cut in the middle of the last spectrum's peaks (MGF: after a whole peak line without
    // its line end, so that no half number is read).
    size_t cut = text.rfind("400.125 5") + 9;
    if (name == "x.mzML") cut = text.rfind("<binary") + 5;
    if (name == "x.mzXML") cut = text.rfind("<peaks") + 5;
    const Read r = read(text.substr(0, cut), name);
    ASSERT_EQ(r.spectra.size(), 2u);
    EXPECT_EQ(r.spectra[1].scan, 2);
    EXPECT_EQ(r.stats.spectra_seen, 3u);
    EXPECT_EQ(r.stats.skipped, (std::map<std::string, uint64_t>{{kSkipTruncated, 1}}));
    EXPECT_EQ(r.stats.problems, (std::map<std::string, uint64_t>{{kFileEndsEarly, 1}}));
  }
}

TEST(ReaderAgreement, MzmlSpectraOutsideTheSpectrumListAreNotRead) {
  const std::vector<Entry> entries = {{1, "2", kPeaks}, {2, "3", kPeaks}};
  std::string text = mzml(entries);
  // One in the cvList-like header, one after </mzML> inside an indexedmzML wrapper.
  const std::string stray = mzml_spectrum({7, "2", kPeaks}, 0);
  text.insert(text.find("<run"), "<cvList count=\"1\">" + stray + "</cvList>\n");
  text.insert(text.find("<mzML"), "<indexedmzML>\n");
  text += stray + "</indexedmzML>\n";
  // Large MS1-looking and MS2 ones go through both reader paths; both ignore them.
  const Read r = read(text, "x.mzML");
  ASSERT_EQ(r.spectra.size(), 2u);
  EXPECT_EQ(r.spectra[0].scan, 1);
  EXPECT_EQ(r.spectra[1].scan, 2);
  EXPECT_EQ(r.stats.spectra_seen, 2u);
  EXPECT_EQ(r.stats.problems.at("spectra outside <spectrumList> ignored"), 2u);
  EXPECT_EQ(r.stats.first_problem_at.at("spectra outside <spectrumList> ignored"),
            "spectrum scan=7");
}

TEST(ReaderAgreement, AMissingEndOfSpectrumIsReportedWhereTheSpectrumStarts) {
  const std::vector<Entry> entries = {{1, "2", kPeaks}, {2, "3", kPeaks}, {3, "2", kPeaks}};
  const std::string good = mzml(entries);
  for (int which : {1, 2}) {  // the middle spectrum (next <spectrum> follows), the last one
    SCOPED_TRACE(which);
    std::string text = good;
    size_t end = text.find("</spectrum>");
    if (which == 2) end = text.rfind("</spectrum>");
    text.erase(end, std::strlen("</spectrum>"));
    const size_t start = text.rfind("<spectrum ", end);
    const uint64_t line = 1 + std::count(text.begin(), text.begin() + start, '\n');
    try {
      read(text, "x.mzML");
      FAIL() << "no ParseError";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.byte_offset(), start) << e.what();
      EXPECT_EQ(e.line(), line) << e.what();
      const std::string id = which == 1 ? "scan=1" : "scan=3";
      EXPECT_NE(std::string(e.what()).find("<spectrum id=\"" + id + "\"> starting at line " +
                                           std::to_string(line) + " is not closed"),
                std::string::npos)
          << e.what();
    }
  }
}

// tests/data/BSA1_identified_excerpt_distiller.mgf: the 15 spectra of the BSA1 excerpt with the
// header and titles Mascot Distiller writes (constructed with tests/data/tools/
// mgf_to_distiller.awk from OpenMS's MGF of them; the _DISTILLER_RAWFILE[0]=(1)path form is the
// one Distiller MGF parsers match).
TEST(ReaderAgreement, MascotDistillerMgfIsRead) {
  const std::string text =
      read_file(IONFLOW_TEST_DATA_DIR "/BSA1_identified_excerpt_distiller.mgf");
  ASSERT_NE(text.find("_DISTILLER_RAWFILE[0]=(1)"), std::string::npos);
  ASSERT_NE(text.find("_distiller_lower_case_key="), std::string::npos);
  const Read r = read(text, "distiller.mgf");
  ASSERT_EQ(r.spectra.size(), 15u);
  EXPECT_TRUE(r.stats.skipped.empty());
  EXPECT_TRUE(r.stats.problems.empty());
  EXPECT_EQ(r.spectra[0].native_id, "1: Scan 2458 (rt=25.9082) [20090810_SvNa_QC_BSA50fmol.raw]");
  EXPECT_EQ(r.spectra[0].scan, 2458);
  EXPECT_EQ(r.spectra[0].precursor_charges, std::vector<int>{3});
  EXPECT_NEAR(r.spectra[0].precursor_mz, 358.174682617188, 1e-9);
  // Any KEY=value header line is a parameter, never an error; a header line that is no
  // parameter is still "not MGF".
  const Read odd = read("_x=1\nlower_case=2\n__=3\n[a]=4\n" + text, "odd.mgf");
  EXPECT_EQ(odd.spectra.size(), 15u);
  EXPECT_THROW(read("_DISTILLER no equals sign\n" + text, "bad.mgf"), ParseError);
}

}  // namespace
}  // namespace ionflow
