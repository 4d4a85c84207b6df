// PeakTable must give exactly match_fragments' result: a hand-computed case, peaks on and near
// window edges, asymmetric and ppm tolerances, and many pseudo-random spectra compared field by
// field (bit-equal sums, since the accumulation order is the same).
#include "scoring/peak_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

namespace ionflow {
namespace {

void expect_same(const FragmentMatches& a, const FragmentMatches& b) {
  EXPECT_EQ(a.total_matched, b.total_matched);
  EXPECT_EQ(a.matched, b.matched);
  EXPECT_EQ(a.summed_intensity, b.summed_intensity);  // bit-equal
  EXPECT_EQ(a.summed_abs_ppm, b.summed_abs_ppm);
}

TEST(PeakTable, HandComputedMatch) {
  // The example of hyperscore_test.cpp: b 200.1 -> 80 (two peaks in ±0.5), b 300.2 -> 20,
  // y 399.8 -> 100, y 500.4 -> 5, y 650 -> nothing.
  std::vector<Peak> peaks = {{100.0f, 10.0f}, {200.0f, 50.0f},  {200.3f, 80.0f},
                             {300.0f, 20.0f}, {400.0f, 100.0f}, {500.0f, 5.0f}};
  std::vector<Fragment> fragments = {{200.1, IonType::kB, 1, 1},
                                     {300.2, IonType::kB, 2, 1},
                                     {399.8, IonType::kY, 1, 1},
                                     {500.4, IonType::kY, 2, 1},
                                     {650.0, IonType::kY, 3, 1}};
  PeakTable table;
  table.prepare(peaks, Tolerance::Da(-0.5, 0.5));
  const FragmentMatches m = table.match(fragments, true);
  EXPECT_EQ(m.total_matched, 4);
  EXPECT_EQ(m.matched[static_cast<int>(IonType::kB)], 2);
  EXPECT_EQ(m.matched[static_cast<int>(IonType::kY)], 2);
  EXPECT_DOUBLE_EQ(m.summed_intensity, 80.0 + 20.0 + 100.0 + 5.0);
  expect_same(m, match_fragments(peaks, fragments, Tolerance::Da(-0.5, 0.5)));
  // Without ppm: same counts, ppm sum left 0.
  const FragmentMatches no_ppm = table.match(fragments, false);
  EXPECT_EQ(no_ppm.total_matched, 4);
  EXPECT_EQ(no_ppm.summed_abs_ppm, 0.0);
}

TEST(PeakTable, WindowEdgesAndTies) {
  // Fragments exactly on and just around the ±0.5 Th edges of each peak, and two equal
  // intensities (the lower m/z wins).
  std::vector<Peak> peaks = {{300.0f, 7.0f}, {300.75f, 7.0f}, {301.0f, 3.0f}, {900.25f, 1.0f}};
  std::vector<Fragment> fragments;
  for (const Peak& p : peaks) {
    for (double d : {-0.5, 0.5, -0.5000001, 0.5000001, -0.4999999, 0.4999999, 0.0}) {
      fragments.push_back({p.mz + d, IonType::kY, 1, 1});
    }
  }
  std::sort(fragments.begin(), fragments.end(),
            [](const Fragment& a, const Fragment& b) { return a.mz < b.mz; });
  for (const Tolerance& tol :
       {Tolerance::Da(-0.5, 0.5), Tolerance::Da(-0.3, 0.7), Tolerance::Ppm(-20, 20)}) {
    PeakTable table;
    table.prepare(peaks, tol);
    expect_same(table.match(fragments, true), match_fragments(peaks, fragments, tol));
  }
  // 300.25 sees 300.0 and 300.75 (both 7): the lower m/z, so 300.25 − 300.0 = 0.25 Th.
  PeakTable table;
  table.prepare(peaks, Tolerance::Da(-0.5, 0.5));
  const FragmentMatches m = table.match({{300.25, IonType::kB, 1, 1}}, true);
  EXPECT_EQ(m.total_matched, 1);
  EXPECT_NEAR(m.summed_abs_ppm, 0.25 / 300.25 * 1e6, 1e-6);
}

TEST(PeakTable, RandomSpectraEqualMatchFragments) {
  uint64_t state = 12345;
  auto next = [&state]() {  // xorshift64*
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (state * 2685821657736338717ULL) >> 11;
  };
  auto uniform = [&next]() { return double(next()) / double(1ULL << 53); };
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Peak> peaks(1 + next() % 80);
    for (Peak& p : peaks) {
      p.mz = static_cast<float>(100.0 + uniform() * 1900.0);
      p.intensity = static_cast<float>(1 + next() % 20);  // many ties
    }
    std::sort(peaks.begin(), peaks.end(), [](const Peak& a, const Peak& b) { return a.mz < b.mz; });
    // Four ascending runs (as ion_series.hpp makes them): some fragments on peak edges.
    std::vector<Fragment> fragments;
    for (int run = 0; run < 4; ++run) {
      std::vector<double> mz(5 + next() % 40);
      for (double& x : mz) {
        if (next() % 4 == 0) {
          x = peaks[next() % peaks.size()].mz + (next() % 2 ? 0.5 : -0.5);
        } else {
          x = 50.0 + uniform() * 2100.0;
        }
      }
      std::sort(mz.begin(), mz.end());
      for (double x : mz) fragments.push_back({x, run % 2 ? IonType::kY : IonType::kB, 1, 1});
    }
    for (const Tolerance& tol : {Tolerance::Da(-0.5, 0.5), Tolerance::Da(-0.02, 0.02)}) {
      PeakTable table;
      table.prepare(peaks, tol);
      expect_same(table.match(fragments, true), match_fragments(peaks, fragments, tol));
    }
  }
}

TEST(PeakTable, EmptyPeaksMatchNothing) {
  std::vector<Peak> peaks;
  PeakTable table;
  table.prepare(peaks, Tolerance::Da(-0.5, 0.5));
  EXPECT_EQ(table.match({{500.0, IonType::kY, 1, 1}}, true).total_matched, 0);
  PeakTable unprepared;
  EXPECT_EQ(unprepared.match({{500.0, IonType::kY, 1, 1}}, true).total_matched, 0);
}

}  // namespace
}  // namespace ionflow
