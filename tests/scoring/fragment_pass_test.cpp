// score_fragments (scoring/fragment_pass.hpp) against the three steps it fuses — fragment_ions,
// PeakTable::match and XcorrSpectrum::score — on pseudo-random peptides and spectra: the same
// counts, intensity, ppm and XCorr sums to the bit, at ±0.5 Da and ±0.02 Da, for fragment
// charges 1-3, b/y and all five ion types; and the general path for ppm tolerances.
#include "scoring/fragment_pass.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "scoring/mass.hpp"

#include "scoring_test_support.hpp"

namespace ionflow {
namespace {

uint64_t next(uint64_t& state) {
  return scoring_test::next_random(state);
}
double uniform(uint64_t& state) {
  return double(next(state)) / double(uint64_t{1} << 53);
}

TEST(FragmentPass, EqualsFragmentIonsMatchAndXcorrToTheBit) {
  uint64_t state = 4242;
  const char* residues = "ACDEFGHIKLMNPQRSTVWY";
  int fused = 0;
  for (int trial = 0; trial < 400; ++trial) {
    // A spectrum of prepared-looking peaks (sqrt intensities, base peak 100).
    std::vector<Peak> peaks(15 + next(state) % 120);
    for (Peak& p : peaks) {
      p.mz = static_cast<float>(100.0 + uniform(state) * 1900.0);
      p.intensity = static_cast<float>(100.0 * std::sqrt(0.001 + uniform(state)));
    }
    std::sort(peaks.begin(), peaks.end(), [](const Peak& a, const Peak& b) { return a.mz < b.mz; });
    peaks.back().intensity = 100.0f;
    // A peptide with modifications on some residues and termini.
    ModifiedResidues mod;
    const size_t length = 1 + next(state) % 30;
    for (size_t i = 0; i < length; ++i) {
      double m = mass::residue_mass(residues[next(state) % 20]);
      if (next(state) % 7 == 0) m += 15.994915;
      mod.residue_da.push_back(m);
    }
    // An Acetyl N-terminus, and the mass-matched null's shift (spectrum_scorer.cpp: -15 to +15
    // Da on the N-terminus for trypsin, on the C-terminus for Lys-N), negative ones included.
    mod.n_term_da = next(state) % 5 == 0 ? 42.010565 : 0.0;
    if (next(state) % 3 == 0) mod.n_term_da += uniform(state) * 30.0 - 15.0;
    mod.c_term_da = next(state) % 3 == 0 ? uniform(state) * 30.0 - 15.0 : 0.0;
    const double neutral = 500.0 + uniform(state) * 3000.0;
    const IonTypes types = IonTypes::parse(trial % 4 == 0 ? "abcyz" : "by");
    const int charge = 1 + trial % 3;
    for (const Tolerance& tol : {Tolerance::Da(-0.5, 0.5), Tolerance::Da(-0.02, 0.02)}) {
      PeakTable table;
      table.prepare(peaks, tol);
      XcorrSpectrum xcorr;
      xcorr.prepare(peaks, neutral, tol);
      std::vector<Fragment> fragments;
      fragment_ions(mod, types, charge, fragments);
      for (bool with_ppm : {false, true}) {
        FragmentScores scored;
        if (!score_fragments(mod, types, charge, table, xcorr, with_ppm, scored)) continue;
        ++fused;
        const FragmentMatches want = table.match(fragments, with_ppm);
        EXPECT_EQ(scored.fragments, static_cast<int>(fragments.size()));
        EXPECT_EQ(scored.matches.matched, want.matched);
        EXPECT_EQ(scored.matches.total_matched, want.total_matched);
        EXPECT_EQ(scored.matches.summed_intensity, want.summed_intensity);  // bit-equal
        EXPECT_EQ(scored.matches.summed_abs_ppm, want.summed_abs_ppm);
        EXPECT_EQ(scored.xcorr, xcorr.score(fragments));
        // ...and the scan of hyperscore.hpp, the definition of a match.
        EXPECT_EQ(scored.matches.summed_intensity,
                  match_fragments(peaks, fragments, tol).summed_intensity);
      }
    }
  }
  EXPECT_GT(fused, 1500);  // nearly every case takes the fused path
}

TEST(FragmentPass, PpmTolerancesTakeTheGeneralPath) {
  const std::vector<Peak> peaks = {{300.0f, 50.0f}, {400.0f, 100.0f}};
  PeakTable table;
  table.prepare(peaks, Tolerance::Ppm(-20, 20));
  XcorrSpectrum xcorr;
  xcorr.prepare(peaks, 1000.0, Tolerance::Ppm(-20, 20));
  ModifiedResidues mod;
  mod.residue_da = {57.02146, 71.03711, 87.03203};
  FragmentScores scored;
  EXPECT_FALSE(score_fragments(mod, IonTypes::parse("by"), 1, table, xcorr, false, scored));
}

TEST(FragmentPass, APeptideOfOneResidueHasNoFragments) {
  const std::vector<Peak> peaks = {{300.0f, 50.0f}};
  PeakTable table;
  table.prepare(peaks, Tolerance::Da(-0.5, 0.5));
  XcorrSpectrum xcorr;
  xcorr.prepare(peaks, 1000.0, Tolerance::Da(-0.5, 0.5));
  ModifiedResidues mod;
  mod.residue_da = {57.02146};
  FragmentScores scored;
  ASSERT_TRUE(score_fragments(mod, IonTypes::parse("by"), 2, table, xcorr, true, scored));
  EXPECT_EQ(scored.fragments, 0);
  EXPECT_EQ(scored.matches.total_matched, 0);
  EXPECT_EQ(scored.xcorr, 0.0);
}

}  // namespace
}  // namespace ionflow
