// Parsimony: indistinguishable proteins grouped, subset proteins removed (greedy set cover).
#include "scoring/protein_groups.hpp"

#include <gtest/gtest.h>

namespace ionflow {
namespace {

Psm make(uint64_t spectrum, double score, const std::string& peptide,
         std::vector<std::string> proteins, double peptide_q = 0.0) {
  Psm p;
  p.spectrum_index = spectrum;
  p.score = score;
  p.sequence = peptide;
  p.proforma = peptide;
  p.peptide_q = peptide_q;
  for (const std::string& a : proteins) {
    PeptideEvidence e;
    e.protein_accession = a;
    p.evidence.push_back(e);
  }
  return p;
}

TEST(ProteinGroups, SubsetsRemovedIdenticalGrouped) {
  // P1 {A,B,C} ⊃ P2 {A,B}; P4 {D,E} ⊃ P3 {D}; P5 and P6 both {F}; G fails the peptide q cut.
  std::vector<Psm> psms = {make(0, 9, "AAAK", {"P1", "P2"}), make(1, 8, "BBBK", {"P1", "P2"}),
                           make(2, 7, "CCCK", {"P1"}),       make(3, 6, "DDDK", {"P3", "P4"}),
                           make(4, 5, "EEEK", {"P4"}),       make(5, 4, "FFFK", {"P6", "P5"}),
                           make(6, 3, "GGGK", {"P7"}, 0.5)};
  std::vector<ProteinScore> scores = {{"P1", false, 9, 0.0, true}, {"P5", false, 4, 0.2, true}};
  std::vector<ProteinGroup> groups = build_protein_groups(psms, scores, 0.01);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].accessions, (std::vector<std::string>{"P1"}));
  EXPECT_EQ(groups[0].peptides, (std::vector<std::string>{"AAAK", "BBBK", "CCCK"}));
  EXPECT_EQ(groups[0].unique_peptides, 3);
  EXPECT_DOUBLE_EQ(groups[0].score, 9.0);
  EXPECT_DOUBLE_EQ(groups[0].q_value, 0.0);
  EXPECT_EQ(groups[1].accessions, (std::vector<std::string>{"P4"}));
  EXPECT_EQ(groups[1].unique_peptides, 2);
  EXPECT_DOUBLE_EQ(groups[1].q_value, 1.0);  // no protein score given
  EXPECT_EQ(groups[2].accessions, (std::vector<std::string>{"P5", "P6"}));
  EXPECT_DOUBLE_EQ(groups[2].q_value, 0.2);
}

TEST(ProteinGroups, SharedPeptideBetweenKeptGroups) {
  // P1 {A,B}, P2 {B,C}: both needed; B is shared, so each has one unique peptide.
  std::vector<Psm> psms = {make(0, 9, "AAAK", {"P1"}), make(1, 8, "BBBK", {"P1", "P2"}),
                           make(2, 7, "CCCK", {"P2"})};
  std::vector<ProteinGroup> groups = build_protein_groups(psms, {}, 0.01);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].unique_peptides, 1);
  EXPECT_EQ(groups[1].unique_peptides, 1);
}

}  // namespace
}  // namespace ionflow
