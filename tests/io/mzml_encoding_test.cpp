// Binary array encodings of mzML: one real spectrum (BSA1.mzML spectrum=2444, 34 peaks) written
// back by the test in each precision/compression (zlib's compress(), libmsnumpress encoders,
// base64_encode) inside a generated mzML document, then read by the reader.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <libmsnumpress/MSNumpress.hpp>
#include <string>
#include <vector>

#include "io/base64.hpp"
#include "io/mzml_reader.hpp"
#include "io_test_support.hpp"

namespace ionflow {
namespace {

namespace np = ms::numpress::MSNumpress;

struct Peaks {
  std::vector<double> mz;
  std::vector<double> intensity;
};

// The reference spectrum, read (plain 64/32-bit arrays) from the committed excerpt.
const Peaks& reference() {
  static const Peaks peaks = [] {
    std::ifstream in(std::string(IONFLOW_TEST_DATA_DIR) + "/BSA1_three_ms2_param_groups.mzML",
                     std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto reader = make_mzml_reader("ref.mzML", 0);
    std::vector<RawSpectrum> out;
    reader->feed(data, out);
    reader->finish(out);
    Peaks p;
    if (out.empty()) return p;
    p.mz = out[0].mz;
    p.intensity.assign(out[0].intensity.begin(), out[0].intensity.end());
    return p;
  }();
  return peaks;
}

std::string raw_f64(const std::vector<double>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
}
std::string raw_f32(const std::vector<double>& v) {
  std::vector<float> f(v.begin(), v.end());
  return std::string(reinterpret_cast<const char*>(f.data()), f.size() * sizeof(float));
}
std::string zlib(const std::string& bytes) {
  return io_testing::zlib_compress(bytes);
}
std::string bytes_of(const std::vector<unsigned char>& v) {
  return std::string(v.begin(), v.end());
}
std::string numpress_linear(const std::vector<double>& v) {
  std::vector<unsigned char> out;
  np::encodeLinear(v, out, np::optimalLinearFixedPoint(v.data(), v.size()));
  return bytes_of(out);
}
std::string numpress_pic(const std::vector<double>& v) {
  std::vector<unsigned char> out;
  np::encodePic(v, out);
  return bytes_of(out);
}
std::string numpress_slof(const std::vector<double>& v) {
  std::vector<unsigned char> out;
  np::encodeSlof(v, out, np::optimalSlofFixedPoint(v.data(), v.size()));
  return bytes_of(out);
}

// One binaryDataArray; `terms` are PSI-MS accessions (precision, compression).
std::string array_xml(const char* array_term, const std::vector<const char*>& terms,
                      const std::string& bytes, const std::string& attributes = "") {
  const std::string text = base64_encode(bytes);
  std::string s = "<binaryDataArray encodedLength=\"" + std::to_string(text.size()) + "\"" +
                  attributes + ">\n<cvParam cvRef=\"MS\" accession=\"" + array_term +
                  "\" name=\"array\"/>\n";
  for (const char* t : terms)
    s += "<cvParam cvRef=\"MS\" accession=\"" + std::string(t) + "\" name=\"t\"/>\n";
  return s + "<binary>" + text + "</binary>\n</binaryDataArray>\n";
}
std::string mz_array(const std::vector<const char*>& terms, const std::string& bytes,
                     const std::string& attributes = "") {
  return array_xml("MS:1000514", terms, bytes, attributes);
}
std::string intensity_array(const std::vector<const char*>& terms, const std::string& bytes) {
  return array_xml("MS:1000515", terms, bytes);
}

std::string document(const std::vector<std::string>& arrays, size_t default_length) {
  std::string s =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<mzML xmlns=\"http://psi.hupo.org/ms/mzml\" version=\"1.1.0\">\n<run id=\"r\">\n"
      "<spectrumList count=\"1\" defaultDataProcessingRef=\"dp\">\n"
      "<spectrum id=\"scan=2444\" index=\"0\" defaultArrayLength=\"" +
      std::to_string(default_length) +
      "\">\n<cvParam cvRef=\"MS\" accession=\"MS:1000511\" name=\"ms level\" value=\"2\"/>\n"
      "<precursorList count=\"1\"><precursor><selectedIonList count=\"1\"><selectedIon>\n"
      "<cvParam cvRef=\"MS\" accession=\"MS:1000744\" name=\"selected ion m/z\" "
      "value=\"618.719482421875\"/>\n"
      "<cvParam cvRef=\"MS\" accession=\"MS:1000041\" name=\"charge state\" value=\"2\"/>\n"
      "</selectedIon></selectedIonList><activation>\n"
      "<cvParam cvRef=\"MS\" accession=\"MS:1000422\" name=\"beam-type collision-induced "
      "dissociation\"/>\n</activation></precursor></precursorList>\n"
      "<binaryDataArrayList count=\"" +
      std::to_string(arrays.size()) + "\">\n";
  for (const auto& a : arrays) s += a;
  return s + "</binaryDataArrayList>\n</spectrum>\n</spectrumList>\n</run>\n</mzML>\n";
}

struct Result {
  std::vector<RawSpectrum> spectra;
  ReadStats stats;
};

Result read(const std::string& doc, size_t block = 97) {
  auto reader = make_mzml_reader("generated.mzML", 0);
  Result r;
  for (size_t pos = 0; pos < doc.size(); pos += block) {
    reader->feed(std::string_view(doc).substr(pos, block), r.spectra);
  }
  reader->finish(r.spectra);
  r.stats = reader->stats();
  return r;
}

// Reads `doc` and returns its one spectrum (fails the test if it was skipped).
RawSpectrum read_one(const std::string& doc) {
  const Result r = read(doc);
  EXPECT_EQ(r.spectra.size(), 1u);
  for (const auto& [reason, n] : r.stats.skipped) ADD_FAILURE() << "skipped: " << reason;
  return r.spectra.empty() ? RawSpectrum{} : r.spectra[0];
}

std::vector<double> as_double(const std::vector<float>& v) {
  return {v.begin(), v.end()};
}

// What libmsnumpress itself decodes from `bytes`: the reader must give exactly this.
std::vector<double> numpress_decoded(std::string bytes, char scheme) {
  std::vector<unsigned char> in(bytes.begin(), bytes.end());
  std::vector<double> out;
  if (scheme == 'l') np::decodeLinear(in, out);
  if (scheme == 'p') np::decodePic(in, out);
  if (scheme == 's') np::decodeSlof(in, out);
  return out;
}

TEST(MzmlEncoding, ReferenceSpectrumIsReal) {
  const Peaks& p = reference();
  ASSERT_EQ(p.mz.size(), 34u);
  EXPECT_NEAR(p.mz.front(), 226.1676483, 1e-6);
  EXPECT_NEAR(p.intensity.back(), 7.65590429, 1e-6);
}

TEST(MzmlEncoding, Plain64And32BitExact) {
  const Peaks& p = reference();
  const RawSpectrum s =
      read_one(document({mz_array({"MS:1000523", "MS:1000576"}, raw_f64(p.mz)),
                         intensity_array({"MS:1000523", "MS:1000576"}, raw_f64(p.intensity))},
                        p.mz.size()));
  EXPECT_EQ(s.mz, p.mz);
  EXPECT_EQ(as_double(s.intensity), p.intensity);  // the values came from 32-bit floats
  EXPECT_EQ(s.activation, "HCD");
  EXPECT_EQ(s.scan, 2444);

  const RawSpectrum s32 = read_one(document({mz_array({"MS:1000521"}, raw_f32(p.mz)),
                                             intensity_array({"MS:1000521"}, raw_f32(p.intensity))},
                                            p.mz.size()));
  ASSERT_EQ(s32.mz.size(), p.mz.size());
  for (size_t i = 0; i < p.mz.size(); ++i) {
    EXPECT_EQ(s32.mz[i], static_cast<double>(static_cast<float>(p.mz[i])));
  }
  EXPECT_EQ(as_double(s32.intensity), p.intensity);
}

TEST(MzmlEncoding, ZlibExact) {
  const Peaks& p = reference();
  const RawSpectrum s =
      read_one(document({mz_array({"MS:1000523", "MS:1000574"}, zlib(raw_f64(p.mz))),
                         intensity_array({"MS:1000521", "MS:1000574"}, zlib(raw_f32(p.intensity)))},
                        p.mz.size()));
  EXPECT_EQ(s.mz, p.mz);
  EXPECT_EQ(as_double(s.intensity), p.intensity);
}

TEST(MzmlEncoding, NumpressLinearPicSlof) {
  const Peaks& p = reference();
  const std::string linear = numpress_linear(p.mz);
  const std::string pic = numpress_pic(p.intensity);
  const std::string slof = numpress_slof(p.intensity);
  const std::vector<double> linear_expected = numpress_decoded(linear, 'l');
  const std::vector<double> pic_expected = numpress_decoded(pic, 'p');
  const std::vector<double> slof_expected = numpress_decoded(slof, 's');

  // numpress alone (with the 64-bit term pwiz writes beside it), and with zlib: the combined
  // terms MS:1002746/7/8 and the two-term form (MS:1000574 + numpress term).
  struct Case {
    std::string mz, intensity;
    const std::vector<double>* intensity_expected;
    double intensity_tolerance;  // absolute, on values up to ~30 counts
  };
  const Case cases[] = {
      {mz_array({"MS:1000523", "MS:1002312"}, linear),
       intensity_array({"MS:1000521", "MS:1002313"}, pic), &pic_expected, 0.5},
      {mz_array({"MS:1002312"}, linear), intensity_array({"MS:1002314"}, slof), &slof_expected,
       0.01},
      {mz_array({"MS:1000523", "MS:1002746"}, zlib(linear)),
       intensity_array({"MS:1000521", "MS:1002747"}, zlib(pic)), &pic_expected, 0.5},
      {mz_array({"MS:1002746"}, zlib(linear)), intensity_array({"MS:1002748"}, zlib(slof)),
       &slof_expected, 0.01},
      {mz_array({"MS:1000574", "MS:1002312"}, zlib(linear)),
       intensity_array({"MS:1002314", "MS:1000574"}, zlib(slof)), &slof_expected, 0.01},
  };
  for (size_t c = 0; c < std::size(cases); ++c) {
    SCOPED_TRACE("case " + std::to_string(c));
    const RawSpectrum s = read_one(document({cases[c].mz, cases[c].intensity}, p.mz.size()));
    ASSERT_EQ(s.mz.size(), p.mz.size());
    ASSERT_EQ(s.intensity.size(), p.mz.size());
    EXPECT_EQ(s.mz, linear_expected);
    for (size_t i = 0; i < p.mz.size(); ++i) {
      EXPECT_NEAR(s.mz[i], p.mz[i], 1e-6);  // fixed point ~2.7e6/Th for m/z < 800
      EXPECT_EQ(s.intensity[i], static_cast<float>((*cases[c].intensity_expected)[i]));
      EXPECT_NEAR(s.intensity[i], p.intensity[i], cases[c].intensity_tolerance);
    }
  }
}

TEST(MzmlEncoding, OtherArraysAreIgnored) {
  const Peaks& p = reference();
  std::vector<double> charges(p.mz.size(), 1.0);
  const RawSpectrum s =
      read_one(document({array_xml("MS:1000516", {"MS:1000521"}, raw_f32(charges)),  // charge array
                         mz_array({"MS:1000523"}, raw_f64(p.mz)),
                         intensity_array({"MS:1000521"}, raw_f32(p.intensity))},
                        p.mz.size()));
  EXPECT_EQ(s.mz, p.mz);
}

TEST(MzmlEncoding, MalformedArraysSkipWithReason) {
  const Peaks& p = reference();
  const size_t n = p.mz.size();
  const std::string mz = mz_array({"MS:1000523"}, raw_f64(p.mz));
  const std::string intensity = intensity_array({"MS:1000521"}, raw_f32(p.intensity));
  std::vector<double> shorter(p.mz.begin(), p.mz.end() - 1);

  const std::pair<std::string, std::string> cases[] = {
      {document({mz, intensity}, n + 1), "array length mismatch"},
      {document({mz_array({"MS:1000523"}, raw_f64(shorter), " arrayLength=\"33\""), intensity}, n),
       "m/z and intensity lengths differ"},
      {document({mz_array({"MS:1000523", "MS:1000574"}, raw_f64(p.mz)), intensity}, n),
       "bad zlib data"},
      {document({mz_array({"MS:1000523", "MS:1000574"}, zlib(raw_f64(shorter))), intensity}, n),
       "array length mismatch"},
      {document({mz_array({"MS:1000523", "MS:1002312"}, "\x01\x02\x03"), intensity}, n),
       "bad numpress data"},
      {document({mz_array({"MS:1000576"}, raw_f64(p.mz)), intensity}, n), "no binary precision"},
      {document({mz}, n), "no intensity array"},
      {document({}, 0), "no peaks"},
  };
  for (const auto& [doc, reason] : cases) {
    const Result r = read(doc);
    EXPECT_TRUE(r.spectra.empty()) << reason;
    EXPECT_EQ(r.stats.spectra_seen, 1u);
    EXPECT_EQ(r.stats.skipped, (std::map<std::string, uint64_t>{{reason, 1}}));
  }
}

// A spectrum declaring more than kMaxPeaksPerSpectrum values is skipped before its arrays are
// inflated or allocated (a new user's 1.6 MB mzML declaring 50 M values of a zlib array took 2.3
// GB); a length at the bound itself is decoded (only a length mismatch here).
TEST(MzmlEncoding, ArraysAboveTheLargestPeakCountAreSkippedUndecoded) {
  const Peaks& p = reference();
  const std::string mz = mz_array({"MS:1000523", "MS:1000574"}, zlib(raw_f64(p.mz)));
  const std::string intensity = intensity_array({"MS:1000521"}, raw_f32(p.intensity));
  const Result big = read(document({mz, intensity}, 50000000));
  EXPECT_TRUE(big.spectra.empty());
  EXPECT_EQ(big.stats.skipped, (std::map<std::string, uint64_t>{{"more than 4194304 peaks", 1}}));
  const Result at_bound = read(document({mz, intensity}, 4194304));
  EXPECT_EQ(at_bound.stats.skipped,
            (std::map<std::string, uint64_t>{{"array length mismatch", 1}}));
}

// Empty arrays of an empty spectrum (defaultArrayLength="0", <binary></binary>) decode to no
// values: the spectrum is skipped as "no peaks". Found by binary_array_fuzzer (tests/fuzz):
// the decoder passed the empty vector's null data() to memcpy, undefined behaviour (UBSan).
TEST(MzmlEncoding, EmptyArraysAreNoPeaks) {
  for (const char* precision : {"MS:1000523", "MS:1000521", "MS:1000519", "MS:1000522"}) {
    const Result r = read(
        document({mz_array({precision}, ""), intensity_array({precision, "MS:1000576"}, "")}, 0));
    EXPECT_TRUE(r.spectra.empty()) << precision;
    EXPECT_EQ(r.stats.skipped, (std::map<std::string, uint64_t>{{"no peaks", 1}})) << precision;
  }
}

// Corrupt array bytes (random byte changes and truncations of numpress and zlib data, fixed
// seed) never crash the reader: each spectrum is either emitted with equal-length arrays or
// skipped with a reason, and the counts add up.
TEST(MzmlEncoding, CorruptArraysNeverCrash) {
  const Peaks& p = reference();
  const std::string encoded[] = {numpress_linear(p.mz), numpress_pic(p.intensity),
                                 numpress_slof(p.intensity), zlib(raw_f64(p.mz))};
  const char* terms[] = {"MS:1002312", "MS:1002313", "MS:1002314", "MS:1000574"};
  const std::string intensity = intensity_array({"MS:1000521"}, raw_f32(p.intensity));
  uint32_t state = 12345;
  auto next = [&state] { return state = state * 1103515245u + 12345u, state >> 8; };
  uint64_t emitted = 0;
  for (int round = 0; round < 400; ++round) {
    const size_t which = round % 4;
    std::string bytes = encoded[which];
    for (int k = 0; k < 1 + round % 3; ++k)
      bytes[next() % bytes.size()] = static_cast<char>(next());
    if (round % 5 == 0) bytes.resize(next() % bytes.size());
    const Result r =
        read(document({mz_array({"MS:1000523", terms[which]}, bytes), intensity}, p.mz.size()));
    uint64_t skipped = 0;
    for (const auto& [reason, n] : r.stats.skipped) skipped += n;
    ASSERT_EQ(r.stats.spectra_seen, 1u);
    ASSERT_EQ(r.stats.spectra_emitted + skipped, 1u);
    for (const auto& s : r.spectra) ASSERT_EQ(s.mz.size(), s.intensity.size());
    emitted += r.stats.spectra_emitted;
  }
  EXPECT_LT(emitted, 400u);  // most corruptions are caught
}

}  // namespace
}  // namespace ionflow
