// Parsimony: indistinguishable proteins grouped, subset proteins removed (greedy set cover); the
// lazy cover keeps the groups a full rescan keeps; the job summary's count of protein groups at
// 1% FDR, from facts (scoring/fdr.hpp count_at_1pct).
#include "scoring/protein_groups.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

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

TEST(ProteinGroups, ResiduesOfTheProformaNameThePeptide) {
  // Two modified forms of one sequence are one peptide of its proteins; the group lists it once.
  std::vector<Psm> psms = {make(0, 9, "MEK", {"P1"}), make(1, 8, "MEK", {"P1"}),
                           make(2, 7, "AAAK", {"P2"})};
  psms[0].proforma = "[UNIMOD:1]-M[UNIMOD:35]EK";
  psms[1].proforma = "MEK-[+0.984]";
  const std::vector<ProteinGroup> groups = build_protein_groups(psms, {}, 0.01);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].peptides, (std::vector<std::string>{"MEK"}));
  EXPECT_EQ(groups[0].unique_peptides, 1);
}

// The greedy cover as it was written first: rescan every group at each step (more new peptides,
// then higher score, then first accession). Returns the kept groups' accession lists, sorted.
std::set<std::vector<std::string>> rescan_cover(const std::vector<Psm>& psms) {
  std::map<std::string, std::set<std::string>> peptides_of;
  std::map<std::string, double> best;
  for (const Psm& p : psms) {
    auto [it, inserted] = best.emplace(p.sequence, p.score);
    it->second = std::max(it->second, p.score);
    for (const PeptideEvidence& e : p.evidence) peptides_of[e.protein_accession].insert(p.sequence);
  }
  std::map<std::set<std::string>, std::vector<std::string>> by_set;
  for (const auto& [a, set] : peptides_of) by_set[set].push_back(a);
  std::vector<std::pair<std::set<std::string>, std::vector<std::string>>> groups(by_set.begin(),
                                                                                 by_set.end());
  auto score = [&](size_t i) {
    double s = -1e300;
    for (const std::string& p : groups[i].first) s = std::max(s, best[p]);
    return s;
  };
  std::set<std::string> explained;
  std::set<std::vector<std::string>> kept;
  for (;;) {
    size_t pick = groups.size(), pick_new = 0;
    for (size_t i = 0; i < groups.size(); ++i) {
      size_t fresh = 0;
      for (const std::string& p : groups[i].first) fresh += !explained.count(p);
      if (fresh == 0) continue;
      if (pick == groups.size() || fresh > pick_new ||
          (fresh == pick_new &&
           (score(i) > score(pick) ||
            (score(i) == score(pick) && groups[i].second[0] < groups[pick].second[0])))) {
        pick = i;
        pick_new = fresh;
      }
    }
    if (pick == groups.size()) break;
    kept.insert(groups[pick].second);
    explained.insert(groups[pick].first.begin(), groups[pick].first.end());
  }
  return kept;
}

TEST(ProteinGroups, LazyCoverKeepsTheGroupsOfAFullRescan) {
  // 300 random cases: 4-40 proteins, peptides in 1-4 of them, scores with ties (tie-breaks).
  std::mt19937 rng(20240611);
  for (int round = 0; round < 300; ++round) {
    const int proteins = 4 + static_cast<int>(rng() % 37);
    const int peptides = 2 + static_cast<int>(rng() % 60);
    std::vector<Psm> psms;
    for (int k = 0; k < peptides; ++k) {
      std::set<std::string> in;
      const int n = 1 + static_cast<int>(rng() % 4);
      for (int j = 0; j < n; ++j) in.insert("P" + std::to_string(rng() % proteins));
      psms.push_back(make(static_cast<uint64_t>(k), static_cast<double>(rng() % 5),
                          "PEP" + std::to_string(k) + "K", {in.begin(), in.end()}));
    }
    std::set<std::vector<std::string>> lazy;
    for (const ProteinGroup& g : build_protein_groups(psms, {}, 0.01)) lazy.insert(g.accessions);
    ASSERT_EQ(lazy, rescan_cover(psms)) << "round " << round;
  }
}

// A finalized PSM for the summary counts: rank 1, q-values given, target unless `decoy`.
Psm finalized(uint64_t spectrum, const std::string& peptide, std::vector<std::string> proteins,
              double spectrum_q, double peptide_q, double protein_q, bool decoy = false) {
  Psm p =
      make(spectrum, 10.0 - static_cast<double>(spectrum), peptide, std::move(proteins), peptide_q);
  p.spectrum_q = spectrum_q;
  p.protein_q = protein_q;
  p.decoy = decoy;
  for (PeptideEvidence& e : p.evidence) e.decoy = decoy;
  return p;
}

// The BSA1 demo job's case: one keratin peptide maps to 7 accessions; they are one group (the
// summary's "4 protein groups (11 proteins)").
TEST(ProteinGroups, OneSharedPeptideOfSevenAccessionsIsOneGroupAtOnePercent) {
  const std::vector<std::string> keratins = {"K1", "K2", "K3", "K4", "K5", "K6", "K7"};
  std::vector<Psm> psms = {
      finalized(0, "LVNELTEFAK", {"ALBU"}, 0.0, 0.0, 0.0),
      finalized(1, "YEELQITAGR", keratins, 0.0, 0.0, 0.0),
      // Peptide not at 1%, its protein_q 0 through ALBU: "proteins" counts P9, no group has it.
      finalized(2, "AAAAAK", {"ALBU", "P9"}, 0.5, 0.5, 0.0),
      // Peptide at 1% (just), its only protein not: a group, not at 1%.
      finalized(3, "GGGGGR", {"P10"}, 0.01, 0.01, 0.02),
      finalized(4, "KAFTLEVNLK", {"ALBU_rev"}, 1.0, 0.0, 0.0, true),  // a decoy group at 1%
  };
  // The picked-protein q-values: a keratin at 0.005 makes the group's q (the best member's).
  std::vector<ProteinScore> proteins = {
      {"ALBU", false, 10, 0.0, true},   {"K1", false, 9, 1.0, false}, {"K3", false, 9, 0.005, true},
      {"K5", false, 9, 0.3, true},      {"P9", false, 8, 0.0, true},  {"P10", false, 7, 0.02, true},
      {"ALBU_rev", true, 6, 0.0, true},
  };
  const PsmFacts facts = facts_of(psms, proteins);
  ASSERT_EQ(facts.accession_q.size(), facts.accession_count());
  const FdrCounts c = count_at_1pct(facts);
  EXPECT_EQ(c.psms, 3u);            // spectra 0, 1, 3
  EXPECT_EQ(c.peptides, 3u);        // LVNELTEFAK, YEELQITAGR, GGGGGR
  EXPECT_EQ(c.proteins, 9u);        // ALBU, K1-K7, P9
  EXPECT_EQ(c.protein_groups, 2u);  // {ALBU}, {K1..K7}; not {P10} (q 0.02) nor the decoy
  const FdrCounts v = count_at_1pct(psms, proteins);  // the vector form: the same
  EXPECT_EQ(v.proteins, c.proteins);
  EXPECT_EQ(v.protein_groups, c.protein_groups);

  const std::vector<ProteinGroup> groups = build_protein_groups(facts);
  ASSERT_EQ(groups.size(), 4u);  // the two above, {P10} and the decoy {ALBU_rev}
  EXPECT_EQ(groups[1].accessions, keratins);
  EXPECT_DOUBLE_EQ(groups[1].q_value, 0.005);
  EXPECT_EQ(groups[2].accessions, (std::vector<std::string>{"P10"}));
  EXPECT_DOUBLE_EQ(groups[2].q_value, 0.02);
  EXPECT_TRUE(groups[3].decoy);
}

// assign_protein_q_values leaves each accession's q in the facts (what the groups read): the
// q of the protein list it returns, 1 for the rest.
TEST(ProteinGroups, PickedProteinFdrLeavesEachAccessionsQInTheFacts) {
  std::vector<Psm> psms;
  for (int i = 0; i < 30; ++i) {
    const bool decoy = i % 3 == 2;
    const std::string protein = "P" + std::to_string(i % 10) + (decoy ? "_rev" : "");
    psms.push_back(finalized(static_cast<uint64_t>(i), "PEPTIDE" + std::to_string(i) + "K",
                             {protein, decoy ? "X_rev" : "X"}, 1.0, 0.0, 1.0, decoy));
  }
  PsmFacts facts = facts_of(psms);
  EXPECT_TRUE(facts.accession_q.empty());
  const std::vector<ProteinScore> proteins =
      assign_protein_q_values(facts, "_rev", true, DecoyCount::kObserved);
  ASSERT_EQ(facts.accession_q.size(), facts.accession_count());
  std::map<std::string, double> q_of;
  for (const ProteinScore& p : proteins) q_of[p.accession] = p.q_value;
  for (uint32_t id = 0; id < facts.accession_count(); ++id) {
    const std::string accession(facts.accession(id));
    ASSERT_TRUE(q_of.count(accession)) << accession;
    EXPECT_EQ(facts.accession_q[id], q_of[accession]) << accession;
  }
}

}  // namespace
}  // namespace ionflow
