// Profile spectra: detection on real data (the centroided MS2 spectra of BSA1 and
// Ecoli_MS2_small are not profile; the profile spectrum of OpenMS's peakpicker_tutorial_1.mzML
// is) and centroiding checked against OpenMS PeakPicker's result for that spectrum
// (peakpicker_tutorial_1_picked.mzML). Both tutorial spectra are MS1: the test makes them MS2
// (ms level 2 and a precursor) so that the readers emit them.
#include "io/profile_spectrum.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "io/spectrum_reader.hpp"
#include "io_test_support.hpp"

namespace ionflow {
namespace {

using io_testing::read_file;

using Read = io_testing::PeakListRead;

Read read(const std::string& text, const std::string& name) {
  return io_testing::read_peak_list(text, name);
}

// The tutorial's one MS1 spectrum as an MS2 spectrum of precursor 500 m/z.
std::string as_ms2(std::string text) {
  const std::string level = "name=\"ms level\" value=\"1\"";
  text.replace(text.find(level), level.size(), "name=\"ms level\" value=\"2\"");
  const size_t list = text.find("<binaryDataArrayList");
  text.insert(list,
              "<precursorList count=\"1\"><precursor><selectedIonList count=\"1\"><selectedIon>"
              "<cvParam cvRef=\"MS\" accession=\"MS:1000744\" name=\"selected ion m/z\" "
              "value=\"500\"/></selectedIon></selectedIonList></precursor></precursorList>\n");
  return text;
}

TEST(ProfileSpectrum, CentroidedRealSpectraAreNotProfile) {
  for (const char* file : {"/BSA/BSA1.mzML", "/ID/Ecoli_MS2_small.mzML"}) {
    const Read r = read(read_file(std::string(IONFLOW_EXAMPLES_DIR) + file), file);
    size_t profile = 0;
    for (const RawSpectrum& s : r.spectra) profile += looks_like_profile(s.mz) ? 1 : 0;
    EXPECT_EQ(profile, 0u) << file;
    EXPECT_EQ(r.stats.problems.count(kProfileCentroided), 0u) << file;
  }
}

TEST(ProfileSpectrum, TheTutorialProfileIsDetectedAndCentroidedLikeOpenMsPeakPicker) {
  const std::string dir = IONFLOW_EXAMPLES_DIR;
  const std::string profile = read_file(dir + "/peakpicker_tutorial_1.mzML");
  const Read picked = read(as_ms2(read_file(dir + "/peakpicker_tutorial_1_picked.mzML")), "p");
  ASSERT_EQ(picked.spectra.size(), 1u);
  ASSERT_EQ(picked.spectra[0].mz.size(), 94u);
  EXPECT_FALSE(looks_like_profile(picked.spectra[0].mz));  // PeakPicker's 94 peaks

  // The raw points: read with a reader that does not centroid (mzML MS:1000127 says centroid).
  std::string raw_text = as_ms2(profile);
  raw_text.insert(raw_text.find("<cvParam", raw_text.find("<spectrum ")),
                  "<cvParam cvRef=\"MS\" accession=\"MS:1000127\" name=\"centroid spectrum\"/>");
  const Read raw = read(raw_text, "raw");
  ASSERT_EQ(raw.spectra.size(), 1u);
  ASSERT_EQ(raw.spectra[0].mz.size(), 120544u);
  EXPECT_TRUE(looks_like_profile(raw.spectra[0].mz));

  // No term: detected from the spacing, centroided and counted.
  const Read r = read(as_ms2(profile), "peakpicker_tutorial_1.mzML");
  ASSERT_EQ(r.spectra.size(), 1u);
  EXPECT_EQ(r.stats.problems.at(kProfileCentroided), 1u);
  EXPECT_EQ(r.stats.first_problem_at.at(kProfileCentroided), "spectrum spectrum=81");
  const std::vector<double>& mine = r.spectra[0].mz;
  EXPECT_TRUE(std::is_sorted(mine.begin(), mine.end()));
  EXPECT_EQ(mine.size(), 21559u);
  // Every PeakPicker peak has one of our centroids close by: within 30 ppm, median under 5 ppm
  // (measured: 28.1 and 4.4 ppm).
  std::vector<double> ppm;
  for (double mz : picked.spectra[0].mz) {
    const auto at = std::lower_bound(mine.begin(), mine.end(), mz);
    double nearest = INFINITY;
    if (at != mine.end()) nearest = *at - mz;
    if (at != mine.begin()) nearest = std::min(nearest, mz - *(at - 1));
    ppm.push_back(nearest / mz * 1e6);
  }
  std::sort(ppm.begin(), ppm.end());
  EXPECT_LT(ppm.back(), 30.0);
  EXPECT_LT(ppm[ppm.size() / 2], 5.0);
}

TEST(ProfileSpectrum, DeclaredProfileIsCentroidedAndLocalMaximaAreWeighted) {
  RawSpectrum s;
  // Two peaks sampled every 0.01 Th; the second one is skewed to the right.
  s.mz = {100.00, 100.01, 100.02, 100.03, 100.04, 200.00, 200.01, 200.02, 200.03};
  s.intensity = {1, 50, 100, 50, 1, 10, 100, 85, 0};
  centroid_profile(s);
  ASSERT_EQ(s.mz.size(), 2u);
  EXPECT_NEAR(s.mz[0], 100.02, 1e-9);                              // symmetric: the apex
  EXPECT_NEAR(s.mz[1], (200.01 * 100 + 200.02 * 85) / 185, 1e-9);  // points >= 80% of the apex
  EXPECT_EQ(s.intensity, (std::vector<float>{100, 100}));

  ReadStats stats;
  RawSpectrum t;
  t.mz = {100.00, 100.01, 100.02};
  t.intensity = {1, 5, 1};
  settle_peak_mode(t, PeakMode::kProfile, stats, "line 3");
  EXPECT_EQ(t.mz.size(), 1u);
  EXPECT_EQ(stats.problems.at(kProfileCentroided), 1u);
  RawSpectrum u = t;
  settle_peak_mode(u, PeakMode::kUnknown, stats, "line 9");  // 1 point: not profile
  EXPECT_EQ(stats.problems.at(kProfileCentroided), 1u);
}

}  // namespace
}  // namespace ionflow
