// mass.hpp: residue masses against element masses, and known peptide masses.
#include "scoring/mass.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ionflow {
namespace {

// Independent derivation: residue = elemental composition x element masses (AME 2003:
// H 1.00782503207, C 12, N 14.0030740048, O 15.9949146196, S 31.97207100).
double composition(int c, int h, int n, int o, int s) {
  return c * 12.0 + h * 1.00782503207 + n * 14.0030740048 + o * 15.9949146196 + s * 31.97207100;
}

TEST(Mass, ResiduesMatchElementalComposition) {
  struct Row {
    char residue;
    int c, h, n, o, s;
  };
  const Row rows[] = {
      {'A', 3, 5, 1, 1, 0}, {'R', 6, 12, 4, 1, 0},  {'N', 4, 6, 2, 2, 0},  {'D', 4, 5, 1, 3, 0},
      {'C', 3, 5, 1, 1, 1}, {'E', 5, 7, 1, 3, 0},   {'Q', 5, 8, 2, 2, 0},  {'G', 2, 3, 1, 1, 0},
      {'H', 6, 7, 3, 1, 0}, {'I', 6, 11, 1, 1, 0},  {'L', 6, 11, 1, 1, 0}, {'K', 6, 12, 2, 1, 0},
      {'M', 5, 9, 1, 1, 1}, {'F', 9, 9, 1, 1, 0},   {'P', 5, 7, 1, 1, 0},  {'S', 3, 5, 1, 2, 0},
      {'T', 4, 7, 1, 2, 0}, {'W', 11, 10, 2, 1, 0}, {'Y', 9, 9, 1, 2, 0},  {'V', 5, 9, 1, 1, 0}};
  for (const auto& r : rows) {
    EXPECT_NEAR(mass::residue_mass(r.residue), composition(r.c, r.h, r.n, r.o, r.s), 1e-6)
        << r.residue;
  }
}

TEST(Mass, UndefinedResiduesAreNegative) {
  for (char c : std::string("BZXJ*a1")) EXPECT_LT(mass::residue_mass(c), 0.0) << c;
  EXPECT_LT(mass::peptide_mass("PEPXK"), 0.0);
}

TEST(Mass, KnownPeptides) {
  // BSA tryptic peptides; [M+2H]2+ 582.3190, 464.2504, 653.3617 as commonly reported for BSA
  // digests, and the hand sums of residue masses + water below.
  EXPECT_NEAR(mass::peptide_mass("LVNELTEFAK"), 1162.62339, 1e-4);
  EXPECT_NEAR(mass::peptide_mass("YLYEIAR"), 926.48617, 1e-4);
  EXPECT_NEAR(mass::peptide_mass("HLVDEPQNLIK"), 1304.70885, 1e-4);
  EXPECT_NEAR(mass::mz_from_neutral(mass::peptide_mass("LVNELTEFAK"), 2), 582.31897, 1e-4);
  EXPECT_NEAR(mass::peptide_mass("PEPTIDEK"), 927.45493, 1e-4);
  // With carbamidomethyl C (+57.021464, Unimod 4) and oxidised M (+15.994915, Unimod 35):
  // MECK 509.19779 + 57.021464 + 15.994915.
  EXPECT_NEAR(mass::peptide_mass("MECK") + 57.021464 + 15.994915, 582.21417, 1e-4);
  EXPECT_NEAR(mass::peptide_mass(""), 18.0105647, 1e-7);  // water
}

TEST(Mass, MzConversions) {
  EXPECT_NEAR(mass::neutral_from_mz(mass::mz_from_neutral(1000.0, 3), 3), 1000.0, 1e-9);
  EXPECT_NEAR(mass::mz_from_neutral(1000.0, 1), 1001.007276, 1e-6);
  EXPECT_NEAR(mass::kC13C12Spacing, 1.0033548, 1e-7);
}

}  // namespace
}  // namespace ionflow
