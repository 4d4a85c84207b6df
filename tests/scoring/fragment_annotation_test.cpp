// Fragment annotation names the peak each fragment matched, by the scorer's rule: as many
// matches as match_fragments() counts (results.tsv's matched_peaks), with their errors.
#include "scoring/fragment_annotation.hpp"

#include <gtest/gtest.h>

#include "scoring/hyperscore.hpp"

namespace ionflow {
namespace {

TEST(FragmentAnnotation, SamePeaksAsTheScorer) {
  // hyperscore_test's hand-computed example: 4 of 5 fragments match.
  std::vector<Peak> peaks = {{100.0f, 10.0f}, {200.0f, 50.0f},  {200.3f, 80.0f},
                             {300.0f, 20.0f}, {400.0f, 100.0f}, {500.0f, 5.0f}};
  std::vector<Fragment> fragments = {{200.1, IonType::kB, 1, 1},
                                     {300.2, IonType::kB, 2, 1},
                                     {399.8, IonType::kY, 1, 1},
                                     {500.4, IonType::kY, 2, 1},
                                     {650.0, IonType::kY, 3, 1}};
  const Tolerance tol = Tolerance::Da(-0.5, 0.5);
  const auto matches = annotate_fragments(peaks, fragments, tol);
  ASSERT_EQ(matches.size(), 4u);
  EXPECT_EQ(static_cast<int>(matches.size()), match_fragments(peaks, fragments, tol).total_matched);
  EXPECT_EQ(matches[0].peak, 2u);  // 200.3 (intensity 80) beats 200.0 (50)
  EXPECT_NEAR(matches[0].error_da, 0.2, 1e-4);
  EXPECT_NEAR(matches[0].error_ppm, 0.2 / 200.1 * 1e6, 0.5);
  EXPECT_EQ(matches[1].peak, 3u);
  EXPECT_NEAR(matches[1].error_da, -0.2, 1e-4);
  EXPECT_EQ(matches[2].fragment.type, IonType::kY);
  EXPECT_EQ(matches[2].fragment.ordinal, 1);
  EXPECT_EQ(matches[3].peak, 5u);
  EXPECT_STREQ(ion_type_letter(matches[3].fragment.type), "y");
}

// On a real peptide's ion series (two runs, b then y, each ascending) the counts agree too.
TEST(FragmentAnnotation, CountEqualsMatchFragmentsOnIonSeries) {
  Peptide p;
  p.sequence = "LVNELTEFAK";
  ModifiedResidues residues;
  modified_residue_masses(p, {}, residues);
  std::vector<Fragment> fragments;
  fragment_ions(residues, IonTypes::parse("by"), 2, fragments);
  std::vector<Peak> peaks;
  for (size_t i = 0; i < fragments.size(); i += 3) {
    peaks.push_back({static_cast<float>(fragments[i].mz + 0.01 * (i % 5)), float(10 + i)});
  }
  std::sort(peaks.begin(), peaks.end(), [](const Peak& a, const Peak& b) { return a.mz < b.mz; });
  // ±0.5 Da reaches every shifted peak; ±20 ppm only the unshifted ones (every 15th fragment).
  for (const auto& [tol, at_least] : {std::pair{Tolerance::Da(-0.5, 0.5), size_t{12}},
                                      std::pair{Tolerance::Ppm(-20, 20), size_t{3}}}) {
    const auto matches = annotate_fragments(peaks, fragments, tol);
    EXPECT_EQ(static_cast<int>(matches.size()),
              match_fragments(peaks, fragments, tol).total_matched);
    EXPECT_GE(matches.size(), at_least);
  }
}

}  // namespace
}  // namespace ionflow
