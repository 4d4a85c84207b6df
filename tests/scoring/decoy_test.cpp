// Decoys: reversed peptides keep their C-terminal residue; modification positions follow.
#include "scoring/decoy.hpp"

#include <gtest/gtest.h>

namespace ionflow {
namespace {

TEST(Decoy, ReversePeptideKeepsCTerminus) {
  EXPECT_EQ(reverse_peptide("PEPTIDEK"), "EDITPEPK");
  EXPECT_EQ(reverse_peptide("LVNELTEFAK"), "AFETLENVLK");
  EXPECT_EQ(reverse_peptide("K"), "K");
  EXPECT_EQ(reverse_peptide(""), "");
  EXPECT_EQ(reverse_peptide(reverse_peptide("HLVDEPQNLIK")), "HLVDEPQNLIK");
}

TEST(Decoy, ModificationPositionsMoveWithResidues) {
  // PEPMTIDEK: M at 3 -> EDITMPEPK: M at 4.
  const std::string target = "PEPMTIDEK";
  const std::string decoy = reverse_peptide(target);
  const int n = static_cast<int>(target.size());
  for (int i = 0; i < n; ++i) EXPECT_EQ(decoy[decoy_position(i, n)], target[i]) << i;
  EXPECT_EQ(decoy_position(3, n), 4);
  EXPECT_EQ(decoy_position(-1, n), -1);
  EXPECT_EQ(decoy_position(n, n), n);
}

TEST(Decoy, Proteins) {
  Protein t;
  t.accession = "P02769";
  t.description = "Serum albumin";
  t.sequence = "MKWVTF";
  auto d = decoy_protein(t, "rev_", false, true);
  EXPECT_EQ(d.accession, "rev_P02769");
  EXPECT_EQ(d.sequence, "FTVWKM");
  EXPECT_TRUE(d.is_decoy);
  d = decoy_protein(t, "_rev", true, false);
  EXPECT_EQ(d.accession, "P02769_rev");
  EXPECT_EQ(d.sequence, "MKWVTF");
}

}  // namespace
}  // namespace ionflow
