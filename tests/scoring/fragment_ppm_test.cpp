// Fragment tolerance in ppm (Sage's `fragment_tol: {"ppm": [-20, 20]}`) end to end: the same
// window in the fragment index (FragmentSearcher), its brute-force reference, the hyperscore's
// matching and the whole SpectrumScorer, on PEPTIDE and LVNELTEFAK whose fragments are shifted
// by a known number of ppm. Up to m/z 1100 a 0.05 Da window is at least 45 ppm, so a peak 30 ppm
// off matches at ±0.05 Da and not at ±20 ppm: only a ppm window honoured everywhere passes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "scoring/fragment_index.hpp"
#include "scoring/hyperscore.hpp"
#include "scoring/ion_series.hpp"
#include "scoring/mass.hpp"
#include "scoring/search.hpp"

namespace ionflow {
namespace {

std::vector<Fragment> fragments_of(const std::string& sequence) {
  Peptide p;
  p.sequence = sequence;
  ModifiedResidues residues;
  modified_residue_masses(p, {}, residues);
  std::vector<Fragment> fragments;
  fragment_ions(residues, IonTypes::parse("by"), 1, fragments);
  return fragments;
}

// A 2+ query of `sequence` whose peaks are its b/y 1+ fragments moved by `ppm` (intensity 50),
// plus 20 noise peaks away from them.
Query shifted_query(const std::string& sequence, double ppm) {
  Query q;
  q.charge = 2;
  q.neutral_mass = mass::peptide_mass(sequence);
  q.precursor_mz = mass::mz_from_neutral(q.neutral_mass, 2);
  for (const Fragment& f : fragments_of(sequence)) {
    q.peaks.push_back({static_cast<float>(f.mz * (1.0 + ppm * 1e-6)), 50.0f});
  }
  for (int i = 0; i < 20; ++i) q.peaks.push_back({static_cast<float>(155.55 + 41.3 * i), 5.0f});
  std::sort(q.peaks.begin(), q.peaks.end(),
            [](const Peak& a, const Peak& b) { return a.mz < b.mz; });
  return q;
}

TEST(FragmentPpm, KnownFragmentMass) {
  // PEPTIDE y3 (IDE + H2O + H+) = 376.171 Th; 20 ppm of it is 0.00752 Th.
  const std::vector<Fragment> f = fragments_of("PEPTIDE");
  auto y3 = std::find_if(f.begin(), f.end(),
                         [](const Fragment& x) { return x.type == IonType::kY && x.ordinal == 3; });
  ASSERT_NE(y3, f.end());
  EXPECT_NEAR(y3->mz, 376.171441, 1e-6);
  const Tolerance tol = Tolerance::Ppm(-20, 20);
  const auto [lo, hi] = tol.bounds(y3->mz);
  EXPECT_NEAR(hi - y3->mz, 0.00752343, 1e-7);
  EXPECT_NEAR(y3->mz - lo, 0.00752343, 1e-7);
  const std::vector<Peak> at_19 = {{static_cast<float>(y3->mz * (1 + 19e-6)), 10.0f}};
  const std::vector<Peak> at_21 = {{static_cast<float>(y3->mz * (1 - 21e-6)), 10.0f}};
  const std::vector<Fragment> only = {*y3};
  EXPECT_EQ(match_fragments(at_19, only, tol).total_matched, 1);
  EXPECT_NEAR(match_fragments(at_19, only, tol).summed_abs_ppm, 19.0, 0.2);  // float m/z
  EXPECT_EQ(match_fragments(at_21, only, tol).total_matched, 0);
  EXPECT_EQ(match_fragments(at_21, only, Tolerance::Da(-0.05, 0.05)).total_matched, 1);
}

PeptideIndex one_peptide_index(const std::string& sequence) {
  PeptideIndex index;
  Peptide p;
  p.neutral_mass_da = mass::peptide_mass(sequence);
  p.sequence = sequence;
  index.append(p);
  return index;
}

// The fragment index and the brute-force path both count the peaks 12 ppm off at ±20 ppm and
// none of those 30 ppm off; at ±0.05 Da they count both.
TEST(FragmentPpm, FragmentIndexHonoursPpm) {
  const PeptideIndex peptides = one_peptide_index("PEPTIDE");
  SearchParameters params;
  params.precursor_tolerance = Tolerance::Ppm(-10, 10);
  struct Case {
    Tolerance tol;
    double shift_ppm;
    int matched;
  };
  // PEPTIDE: b2..b6 and y2..y6 are indexed (b1, y1 below the index's 150 Th).
  for (const Case& c :
       {Case{Tolerance::Ppm(-20, 20), 12.0, 10}, Case{Tolerance::Ppm(-20, 20), -12.0, 10},
        Case{Tolerance::Ppm(-20, 20), 30.0, 0}, Case{Tolerance::Da(-0.05, 0.05), 30.0, 10}}) {
    SCOPED_TRACE(c.shift_ppm);
    params.fragment_tolerance = c.tol;
    const FragmentIndex index = FragmentIndex::build(peptides, params, {});
    const Query q = shifted_query("PEPTIDE", c.shift_ppm);
    FragmentSearcher searcher(peptides, params, 5);
    FragmentCandidates out;
    searcher.search(index, q, out);
    const FragmentCandidates brute = brute_force_candidates(peptides, params, {}, q, 5);
    if (c.matched == 0) {
      EXPECT_TRUE(out.top.empty());
      EXPECT_TRUE(brute.top.empty());
      continue;
    }
    ASSERT_EQ(out.top.size(), 1u);
    ASSERT_EQ(brute.top.size(), 1u);
    EXPECT_EQ(out.top[0].matched_peaks, c.matched);
    EXPECT_EQ(brute.top[0].matched_peaks, c.matched);
    EXPECT_FLOAT_EQ(out.top[0].summed_intensity, 50.0f * c.matched);
  }
}

// The whole scorer (narrow window: the peptide index path; ±200 Da: the fragment index's first
// pass) at ±20 ppm: a spectrum 12 ppm off matches all 18 b/y ions with a fragment error of 12
// ppm; one 30 ppm off matches none of them, though ±0.05 Da matches all 18.
TEST(FragmentPpm, SpectrumScorerHonoursPpm) {
  auto index = std::make_shared<PeptideIndex>(one_peptide_index("LVNELTEFAK"));
  for (Tolerance precursor : {Tolerance::Ppm(-10, 10), Tolerance::Da(-200, 200)}) {
    SCOPED_TRACE(precursor.upper);
    SearchParameters params;
    params.precursor_tolerance = precursor;
    params.fragment_tolerance = Tolerance::Ppm(-20, 20);
    SpectrumScorer scorer(index, params);
    std::vector<Psm> near = scorer.score(shifted_query("LVNELTEFAK", 12.0));
    ASSERT_EQ(near.size(), 1u);
    EXPECT_EQ(near[0].theoretical_peaks, 18);  // b1..b9, y1..y9 at 1+
    EXPECT_EQ(near[0].matched_peaks, 18);
    EXPECT_NEAR(near[0].fragment_ppm, 12.0, 0.5);
    std::vector<Psm> far = scorer.score(shifted_query("LVNELTEFAK", 30.0));
    EXPECT_TRUE(far.empty() || far[0].matched_peaks == 0);
    params.fragment_tolerance = Tolerance::Da(-0.05, 0.05);
    SpectrumScorer da_scorer(index, params);
    std::vector<Psm> da = da_scorer.score(shifted_query("LVNELTEFAK", 30.0));
    ASSERT_EQ(da.size(), 1u);
    EXPECT_EQ(da[0].matched_peaks, 18);
  }
}

}  // namespace
}  // namespace ionflow
