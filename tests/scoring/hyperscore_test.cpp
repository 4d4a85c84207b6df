// Hyperscore on a hand-computed example: log10(Σ I · Nb! · Ny!).
#include "scoring/hyperscore.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace ionflow {
namespace {

TEST(Hyperscore, Log10Factorial) {
  EXPECT_DOUBLE_EQ(log10_factorial(0), 0.0);
  EXPECT_DOUBLE_EQ(log10_factorial(1), 0.0);
  EXPECT_NEAR(log10_factorial(5), std::log10(120.0), 1e-12);
  EXPECT_NEAR(log10_factorial(10), std::log10(3628800.0), 1e-12);
  // Stirling branch (n >= 256) continues the table smoothly: log10(300!) = 614.4858...
  EXPECT_NEAR(log10_factorial(300), 614.48580, 1e-4);
}

TEST(Hyperscore, HandComputedMatch) {
  // Peaks (ascending m/z), intensities already prepared.
  std::vector<Peak> peaks = {{100.0f, 10.0f}, {200.0f, 50.0f},  {200.3f, 80.0f},
                             {300.0f, 20.0f}, {400.0f, 100.0f}, {500.0f, 5.0f}};
  // b ions at 200.1 (two peaks in ±0.5: the most intense, 80, matches) and 300.2 (20);
  // y ions at 399.8 (100), 500.4 (5) and 650 (nothing).
  std::vector<Fragment> fragments = {{200.1, IonType::kB, 1, 1},
                                     {300.2, IonType::kB, 2, 1},
                                     {399.8, IonType::kY, 1, 1},
                                     {500.4, IonType::kY, 2, 1},
                                     {650.0, IonType::kY, 3, 1}};
  FragmentMatches m = match_fragments(peaks, fragments, Tolerance::Da(-0.5, 0.5));
  EXPECT_EQ(m.total_matched, 4);
  EXPECT_EQ(m.matched[static_cast<int>(IonType::kB)], 2);
  EXPECT_EQ(m.matched[static_cast<int>(IonType::kY)], 2);
  EXPECT_DOUBLE_EQ(m.summed_intensity, 80.0 + 20.0 + 100.0 + 5.0);
  // log10(205 · 2! · 2!) = log10(820) = 2.913813...
  EXPECT_NEAR(hyperscore(m), 2.9138139, 1e-6);
  // ppm errors: |200.3−200.1|/200.1, |300−300.2|/300.2, |400−399.8|/399.8, |500−500.4|/500.4.
  const double ppm = (0.2 / 200.1 + 0.2 / 300.2 + 0.2 / 399.8 + 0.4 / 500.4) * 1e6;
  EXPECT_NEAR(m.summed_abs_ppm, ppm, 1.0);  // float peak m/z
}

TEST(Hyperscore, PpmToleranceAndNoMatch) {
  std::vector<Peak> peaks = {{500.0f, 10.0f}};
  std::vector<Fragment> near = {{500.004, IonType::kY, 1, 1}};  // 8 ppm
  std::vector<Fragment> far = {{500.02, IonType::kY, 1, 1}};    // 40 ppm
  EXPECT_EQ(match_fragments(peaks, near, Tolerance::Ppm(-10, 10)).total_matched, 1);
  FragmentMatches none = match_fragments(peaks, far, Tolerance::Ppm(-10, 10));
  EXPECT_EQ(none.total_matched, 0);
  EXPECT_EQ(hyperscore(none), 0.0);
}

// Low-resolution windows keep X!Tandem's 50 peaks; a window at most 0.2 Da wide (at 1000 Th for
// ppm) keeps 100.
TEST(Hyperscore, PeakCountFollowsTheFragmentWindow) {
  EXPECT_EQ(hyperscore_peak_count(Tolerance::Da(-0.5, 0.5)), 50u);
  EXPECT_EQ(hyperscore_peak_count(Tolerance::Da(-0.3, 0.3)), 50u);
  EXPECT_EQ(hyperscore_peak_count(Tolerance::Da(-0.1, 0.1)), 100u);
  EXPECT_EQ(hyperscore_peak_count(Tolerance::Da(-0.02, 0.02)), 100u);
  EXPECT_EQ(hyperscore_peak_count(Tolerance::Ppm(-20, 20)), 100u);   // 0.04 Da at 1000 Th
  EXPECT_EQ(hyperscore_peak_count(Tolerance::Ppm(-150, 150)), 50u);  // 0.3 Da at 1000 Th
}

// The `count` most intense peaks, ascending m/z; ties at the cut go to the lower m/z.
TEST(Hyperscore, SelectKeepsTheMostIntensePeaksInMzOrder) {
  const std::vector<Peak> peaks = {{100.0f, 5.0f}, {200.0f, 9.0f}, {300.0f, 1.0f},
                                   {400.0f, 7.0f}, {500.0f, 7.0f}, {600.0f, 2.0f}};
  std::vector<Peak> out;
  select_hyperscore_peaks(peaks, 3, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].mz, 200.0f);
  EXPECT_EQ(out[1].mz, 400.0f);
  EXPECT_EQ(out[2].mz, 500.0f);
  select_hyperscore_peaks(peaks, 2, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].mz, 200.0f);
  EXPECT_EQ(out[1].mz, 400.0f);  // 400 and 500 tie at 7: the lower m/z stays
  select_hyperscore_peaks(peaks, 10, out);
  EXPECT_EQ(out.size(), 6u);
}

}  // namespace
}  // namespace ionflow
