// Spectrum preparation on a hand-made spectrum: precursor removal, top-N, sqrt normalisation,
// one query per charge, skip reasons.
#include "scoring/spectrum_preparation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

#include "io/mgf_reader.hpp"
#include "io/mzml_reader.hpp"
#include "scoring/mass.hpp"

namespace ionflow {
namespace {

RawSpectrum hand_made() {
  RawSpectrum s;
  s.file_index = 3;
  s.spectrum_index = 7;
  s.native_id = "scan=42";
  s.scan = 42;
  s.rt_seconds = 12.5;
  s.precursor_mz = 500.0;
  s.precursor_charges = {2};
  // Unsorted on purpose. 499.9 is the precursor, 491.0 its water loss at 2+ (490.995).
  s.mz = {700.0, 150.0, 499.9, 200.0, 491.0, 300.0, 600.0, 800.0};
  s.intensity = {2500.0f, 100.0f, 10000.0f, 400.0f, 500.0f, 900.0f, 1600.0f, 0.0f};
  return s;
}

TEST(SpectrumPreparation, HandMadeSpectrum) {
  SearchParameters params;
  params.max_peaks = 4;
  params.min_peaks = 3;
  PreparedSpectrum p = prepare_spectrum(hand_made(), params);
  EXPECT_EQ(p.skip_reason, "");
  ASSERT_EQ(p.queries.size(), 1u);
  const Query& q = p.queries[0];
  EXPECT_EQ(q.charge, 2);
  EXPECT_TRUE(q.charge_from_file);
  EXPECT_EQ(q.file_index, 3u);
  EXPECT_EQ(q.spectrum_index, 7u);
  EXPECT_EQ(q.scan, 42);
  EXPECT_EQ(q.native_id, "scan=42");
  EXPECT_NEAR(q.neutral_mass, (500.0 - mass::kProton) * 2, 1e-9);  // 997.985447
  EXPECT_NEAR(q.neutral_mass, 997.985447, 1e-6);
  // Precursor, its water loss and the zero peak gone; top 4 of the rest: 700, 600, 300, 200.
  // Intensities 100·sqrt(I / 2500).
  ASSERT_EQ(q.peaks.size(), 4u);
  const float mz[] = {200, 300, 600, 700};
  const float in[] = {40, 60, 80, 100};
  for (int i = 0; i < 4; ++i) {
    EXPECT_FLOAT_EQ(q.peaks[i].mz, mz[i]);
    EXPECT_NEAR(q.peaks[i].intensity, in[i], 1e-4);
  }
}

// Top-N with ties at the threshold intensity: the most intense peaks, ties kept at the lowest
// m/z, returned in m/z order (sorted input takes the no-sort path, shuffled input the sort).
TEST(SpectrumPreparation, TopPeaksTiesKeepTheLowestMz) {
  SearchParameters params;
  params.max_peaks = 4;
  params.min_peaks = 1;
  params.remove_precursor_peak = false;
  params.deisotope = false;
  RawSpectrum s = hand_made();
  s.precursor_mz = 900.0;
  // 100 and 900 are above the threshold (400); four peaks tie at 400: 150 and 250 are kept.
  s.mz = {100.0, 150.0, 250.0, 320.0, 410.0, 900.0, 950.0};
  s.intensity = {2500.0f, 400.0f, 400.0f, 400.0f, 400.0f, 1600.0f, 25.0f};
  for (bool shuffled : {false, true}) {
    SCOPED_TRACE(shuffled);
    RawSpectrum input = s;
    if (shuffled) {
      std::reverse(input.mz.begin(), input.mz.end());
      std::reverse(input.intensity.begin(), input.intensity.end());
    }
    const PreparedSpectrum p = prepare_spectrum(input, params);
    ASSERT_EQ(p.queries.size(), 1u);
    const std::vector<Peak>& peaks = p.queries[0].peaks;
    ASSERT_EQ(peaks.size(), 4u);
    const float mz[] = {100, 150, 250, 900};
    const float in[] = {100, 40, 40, 80};  // 100 * sqrt(I / 2500)
    for (int i = 0; i < 4; ++i) {
      EXPECT_FLOAT_EQ(peaks[i].mz, mz[i]);
      EXPECT_NEAR(peaks[i].intensity, in[i], 1e-4);
    }
  }
}

TEST(SpectrumPreparation, UnknownChargeGivesOneQueryPerCharge) {
  SearchParameters params;
  params.min_peaks = 3;
  RawSpectrum s = hand_made();
  s.precursor_charges.clear();
  PreparedSpectrum p = prepare_spectrum(s, params);
  ASSERT_EQ(p.queries.size(), 2u);
  EXPECT_EQ(p.queries[0].charge, 2);
  EXPECT_EQ(p.queries[1].charge, 3);
  EXPECT_FALSE(p.queries[1].charge_from_file);
  EXPECT_NEAR(p.queries[1].neutral_mass, (500.0 - mass::kProton) * 3, 1e-9);
  EXPECT_EQ(p.queries[0].peaks.size(), 5u);  // 150, 200, 300, 600, 700
  EXPECT_EQ(p.queries[0].charges_tried, 2);  // each query knows the spectrum was tried twice
  EXPECT_EQ(p.queries[1].charges_tried, 2);
  s.precursor_charges = {2};
  EXPECT_EQ(prepare_spectrum(s, params).queries.at(0).charges_tried, 1);
}

TEST(SpectrumPreparation, KeepsPrecursorWhenAsked) {
  SearchParameters params;
  params.min_peaks = 3;
  params.remove_precursor_peak = false;
  PreparedSpectrum p = prepare_spectrum(hand_made(), params);
  ASSERT_EQ(p.queries.size(), 1u);
  EXPECT_EQ(p.queries[0].peaks.size(), 7u);
  // The precursor (499.9) is now the base peak: 100; the 700 peak 100·sqrt(2500/10000) = 50.
  EXPECT_NEAR(p.queries[0].peaks[4].intensity, 100.0, 1e-4);
  EXPECT_NEAR(p.queries[0].peaks[6].intensity, 50.0, 1e-4);
}

TEST(SpectrumPreparation, SkipReasons) {
  SearchParameters params;  // min_peaks 15
  EXPECT_EQ(prepare_spectrum(hand_made(), params).skip_reason, "too few peaks");
  RawSpectrum s = hand_made();
  s.precursor_mz = 0.0;
  EXPECT_EQ(prepare_spectrum(s, params).skip_reason, "no precursor m/z");
  // A hostile check: an MGF's PEPMASS=1e308 was searched (an infinite neutral mass).
  s.precursor_mz = 1e308;
  EXPECT_EQ(prepare_spectrum(s, params).skip_reason, "precursor m/z above 100000");
  s.precursor_mz = 100000.5;
  EXPECT_EQ(prepare_spectrum(s, params).skip_reason, "precursor m/z above 100000");
  s = hand_made();
  s.ms_level = 1;
  EXPECT_EQ(prepare_spectrum(s, params).skip_reason, "not MS2");
  EXPECT_TRUE(prepare_spectrum(s, params).queries.empty());
}

// A file charge above kMaxPrecursorCharge (10) is not believed: alone it skips the spectrum
// (a charge of 99 once gave a false high-scoring PSM), next to believable charges it is dropped.
TEST(SpectrumPreparation, ChargeAboveTheCap) {
  SearchParameters params;
  params.min_peaks = 3;
  EXPECT_EQ(kMaxPrecursorCharge, 10);
  RawSpectrum s = hand_made();
  s.precursor_charges = {99};
  PreparedSpectrum p = prepare_spectrum(s, params);
  EXPECT_EQ(p.skip_reason, "precursor charge above 10");
  EXPECT_TRUE(p.queries.empty());

  s.precursor_charges = {11};
  EXPECT_EQ(prepare_spectrum(s, params).skip_reason, "precursor charge above 10");

  s.precursor_charges = {10};  // the cap itself is searched
  p = prepare_spectrum(s, params);
  EXPECT_EQ(p.skip_reason, "");
  ASSERT_EQ(p.queries.size(), 1u);
  EXPECT_EQ(p.queries[0].charge, 10);

  s.precursor_charges = {2, 3, 99};
  p = prepare_spectrum(s, params);
  EXPECT_EQ(p.skip_reason, "");
  ASSERT_EQ(p.queries.size(), 2u);
  EXPECT_EQ(p.queries[0].charge, 2);
  EXPECT_EQ(p.queries[1].charge, 3);
  EXPECT_TRUE(p.queries[1].charge_from_file);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string replace_first(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::vector<RawSpectrum> read_all(std::unique_ptr<SpectrumReader> reader, std::string_view text) {
  std::vector<RawSpectrum> out;
  reader->feed(text, out);
  reader->finish(out);
  return out;
}

// The cap holds for both file formats: MGF CHARGE=99+ and mzML "charge state" (MS:1000041) 99
// reach prepare_spectrum as precursor_charges {99} and are skipped; the file's other spectra
// are searched at their own charges (2+ and 3+ in the MGF, 2+ in the mzML).
TEST(SpectrumPreparation, ChargeAboveTheCapFromMgfAndMzml) {
  SearchParameters params;
  const std::string mgf = replace_first(slurp(IONFLOW_TEST_DATA_DIR "/ecoli_ms2_small_first5.mgf"),
                                        "CHARGE=2+", "CHARGE=99+");
  const std::vector<RawSpectrum> from_mgf = read_all(make_mgf_reader("capped.mgf", 0), mgf);
  ASSERT_EQ(from_mgf.size(), 5u);
  EXPECT_EQ(from_mgf[0].precursor_charges, std::vector<int>{99});
  EXPECT_EQ(prepare_spectrum(from_mgf[0], params).skip_reason, "precursor charge above 10");
  const PreparedSpectrum second = prepare_spectrum(from_mgf[1], params);
  ASSERT_EQ(second.queries.size(), 1u);
  EXPECT_EQ(second.queries[0].charge, 3);

  const std::string mzml =
      replace_first(slurp(IONFLOW_TEST_DATA_DIR "/BSA1_three_ms2_param_groups.mzML"),
                    "name=\"charge state\" value=\"2\"", "name=\"charge state\" value=\"99\"");
  const std::vector<RawSpectrum> from_mzml = read_all(make_mzml_reader("capped.mzML", 0), mzml);
  ASSERT_EQ(from_mzml.size(), 3u);
  EXPECT_EQ(from_mzml[0].precursor_charges, std::vector<int>{99});
  EXPECT_EQ(prepare_spectrum(from_mzml[0], params).skip_reason, "precursor charge above 10");
  EXPECT_EQ(from_mzml[1].precursor_charges, std::vector<int>{2});
  EXPECT_NE(prepare_spectrum(from_mzml[1], params).skip_reason, "precursor charge above 10");
}

TEST(SpectrumPreparation, Deisotoping) {
  SearchParameters params;
  params.min_peaks = 1;
  params.deisotope = true;
  RawSpectrum s;
  s.precursor_mz = 900.0;
  s.precursor_charges = {2};
  // 400.0 with its 13C peak at 401.0; 600.0 with a 2+ isotope at 600.5; 700 alone.
  s.mz = {400.0, 401.0, 600.0, 600.5, 700.0};
  s.intensity = {100.0f, 60.0f, 100.0f, 50.0f, 10.0f};
  PreparedSpectrum p = prepare_spectrum(s, params);
  ASSERT_EQ(p.queries.size(), 1u);
  ASSERT_EQ(p.queries[0].peaks.size(), 3u);
  EXPECT_FLOAT_EQ(p.queries[0].peaks[0].mz, 400.0f);
  EXPECT_FLOAT_EQ(p.queries[0].peaks[1].mz, 600.0f);
  EXPECT_FLOAT_EQ(p.queries[0].peaks[2].mz, 700.0f);
}

TEST(SpectrumPreparation, NormalisedIntensity) {
  EXPECT_DOUBLE_EQ(normalised_intensity(25.0, 100.0), 50.0);
  EXPECT_DOUBLE_EQ(normalised_intensity(0.0, 100.0), 0.0);
}

}  // namespace
}  // namespace ionflow
