// Theoretical fragment m/z of PEPTIDE against hand-computed values (residue masses of
// scoring/mass.hpp; b = Σ + proton, y = Σ + H2O + proton; a = b − CO, c = b + NH3,
// z· = y − NH3 + H). The well-known values b2 227.1026, y1 148.0604 and y6 703.3145 agree.
#include "scoring/ion_series.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "scoring/peptide.hpp"

namespace ionflow {
namespace {

std::vector<Fragment> of_type(const std::vector<Fragment>& all, IonType t, int charge) {
  std::vector<Fragment> out;
  for (const Fragment& f : all) {
    if (f.type == t && f.charge == charge) out.push_back(f);
  }
  return out;
}

TEST(IonSeries, PeptideBAndYIons) {
  Peptide p;
  p.sequence = "PEPTIDE";
  ModifiedResidues residues;
  modified_residue_masses(p, {}, residues);
  std::vector<Fragment> fragments;
  fragment_ions(residues, IonTypes::parse("by"), 1, fragments);
  ASSERT_EQ(fragments.size(), 12u);
  const double b[] = {98.060040, 227.102633, 324.155397, 425.203076, 538.287140, 653.314083};
  const double y[] = {148.060434, 263.087377, 376.171441, 477.219120, 574.271884, 703.314477};
  auto bs = of_type(fragments, IonType::kB, 1);
  auto ys = of_type(fragments, IonType::kY, 1);
  ASSERT_EQ(bs.size(), 6u);
  ASSERT_EQ(ys.size(), 6u);
  for (int i = 0; i < 6; ++i) {
    EXPECT_NEAR(bs[i].mz, b[i], 1e-4) << "b" << i + 1;
    EXPECT_EQ(bs[i].ordinal, i + 1);
    EXPECT_NEAR(ys[i].mz, y[i], 1e-4) << "y" << i + 1;
  }
}

TEST(IonSeries, OtherIonTypesAndCharges) {
  Peptide p;
  p.sequence = "PEPTIDE";
  ModifiedResidues residues;
  modified_residue_masses(p, {}, residues);
  std::vector<Fragment> fragments;
  fragment_ions(residues, IonTypes::parse("abcyz"), 2, fragments);
  EXPECT_EQ(fragments.size(), 5u * 2u * 6u);
  EXPECT_NEAR(of_type(fragments, IonType::kA, 1)[1].mz, 199.107719, 1e-4);  // a2
  EXPECT_NEAR(of_type(fragments, IonType::kC, 1)[1].mz, 244.129183, 1e-4);  // c2
  EXPECT_NEAR(of_type(fragments, IonType::kZ, 1)[0].mz, 132.041710, 1e-4);  // z·1
  EXPECT_NEAR(of_type(fragments, IonType::kY, 2)[5].mz, 352.160877, 1e-4);  // y6 2+
}

TEST(IonSeries, ModificationsShiftTheRightFragments) {
  // PEPTIDE with +15.994915 on T (position 3) and +42.010565 on the N-terminus.
  std::vector<Modification> mods = {
      {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "T", false},
      {"Acetyl", 1, 42.010565, ModificationPosition::kPeptideNTerm, "", false}};
  Peptide p;
  p.sequence = "PEPTIDE";
  const std::vector<PlacedModification> placed = {{-1, 1}, {3, 0}};
  p.modifications = placed;
  ModifiedResidues residues;
  modified_residue_masses(p, mods, residues);
  std::vector<Fragment> fragments;
  fragment_ions(residues, IonTypes::parse("by"), 1, fragments);
  auto bs = of_type(fragments, IonType::kB, 1);
  auto ys = of_type(fragments, IonType::kY, 1);
  EXPECT_NEAR(bs[0].mz, 98.060040 + 42.010565, 1e-4);
  EXPECT_NEAR(bs[3].mz, 425.203076 + 42.010565 + 15.994915, 1e-4);
  EXPECT_NEAR(ys[2].mz, 376.171441, 1e-4);              // y3 = IDE, unmodified
  EXPECT_NEAR(ys[3].mz, 477.219120 + 15.994915, 1e-4);  // y4 = TIDE
}

TEST(IonSeries, ParseIonTypes) {
  EXPECT_TRUE(IonTypes::parse("BY").has(IonType::kB));
  EXPECT_FALSE(IonTypes::parse("by").has(IonType::kZ));
  EXPECT_THROW(IonTypes::parse("bx"), std::invalid_argument);
  EXPECT_THROW(IonTypes::parse(""), std::invalid_argument);
  EXPECT_EQ(fragment_charge_limit(2, 0), 1);
  EXPECT_EQ(fragment_charge_limit(3, 0), 2);
  EXPECT_EQ(fragment_charge_limit(4, 3), 3);
}

}  // namespace
}  // namespace ionflow
