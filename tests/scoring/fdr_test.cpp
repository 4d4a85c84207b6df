// Target-decoy q-values (D/T, Elias & Gygi 2007) and picked protein FDR (Savitski et al. 2015)
// on hand-made lists whose q-values were computed by hand.
#include "scoring/fdr.hpp"

#include <gtest/gtest.h>

namespace ionflow {
namespace {

TEST(Fdr, HandComputedQValues) {
  // Scores 10..1, labels T T T D T T D T D D.
  // FDR D/T going down: 0 0 0 1/3 1/4 1/5 2/5 2/6 3/6 4/6; q = running minimum from the bottom.
  std::vector<double> scores = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  std::vector<bool> decoy = {false, false, false, true, false, false, true, false, true, true};
  std::vector<double> q = target_decoy_q_values(scores, decoy);
  const double expected[] = {0, 0, 0, 0.2, 0.2, 0.2, 1.0 / 3, 1.0 / 3, 0.5, 2.0 / 3};
  ASSERT_EQ(q.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_NEAR(q[i], expected[i], 1e-12) << i;
}

TEST(Fdr, InputOrderAndTies) {
  // Same list shuffled: q follows the items.
  std::vector<double> scores = {1, 10, 7, 3};
  std::vector<bool> decoy = {true, false, true, false};
  // Sorted: 10 T (0/1), 7 D (1/1), 3 T (1/2), 1 D (2/2) -> q: 0, .5, .5, 1.
  std::vector<double> q = target_decoy_q_values(scores, decoy);
  EXPECT_DOUBLE_EQ(q[0], 1.0);
  EXPECT_DOUBLE_EQ(q[1], 0.0);
  EXPECT_DOUBLE_EQ(q[2], 0.5);
  EXPECT_DOUBLE_EQ(q[3], 0.5);
  // A target tied with a decoy shares its threshold: 1 decoy / 1 target = 1.
  std::vector<double> q2 = target_decoy_q_values({5, 5}, {false, true});
  EXPECT_DOUBLE_EQ(q2[0], 1.0);
  EXPECT_DOUBLE_EQ(q2[1], 1.0);
}

TEST(Fdr, StripDecoyTag) {
  EXPECT_EQ(strip_decoy_tag("rev_P1", "rev_", false), "P1");
  EXPECT_EQ(strip_decoy_tag("P1_rev", "_rev", true), "P1");
  EXPECT_EQ(strip_decoy_tag("P1", "rev_", false), "P1");
}

Psm make(uint64_t spectrum, double score, bool decoy, const std::string& peptide,
         const std::string& protein) {
  Psm p;
  p.spectrum_index = spectrum;
  p.score = score;
  p.decoy = decoy;
  p.sequence = peptide;
  p.proforma = peptide;
  PeptideEvidence e;
  e.protein_accession = protein;
  e.decoy = decoy;
  p.evidence.push_back(e);
  return p;
}

TEST(Fdr, PickedProteinFdr) {
  std::vector<Psm> psms = {
      make(0, 10, false, "AAAK", "P1"),   make(1, 8, false, "CCCK", "P1"),
      make(2, 9, true, "DDDK", "rev_P2"), make(3, 5, false, "EEEK", "P2"),
      make(4, 7, false, "FFFK", "P3"),    make(5, 3, true, "GGGK", "rev_P3"),
      make(6, 6, true, "HHHK", "rev_P4"),
  };
  // Pairs: P1 alone (10); P2 5 vs rev_P2 9 -> decoy picked; P3 7 vs rev_P3 3 -> P3 picked;
  // rev_P4 alone (6). Picked list: P1 T (0/1), rev_P2 D (1/1), P3 T (1/2), rev_P4 D (2/2)
  // -> q: P1 0, rev_P2 0.5, P3 0.5, rev_P4 1; the losers P2 and rev_P3 get 1.
  std::vector<ProteinScore> proteins = assign_protein_q_values(psms, "rev_", false);
  ASSERT_EQ(proteins.size(), 6u);
  auto find = [&](const std::string& a) {
    for (const auto& p : proteins) {
      if (p.accession == a) return p;
    }
    return ProteinScore{};
  };
  EXPECT_DOUBLE_EQ(find("P1").q_value, 0.0);
  EXPECT_DOUBLE_EQ(find("P1").score, 10.0);
  EXPECT_TRUE(find("rev_P2").picked);
  EXPECT_FALSE(find("P2").picked);
  EXPECT_DOUBLE_EQ(find("P2").q_value, 1.0);
  EXPECT_DOUBLE_EQ(find("P3").q_value, 0.5);
  EXPECT_DOUBLE_EQ(find("rev_P4").q_value, 1.0);
  EXPECT_EQ(proteins.front().accession, "P1");  // best first
  EXPECT_DOUBLE_EQ(psms[0].protein_q, 0.0);
  EXPECT_DOUBLE_EQ(psms[4].protein_q, 0.5);
  EXPECT_DOUBLE_EQ(psms[3].protein_q, 1.0);
}

TEST(Fdr, SpectrumAndPeptideLevels) {
  // Peptide AAAK is matched twice (10 and 4): only its best PSM competes at peptide level.
  std::vector<Psm> psms = {make(0, 10, false, "AAAK", "P1"), make(1, 9, false, "CCCK", "P1"),
                           make(2, 8, true, "DDDK", "rev_P2"), make(3, 4, false, "AAAK", "P1")};
  Psm second = make(0, 2, true, "EEEK", "rev_P9");  // rank 2 of spectrum 0
  second.rank = 2;
  psms.push_back(second);
  assign_spectrum_q_values(psms);
  // Rank-1 list: 10 T, 9 T, 8 D (1/2), 4 T (1/3) -> q 0, 0, 1/3, 1/3.
  EXPECT_DOUBLE_EQ(psms[0].spectrum_q, 0.0);
  EXPECT_DOUBLE_EQ(psms[2].spectrum_q, 1.0 / 3);
  EXPECT_DOUBLE_EQ(psms[3].spectrum_q, 1.0 / 3);
  // Rank 2 with score 2: a threshold at 2 accepts all four rank-1 PSMs, FDR 1/3.
  EXPECT_DOUBLE_EQ(psms[4].spectrum_q, 1.0 / 3);
  assign_peptide_q_values(psms);
  // Peptides: AAAK 10 T, CCCK 9 T, DDDK 8 D (1/2) -> AAAK 0 for both of its PSMs.
  EXPECT_DOUBLE_EQ(psms[0].peptide_q, 0.0);
  EXPECT_DOUBLE_EQ(psms[3].peptide_q, 0.0);
  EXPECT_DOUBLE_EQ(psms[2].peptide_q, 0.5);
}

}  // namespace
}  // namespace ionflow
