// Peak-list format detection and dispatch: content decides, never the file name.
#include "io/spectrum_reader.hpp"

#include "io/peak_checks.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "io/decompression.hpp"
#include "io_test_support.hpp"

namespace ionflow {
namespace {

using io_testing::read_file;

TEST(SpectrumReaderFormat, DetectsMzmlFromXmlStart) {
  EXPECT_EQ(detect_peak_list_format("<?xml version=\"1.0\"?>"), PeakListFormat::kMzML);
  EXPECT_EQ(detect_peak_list_format("<mzML xmlns="), PeakListFormat::kMzML);
  EXPECT_EQ(detect_peak_list_format("<indexedmzML xmlns="), PeakListFormat::kMzML);
  EXPECT_EQ(detect_peak_list_format("\xEF\xBB\xBF<?xml"), PeakListFormat::kMzML);
  EXPECT_EQ(detect_peak_list_format(" \r\n\t<?xml"), PeakListFormat::kMzML);
  EXPECT_EQ(detect_peak_list_format("\xEF\xBB\xBF\n  <indexedmzML"), PeakListFormat::kMzML);
  EXPECT_EQ(detect_peak_list_format("<"), PeakListFormat::kMzML);
}

TEST(SpectrumReaderFormat, EverythingElseIsMgf) {
  EXPECT_EQ(detect_peak_list_format("BEGIN IONS\n"), PeakListFormat::kMgf);
  EXPECT_EQ(detect_peak_list_format("# comment\nMASS=Monoisotopic\n"), PeakListFormat::kMgf);
  EXPECT_EQ(detect_peak_list_format("\xEF\xBB\xBF"
                                    "BEGIN IONS"),
            PeakListFormat::kMgf);
  EXPECT_EQ(detect_peak_list_format(""), PeakListFormat::kMgf);
  EXPECT_EQ(detect_peak_list_format("   "), PeakListFormat::kMgf);
}

TEST(SpectrumReaderFormat, RealMzmlHeadIsMzml) {
  std::ifstream in(IONFLOW_EXAMPLES_DIR "/ID/Ecoli_MS2_small.mzML", std::ios::binary);
  ASSERT_TRUE(in);
  std::string head(64, '\0');
  in.read(head.data(), head.size());
  EXPECT_EQ(detect_peak_list_format(head), PeakListFormat::kMzML);
}

// "ecoli_ms2_small_first5_peaks" has no telling suffix: it is the zstd-compressed MGF excerpt.
// Compression and format both come from the content; the spectra equal the plain MGF's.
TEST(SpectrumReaderFormat, FileWithoutTellingSuffixIsDetectedByContent) {
  std::string bytes = read_file(IONFLOW_TEST_DATA_DIR "/ecoli_ms2_small_first5_peaks");
  Decompressor decompressor("ecoli_ms2_small_first5_peaks");
  std::unique_ptr<SpectrumReader> reader;
  std::vector<RawSpectrum> spectra;
  std::string text;
  for (size_t i = 0; i < bytes.size(); i += 4096) {
    text.clear();
    decompressor.feed(std::string_view(bytes).substr(i, 4096), text);
    if (!reader && !text.empty()) {
      reader =
          make_spectrum_reader(detect_peak_list_format(text), "ecoli_ms2_small_first5_peaks", 7);
    }
    if (reader) reader->feed(text, spectra);
  }
  text.clear();
  decompressor.finish(text);
  ASSERT_TRUE(reader);
  reader->feed(text, spectra);
  reader->finish(spectra);
  EXPECT_EQ(decompressor.compression(), Compression::kZstd);

  auto plain = make_spectrum_reader(PeakListFormat::kMgf, "plain.mgf", 7);
  std::vector<RawSpectrum> expected;
  plain->feed(read_file(IONFLOW_TEST_DATA_DIR "/ecoli_ms2_small_first5.mgf"), expected);
  plain->finish(expected);

  ASSERT_EQ(spectra.size(), 5u);
  ASSERT_EQ(expected.size(), 5u);
  EXPECT_EQ(reader->stats().spectra_emitted, 5u);
  for (size_t i = 0; i < spectra.size(); ++i) {
    EXPECT_EQ(spectra[i].file_index, 7u);
    EXPECT_EQ(spectra[i].native_id, expected[i].native_id);
    EXPECT_EQ(spectra[i].scan, expected[i].scan);
    EXPECT_EQ(spectra[i].precursor_mz, expected[i].precursor_mz);
    EXPECT_EQ(spectra[i].mz, expected[i].mz);
    EXPECT_EQ(spectra[i].intensity, expected[i].intensity);
  }
  EXPECT_EQ(spectra[0].scan, 11461);
}

// The same spectra through both readers: Ecoli_MS2_small.mzML (the mzML reader) and its first 5
// spectra converted to MGF (this reader) agree on every field MGF carries.
TEST(SpectrumReaderFormat, MzmlAndMgfReadersAgreeOnTheSameSpectra) {
  std::string mzml = read_file(IONFLOW_EXAMPLES_DIR "/ID/Ecoli_MS2_small.mzML");
  auto mzml_reader = make_spectrum_reader(detect_peak_list_format(mzml), "Ecoli_MS2_small.mzML", 0);
  std::vector<RawSpectrum> from_mzml;
  for (size_t i = 0; i < mzml.size(); i += 65536) {
    mzml_reader->feed(std::string_view(mzml).substr(i, 65536), from_mzml);
  }
  mzml_reader->finish(from_mzml);
  EXPECT_EQ(from_mzml.size(), 139u);

  std::string mgf = read_file(IONFLOW_TEST_DATA_DIR "/ecoli_ms2_small_first5.mgf");
  auto mgf_reader = make_spectrum_reader(detect_peak_list_format(mgf), "first5.mgf", 0);
  std::vector<RawSpectrum> from_mgf;
  mgf_reader->feed(mgf, from_mgf);
  mgf_reader->finish(from_mgf);
  ASSERT_EQ(from_mgf.size(), 5u);
  ASSERT_GE(from_mzml.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    const RawSpectrum& a = from_mzml[i];
    const RawSpectrum& b = from_mgf[i];
    EXPECT_EQ(a.native_id, b.native_id);
    EXPECT_EQ(a.scan, b.scan);
    EXPECT_NEAR(a.rt_seconds, b.rt_seconds, 1e-9);
    EXPECT_NEAR(a.precursor_mz, b.precursor_mz, 1e-9);
    EXPECT_EQ(a.precursor_charges, b.precursor_charges);
    EXPECT_EQ(a.mz, b.mz) << "spectrum " << i;
    EXPECT_EQ(a.intensity, b.intensity) << "spectrum " << i;
  }
}

// The warnings read each problem's plural as the singular after a count of one: every plural
// problem text the readers use ("peaks dropped", "peak lines", "profile spectra", "spectra
// outside"), and none of the others.
TEST(ReadProblemWarnings, ACountOfOneReadsInTheSingular) {
  ReadStats stats;
  stats.problems = {{kDroppedBadMz, 1},
                    {kPeakWithoutIntensity, 1},
                    {"profile spectra centroided", 1},
                    {"spectra outside <spectrumList> ignored", 1},
                    {kFileEndsEarly, 1},
                    {kDroppedBadIntensity, 2}};
  stats.first_problem_at[kDroppedBadMz] = "line 7";
  EXPECT_EQ(
      read_problem_warnings("x", stats),
      (std::vector<std::string>{
          "x: 1 file ends early (truncated?)",
          "x: 1 peak line without an intensity (given intensity 1)",
          "x: 2 peaks dropped: intensity NaN or infinite (as a 32-bit float: beyond 3.4e38)",
          "x: 1 peak dropped: m/z NaN, infinite or not positive (first at line 7)",
          "x: 1 profile spectrum centroided", "x: 1 spectrum outside <spectrumList> ignored"}));
}

}  // namespace
}  // namespace ionflow
