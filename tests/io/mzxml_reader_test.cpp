// mzXML reader: the real excerpt tests/data/BSA1_identified_excerpt.mzXML (OpenMS 2.6
// FileConverter from BSA1_identified_excerpt.mzML: mzXML 3.1, 32-bit network order, no
// compression, MS2 scans nested in no MS1 scan) gives the same spectra as the mzML it was made
// from; the same peaks re-encoded as 64-bit, zlib-compressed, mzXML 2.x pairOrder and a 1.x
// <msRun> root read the same; xs:duration; bad data skipped with the shared reasons.
#include "io/mzxml_reader.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "io/base64.hpp"
#include "io/peak_checks.hpp"
#include "io/spectrum_reader.hpp"
#include "io/xml_root_end.hpp"
#include "io_test_support.hpp"

namespace ionflow {
namespace {

using io_testing::read_file;

const std::string kMzxml = IONFLOW_TEST_DATA_DIR "/BSA1_identified_excerpt.mzXML";
const std::string kMzml = IONFLOW_TEST_DATA_DIR "/BSA1_identified_excerpt.mzML";

std::vector<RawSpectrum> read_all(const std::string& text, size_t block,
                                  ReadStats* stats = nullptr) {
  io_testing::PeakListRead r = io_testing::read_peak_list(text, "excerpt.mzXML", block, 3);
  if (stats != nullptr) *stats = r.stats;
  return std::move(r.spectra);
}

TEST(MzxmlReader, DetectedByItsRootElement) {
  const std::string text = read_file(kMzxml);
  EXPECT_EQ(detect_peak_list_format(text.substr(0, 512)), PeakListFormat::kMzXML);
  EXPECT_EQ(detect_peak_list_format("<?xml version=\"1.0\"?>\n<!-- c -->\n<msRun scanCount=\"1\">"),
            PeakListFormat::kMzXML);
  EXPECT_EQ(detect_peak_list_format("<?xml version=\"1.0\"?><x:mzXML xmlns:x=\"u\">"),
            PeakListFormat::kMzXML);
  EXPECT_EQ(detect_peak_list_format("<?xml version=\"1.0\"?>\n<indexedmzML "),
            PeakListFormat::kMzML);
  EXPECT_EQ(detect_peak_list_format("<mzML>"), PeakListFormat::kMzML);
  EXPECT_EQ(detect_peak_list_format("<?xml version=\"1.0\"?><"), PeakListFormat::kMzML);
  // A DOCTYPE, with an internal subset holding '>' (in declarations and quoted values): still
  // the root element decides (a new user's mzXML with one entity was read as mzML).
  EXPECT_EQ(detect_peak_list_format("<?xml version=\"1.0\"?>\n<!DOCTYPE mzXML>\n<mzXML>"),
            PeakListFormat::kMzXML);
  EXPECT_EQ(detect_peak_list_format("<?xml version=\"1.0\"?>\n<!DOCTYPE mzXML [<!ENTITY e0 "
                                    "\"v\">]>\n<mzXML xmlns=\"u\">"),
            PeakListFormat::kMzXML);
  EXPECT_EQ(
      detect_peak_list_format("<!DOCTYPE mzXML [<!ENTITY a 'x]>y'> <!ELEMENT b ANY>]><msRun>"),
      PeakListFormat::kMzXML);
  EXPECT_EQ(detect_peak_list_format("<!DOCTYPE mzML [<!ENTITY e \"v\">]> <mzML>"),
            PeakListFormat::kMzML);
  EXPECT_EQ(detect_peak_list_format("<!DOCTYPE mzXML [<!ENTITY e \"cut"), PeakListFormat::kMzML);
  // A comment or processing instruction in the subset, with a quote and '>' of its own.
  EXPECT_EQ(detect_peak_list_format("<!DOCTYPE mzXML [<!-- it's > --><?pi a'>?>]><mzXML>"),
            PeakListFormat::kMzXML);
}

TEST(MzxmlReader, GivesTheSpectraOfTheMzmlItWasMadeFrom) {
  const std::string mzml = read_file(kMzml);
  auto mzml_reader = make_spectrum_reader(PeakListFormat::kMzML, "excerpt.mzML", 3);
  std::vector<RawSpectrum> expected;
  mzml_reader->feed(mzml, expected);
  mzml_reader->finish(expected);
  ASSERT_EQ(expected.size(), 15u);

  const std::string text = read_file(kMzxml);
  for (size_t block : {size_t{1} << 20, size_t{7}, size_t{4096}}) {
    ReadStats stats;
    const std::vector<RawSpectrum> got = read_all(text, block, &stats);
    ASSERT_EQ(got.size(), 15u) << "block " << block;
    EXPECT_EQ(stats.spectra_seen, 15u);
    EXPECT_TRUE(stats.skipped.empty());
    EXPECT_TRUE(stats.problems.empty());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].native_id, "scan=" + std::to_string(i + 1));  // FileConverter renumbers
      EXPECT_EQ(got[i].scan, static_cast<int64_t>(i + 1));
      EXPECT_EQ(got[i].file_index, 3u);
      EXPECT_EQ(got[i].spectrum_index, i);
      EXPECT_NEAR(got[i].rt_seconds, expected[i].rt_seconds, 1e-9);
      EXPECT_DOUBLE_EQ(got[i].precursor_mz, expected[i].precursor_mz);
      EXPECT_EQ(got[i].precursor_charges, expected[i].precursor_charges);
      EXPECT_EQ(got[i].activation, "CID");
      EXPECT_EQ(got[i].mz, expected[i].mz) << i;
      EXPECT_EQ(got[i].intensity, expected[i].intensity) << i;
    }
  }
  // Known values of the first scan: BSA1 spectrum=2458, 358.1747 m/z 3+, rt 1554.49 s.
  const std::vector<RawSpectrum> got = read_all(text, 1 << 20);
  EXPECT_NEAR(got[0].precursor_mz, 358.174682617188, 1e-9);
  EXPECT_EQ(got[0].precursor_charges, std::vector<int>{3});
  EXPECT_NEAR(got[0].rt_seconds, 1554.4921875, 1e-6);
}

// Re-encodes every <peaks> of `text` with `precision` bits, zlib-compressed or not, and the
// attributes spelled as in `style` ("3" = contentType/compressionType, "2" = pairOrder only).
std::string reencode(const std::string& text, int precision, bool zlib, int style) {
  static const std::regex peaks("<peaks [^>]*>([^<]*)</peaks>");
  std::string out;
  auto begin = text.cbegin();
  for (std::sregex_iterator it(text.begin(), text.end(), peaks), end; it != end; ++it) {
    out.append(begin, text.cbegin() + it->position(0));
    begin = text.cbegin() + it->position(0) + it->length(0);
    std::string bytes;
    EXPECT_TRUE(base64_decode((*it)[1].str(), bytes));
    std::string encoded;
    for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
      uint32_t word = 0;
      for (int b = 0; b < 4; ++b) word = (word << 8) | static_cast<unsigned char>(bytes[i + b]);
      float f;
      std::memcpy(&f, &word, 4);
      if (precision == 64) {
        const double d = f;
        uint64_t w;
        std::memcpy(&w, &d, 8);
        for (int b = 7; b >= 0; --b) encoded += static_cast<char>((w >> (8 * b)) & 0xff);
      } else {
        for (int b = 3; b >= 0; --b) encoded += static_cast<char>((word >> (8 * b)) & 0xff);
      }
    }
    std::string attributes =
        " precision=\"" + std::to_string(precision) + "\" byteOrder=\"network\"";
    if (zlib) {
      encoded = io_testing::zlib_compress(encoded);
      attributes +=
          " compressionType=\"zlib\" compressedLen=\"" + std::to_string(encoded.size()) + "\"";
    }
    attributes += style == 3 ? " contentType=\"m/z-int\"" : " pairOrder=\"m/z-int\"";
    out += "<peaks" + attributes + ">" + base64_encode(encoded) + "</peaks>";
  }
  out.append(begin, text.cend());
  return out;
}

TEST(MzxmlReader, ReadsEveryPrecisionCompressionAndSchemaRevision) {
  const std::string text = read_file(kMzxml);
  const std::vector<RawSpectrum> reference = read_all(text, 1 << 20);
  ASSERT_EQ(reference.size(), 15u);
  struct Variant {
    int precision;
    bool zlib;
    int style;
  };
  for (const Variant v :
       {Variant{64, false, 3}, Variant{32, true, 3}, Variant{64, true, 3}, Variant{32, false, 2}}) {
    const std::string changed = reencode(text, v.precision, v.zlib, v.style);
    ASSERT_NE(changed, text);
    const std::vector<RawSpectrum> got = read_all(changed, 5000);
    ASSERT_EQ(got.size(), 15u) << v.precision << " " << v.zlib;
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].mz, reference[i].mz) << v.precision << " " << v.zlib << " " << i;
      EXPECT_EQ(got[i].intensity, reference[i].intensity);
    }
  }
  // mzXML 1.x: <msRun> is the root.
  std::string old = text;
  old.erase(0, old.find("<msRun"));
  old.erase(old.find("</msRun>") + 8);
  old = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" + old;
  EXPECT_EQ(detect_peak_list_format(old), PeakListFormat::kMzXML);
  const std::vector<RawSpectrum> got = read_all(old, 1 << 20);
  ASSERT_EQ(got.size(), 15u);
  EXPECT_EQ(got[14].mz, reference[14].mz);
}

const char* kScan =
    "<scan num=\"%NUM%\" msLevel=\"2\" peaksCount=\"2\" retentionTime=\"PT60S\">"
    "<precursorMz precursorCharge=\"%Z%\">500.25</precursorMz>"
    "<peaks precision=\"32\" byteOrder=\"network\" contentType=\"m/z-int\">"
    "Q0iAAEEgAABDlgAAQiAAAA==</peaks></scan>";  // (200.5, 10), (300, 40)

std::string scan(int num, const std::string& charge) {
  std::string s = kScan;
  s.replace(s.find("%NUM%"), 5, std::to_string(num));
  s.replace(s.find("%Z%"), 3, charge);
  return s;
}

std::string document(const std::string& scans) {
  return "<?xml version=\"1.0\"?>\n<mzXML><msRun>\n" + scans + "\n</msRun></mzXML>\n";
}

TEST(MzxmlReader, DecodesAHandWrittenScanAndNestedScansInFileOrder) {
  ReadStats stats;
  const std::string ms1 =
      "<scan num=\"1\" msLevel=\"1\" peaksCount=\"0\"><peaks precision=\"32\" "
      "byteOrder=\"network\" contentType=\"m/z-int\"></peaks>" +
      scan(2, "2") + scan(3, "3") + "</scan>";
  const auto got = read_all(document(ms1 + scan(4, "0")), 3, &stats);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].native_id, "scan=2");
  EXPECT_EQ(got[1].native_id, "scan=3");
  EXPECT_EQ(got[2].native_id, "scan=4");
  EXPECT_EQ(got[0].mz, (std::vector<double>{200.5, 300.0}));
  EXPECT_EQ(got[0].intensity, (std::vector<float>{10.0f, 40.0f}));
  EXPECT_DOUBLE_EQ(got[0].rt_seconds, 60.0);
  EXPECT_EQ(got[1].precursor_charges, std::vector<int>{3});
  EXPECT_TRUE(got[2].precursor_charges.empty());  // charge 0: unknown
  EXPECT_EQ(stats.spectra_seen, 4u);
  EXPECT_EQ(stats.skipped.at("MS level 1"), 1u);
}

// A hostile check: msLevel="two" was taken as missing and the scan, with its precursor,
// searched as MS2.
TEST(MzxmlReader, AnInvalidMsLevelSkipsTheScan) {
  ReadStats stats;
  std::string two = scan(1, "2");
  two.replace(two.find("msLevel=\"2\""), 11, "msLevel=\"two\"");
  const auto got = read_all(document(two + scan(2, "2")), 1 << 20, &stats);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].native_id, "scan=2");
  EXPECT_EQ(stats.skipped, (std::map<std::string, uint64_t>{{"invalid MS level", 1}}));
}

// A reviewer's catch: a precursorMz of "nan" or "-500.25" was "no precursor m/z" here and
// "invalid selected ion m/z" in mzML. One reason now, for both.
TEST(MzxmlReader, AnInvalidPrecursorMzSkipsTheScanAsInMzml) {
  ReadStats stats;
  std::string text;
  for (const char* bad : {"nan", "-500.25", "500.25x"}) {
    std::string s = scan(1, "2");
    s.replace(s.find("500.25"), 6, bad);
    text += s;
  }
  const auto got = read_all(document(text + scan(4, "2")), 1 << 20, &stats);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(stats.skipped, (std::map<std::string, uint64_t>{{"invalid precursor m/z", 3}}));
}

TEST(MzxmlReader, BadChargesAndValuesAreSkippedWithTheSharedReasons) {
  ReadStats stats;
  const auto got = read_all(
      document(scan(1, "-2") + scan(2, "2.5") + scan(3, "abc") + scan(4, "2")), 1 << 20, &stats);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].scan, 4);
  EXPECT_EQ(stats.skipped.at(kSkipNegativeCharge), 1u);
  EXPECT_EQ(stats.skipped.at(kSkipBadCharge), 2u);
  EXPECT_EQ(stats.first_skipped_at.at(kSkipBadCharge), "line 3");  // the scans' line
}

// A zlib stream of `bytes` zero bytes, base64-encoded.
std::string zlib_zeros_base64(size_t bytes) {
  return base64_encode(io_testing::zlib_compress(std::string(bytes, '\0')));
}

std::string zlib_scan(int num, const std::string& peaks_count, const std::string& base64) {
  return "<scan num=\"" + std::to_string(num) + "\" msLevel=\"2\"" + peaks_count +
         "><precursorMz precursorCharge=\"2\">500.25</precursorMz><peaks precision=\"32\" "
         "byteOrder=\"network\" compressionType=\"zlib\" contentType=\"m/z-int\">" +
         base64 + "</peaks></scan>";
}

// A small file must not decode to gigabytes (a new user's zlib bomb): a scan declaring more than
// kMaxPeaksPerSpectrum peaks is skipped before its stream is inflated, a stream that inflates
// past its peaksCount stops there, and one without peaksCount stops at the bound.
TEST(MzxmlReader, ZlibStreamsStopAtTheirDeclaredOrTheLargestPeakCount) {
  ReadStats stats;
  const std::string small = zlib_zeros_base64(16);  // 2 pairs of 32-bit zeros
  // 4,194,305 pairs of 32-bit zeros: 33.5 MB inflated from ~33 KB.
  const std::string large = zlib_zeros_base64((kMaxPeaksPerSpectrum + 1) * 8);
  ASSERT_LT(large.size(), 100000u);
  const auto got = read_all(
      document(zlib_scan(1, " peaksCount=\"50000000\"", small) +
               zlib_scan(2, " peaksCount=\"1\"", large) + zlib_scan(3, "", large) + scan(4, "2")),
      1 << 20, &stats);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].scan, 4);
  EXPECT_EQ(stats.skipped.at(kSkipTooManyPeaks), 2u);  // scans 1 and 3
  EXPECT_EQ(stats.skipped.at("peaks length mismatch"), 1u);
  EXPECT_EQ(std::string(kSkipTooManyPeaks), "more than 4194304 peaks");
}

TEST(MzxmlReader, ATruncatedFileKeepsItsScansAndSaysSo) {
  const std::string text = read_file(kMzxml);
  // Cut inside the 15th scan's peaks.
  const size_t last = text.rfind("<peaks");
  ReadStats stats;
  const auto got = read_all(text.substr(0, last + 100), 4096, &stats);
  EXPECT_EQ(got.size(), 14u);
  EXPECT_EQ(stats.spectra_seen, 15u);
  EXPECT_EQ(stats.skipped.at(kSkipTruncated), 1u);
  EXPECT_EQ(stats.problems.at(kFileEndsEarly), 1u);
  EXPECT_EQ(read_problem_warnings("x.mzXML", stats),
            std::vector<std::string>{"x.mzXML: 1 file ends early (truncated?) (first at " +
                                     stats.first_skipped_at.at(kSkipTruncated) + ")"});
}

// A file cut outside a scan (before its run's scans, between them, before </msRun> or </mzXML>)
// ends early as the mzML reader says it: the byte where it ends and the element it ends in (it
// said "end of file"). A complete run without scans has no problem. Whole and in 1-byte blocks.
TEST(MzxmlReader, AFileCutOutsideAScanSaysWhereItEndsAndInWhichElement) {
  const std::string good = document(scan(1, "2"));
  struct Cut {
    std::string text;
    std::string inside;  // "" for a complete file
    size_t spectra;
  };
  const Cut cuts[] = {
      {"<?xml version=\"1.0\"?>\n<mzXML><msRun>", "msRun", 0},
      {"<?xml version=\"1.0\"?>\n<mzXML><msRun scanCount=", "mzXML", 0},
      {"<?xml version=\"1.0\"?>\n<msRun>\n", "msRun", 0},  // mzXML 1.x root
      {good.substr(0, good.find("</msRun>")), "msRun", 1},
      {good.substr(0, good.find("</mzXML>")), "mzXML", 1},
      {document(""), "", 0},
  };
  for (const Cut& cut : cuts) {
    for (size_t block : {size_t{1}, size_t{1} << 20}) {
      SCOPED_TRACE(cut.text.substr(0, 80) + " in blocks of " + std::to_string(block));
      ReadStats stats;
      EXPECT_EQ(read_all(cut.text, block, &stats).size(), cut.spectra);
      EXPECT_EQ(stats.spectra_seen, cut.spectra);
      EXPECT_TRUE(stats.skipped.empty());
      if (cut.inside.empty()) {
        EXPECT_TRUE(stats.problems.empty());
        continue;
      }
      EXPECT_EQ(
          read_problem_warnings("cut.mzXML", stats),
          std::vector<std::string>{"cut.mzXML: 1 file ends early (truncated?) (first at byte " +
                                   std::to_string(cut.text.size()) +
                                   ", the end of the file, inside <" + cut.inside + ">)"});
    }
  }
}

TEST(MzxmlReader, MalformedXmlNamesTheOpenScan) {
  try {
    read_all(document(scan(1, "2") + "<scan num=\"7\" msLevel=\"2\">\n</msRun>"), 1 << 20);
    FAIL() << "no ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), "excerpt.mzXML");
    EXPECT_NE(std::string(e.what()).find("mismatched tag; the open <scan num=\"7\"> starts at "
                                         "line 3"),
              std::string::npos)
        << e.what();
  }
  auto reader = make_mzxml_reader("wrong.mzXML", 0);
  std::vector<RawSpectrum> out;
  try {
    reader->feed("<?xml version=\"1.0\"?><mzML></mzML>", out);
    reader->finish(out);
    FAIL() << "no ParseError";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("root element <mzML> is not <mzXML> or <msRun>"),
              std::string::npos)
        << e.what();
  }
}

// After the root element, expat's verdict depends on where the input was cut (here a file that
// ends early whole, "junk after document element" when cut before the 'x'): every cut keeps the
// scans and notes the one problem at </mzXML>, as the mzML reader does (io/xml_root_end.hpp).
TEST(MzxmlReader, BytesAfterTheRootElementAreIgnoredAtItsEndTagWhateverTheCut) {
  const std::string good = document(scan(1, "2"));
  const size_t root_end = good.rfind("</mzXML>");
  const uint64_t line = 1 + std::count(good.begin(), good.begin() + root_end, '\n');
  const std::string bad = good + "x\xf3";
  for (size_t cut = 0; cut <= bad.size(); ++cut) {
    SCOPED_TRACE("cut at " + std::to_string(cut));
    auto reader = make_mzxml_reader("joined.mzXML", 0);
    std::vector<RawSpectrum> out;
    reader->feed(std::string_view(bad).substr(0, cut), out);
    reader->feed(std::string_view(bad).substr(cut), out);
    reader->finish(out);
    EXPECT_EQ(out.size(), 1u);
    EXPECT_EQ(reader->stats().problems,
              (std::map<std::string, uint64_t>{{kBytesAfterRootIgnored, 1}}));
    EXPECT_EQ(
        reader->stats().first_problem_at.at(kBytesAfterRootIgnored),
        "</mzXML> on line " + std::to_string(line) + " (byte " + std::to_string(root_end) + ")");
  }
}

// A <scan> met while no run is open (after an inner "<msRun/>") is not read, and its end tag
// must not end the scan whose <peaks> is open: it did, and </peaks> then decoded into no scan
// (heap overflow found by mzxml_reader_fuzzer, 2026-12-03). The outer scan is read as usual.
TEST(MzxmlReader, AScanOutsideTheRunDoesNotEndTheOpenScan) {
  std::string peaks = scan(7, "2");
  peaks.insert(peaks.find("</peaks>"), "<msRun/><scan num=\"8\" msLevel=\"2\"></scan>");
  ReadStats stats;
  const auto got = read_all(document(peaks), 1 << 20, &stats);
  EXPECT_EQ(stats.spectra_seen, 1u);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].scan, 7);
}

TEST(MzxmlReader, XsDurations) {
  double s = 0.0;
  EXPECT_TRUE(parse_xs_duration_seconds("PT1503.96166992188S", s));
  EXPECT_DOUBLE_EQ(s, 1503.96166992188);
  EXPECT_TRUE(parse_xs_duration_seconds("PT25M3.5S", s));
  EXPECT_DOUBLE_EQ(s, 1503.5);
  EXPECT_TRUE(parse_xs_duration_seconds("P1DT2H", s));
  EXPECT_DOUBLE_EQ(s, 93600.0);
  EXPECT_TRUE(parse_xs_duration_seconds("-PT1M", s));
  EXPECT_DOUBLE_EQ(s, -60.0);
  EXPECT_FALSE(parse_xs_duration_seconds("P1Y", s));
  EXPECT_FALSE(parse_xs_duration_seconds("P1M", s));  // a month
  EXPECT_FALSE(parse_xs_duration_seconds("PT", s));
  EXPECT_FALSE(parse_xs_duration_seconds("1503.9", s));
  EXPECT_FALSE(parse_xs_duration_seconds("PT12", s));
  EXPECT_FALSE(parse_xs_duration_seconds("PTxS", s));
}

}  // namespace
}  // namespace ionflow
