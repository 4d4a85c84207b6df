// Fast XCorr preprocessing and scoring on hand-computed spectra (Comet's low-resolution bins:
// width 1.0005079, offset 0.4, so bin(m) = floor(m / 1.0005079 + 0.6); bin(500) = 500).
#include "scoring/xcorr.hpp"

#include <gtest/gtest.h>

namespace ionflow {
namespace {

std::vector<Fragment> at(std::initializer_list<double> mzs) {
  std::vector<Fragment> out;
  for (double mz : mzs) out.push_back({mz, IonType::kB, 1, 1});
  return out;
}

TEST(Xcorr, SinglePeak) {
  XcorrSpectrum x;
  x.prepare({{500.0f, 100.0f}}, 1000.0, Tolerance::Da(-0.5, 0.5));
  EXPECT_NEAR(x.bin_width(), 1.0005079, 1e-9);
  // The peak's window is scaled to 50; y'(500) = 50 − (0)/150 = 50 -> 0.005·50 = 0.25.
  EXPECT_NEAR(x.score(at({500.0})), 0.25, 1e-6);
  // A bin within ±75 of it: y' = 0 − 50/150 -> 0.005·(−1/3).
  EXPECT_NEAR(x.score(at({520.0})), -0.005 / 3, 1e-6);
  // Far away, or beyond the array (neutral mass + 50): 0.
  EXPECT_NEAR(x.score(at({700.0, 5000.0})), 0.0, 1e-9);
  // Low-resolution bins: two fragments in one bin count twice (see HighResolutionBinCountsOnce).
  EXPECT_NEAR(x.score(at({500.0, 500.1})), 0.5, 1e-6);
}

TEST(Xcorr, WindowNormalisationAndFivePercentFloor) {
  XcorrSpectrum x;
  // Bin 100 and bin 500 are in different tenths of [0, 500]: each is scaled to 50.
  x.prepare({{100.0f, 10.0f}, {500.0f, 100.0f}}, 1000.0, Tolerance::Da(-0.5, 0.5));
  EXPECT_NEAR(x.score(at({100.0, 500.0})), 0.5, 1e-6);
  // Below 5% of the base peak a peak is dropped.
  XcorrSpectrum y;
  y.prepare({{100.0f, 4.0f}, {500.0f, 100.0f}}, 1000.0, Tolerance::Da(-0.5, 0.5));
  EXPECT_NEAR(y.score(at({100.0})), 0.0, 1e-9);
}

TEST(Xcorr, HighResolutionBins) {
  XcorrSpectrum x;
  x.prepare({{500.0f, 100.0f}}, 1000.0, Tolerance::Ppm(-10, 10));
  EXPECT_NEAR(x.bin_width(), 0.02, 1e-12);  // 20 ppm at 1000 Th
  EXPECT_NEAR(x.score(at({500.005})), 0.25, 1e-6);
  EXPECT_LT(x.score(at({500.05})), 0.0);  // a neighbouring bin
}

// High-resolution bins hold one peak: two fragments of one candidate in a bin (b5 and y5 of
// RDASLSVDPGR are both 543.2885) count once, and again once for the next candidate, however
// scored.
TEST(Xcorr, HighResolutionBinCountsOnce) {
  XcorrSpectrum x;
  x.prepare({{543.2886f, 100.0f}}, 1171.6, Tolerance::Da(-0.02, 0.02));
  EXPECT_NEAR(x.score(at({543.2885, 543.2885, 543.29})), 0.25, 1e-6);
  EXPECT_NEAR(x.score(at({543.2885})), 0.25, 1e-6);
  const XcorrSpectrum::Bins bins = x.bins();
  EXPECT_NEAR(bins.first_value_at(543.2885), 50.0f, 1e-4);
  EXPECT_EQ(bins.first_value_at(543.2885), 0.0f);
  EXPECT_NEAR(x.bins().first_value_at(543.2885), 50.0f, 1e-4);  // a new candidate
}

// The stamps that mark a candidate's bins are numbered 1-255 and cleared when the numbering
// wraps, every stamp written since the last wrap, a larger query's too: whatever number of
// candidates came between, a bin an earlier candidate reached still counts for this one
// (fails at a gap of 254 without the clear, or with a clear of the current query's bins only).
TEST(Xcorr, BinsOfEarlierCandidatesNeverCountAsThisOnes) {
  const std::vector<Peak> peaks = {{500.0f, 100.0f}, {900.0f, 100.0f}, {8000.0f, 100.0f}};
  const Tolerance window = Tolerance::Da(-0.02, 0.02);
  XcorrSpectrum fresh;  // the references: no candidate scored before
  fresh.prepare(peaks, 9000.0, window);
  const double large_want = fresh.score(at({500.0, 8000.0}));
  fresh.prepare(peaks, 1000.0, window);
  const double small_want = fresh.score(at({500.0, 8000.0}));
  EXPECT_NEAR(large_want, 0.5, 1e-6);  // the 8000 peak lies only within the larger array
  EXPECT_NEAR(small_want, 0.25, 1e-6);
  XcorrSpectrum x;
  for (int gap = 0; gap <= 300; ++gap) {
    x.prepare(peaks, 9000.0, window);
    ASSERT_EQ(x.score(at({500.0, 8000.0})), large_want) << gap;
    x.prepare(peaks, 1000.0, window);
    for (int c = 0; c < gap; ++c) x.score(at({900.0}));
    ASSERT_EQ(x.score(at({500.0, 8000.0})), small_want) << gap;
    x.prepare(peaks, 9000.0, window);
    ASSERT_EQ(x.score(at({500.0, 8000.0})), large_want) << gap;
  }
}

// A window far narrower than any instrument's (±0.001 ppm: 2e-6 Da at 1000 Th) keeps 0.01 Da
// bins, and the array ends at 20,000 Da + 50 whatever the precursor: a bin per window width
// made ~1e9 bins (gigabytes) for one spectrum.
TEST(Xcorr, BinsNoNarrowerThanComets) {
  XcorrSpectrum x;
  x.prepare({{500.0f, 100.0f}}, 1000.0, Tolerance::Ppm(-0.001, 0.001));
  EXPECT_NEAR(x.bin_width(), 0.01, 1e-12);
  EXPECT_NEAR(x.score(at({500.001})), 0.25, 1e-6);
  EXPECT_NEAR(x.bins().n, 105002, 1);  // (1000 + 50) / 0.01 + 2
  XcorrSpectrum heavy;
  heavy.prepare({{500.0f, 100.0f}}, 1e6, Tolerance::Da(-1e-6, 1e-6));
  EXPECT_NEAR(heavy.bins().n, 2005002, 1);  // (20000 + 50) / 0.01 + 2
}

}  // namespace
}  // namespace ionflow
