// PsmFacts (scoring/psm_facts.hpp) and finalize_psm_facts: the facts keep what finalizing needs,
// intern strings (equal ids <=> equal strings), and finalizing facts placed by arrival gives the
// same ranks, scores and q-values whatever order they were read (interned) in — the writer reads
// its spill run by run, not in arrival order.
#include "scoring/psm_facts.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "scoring/fdr.hpp"
#include "scoring/search.hpp"

namespace ionflow {
namespace {

// 60 spectra x 2 charges, each with its own peptide; decoys ("rev_") score lower on average.
// Spectra 0-29 have a second candidate peptide (rank 2 when report_psms >= 2); a few PSMs share a
// peptide (same ProForma) to exercise peptide-level q-values.
std::vector<Psm> make_psms() {
  std::vector<Psm> out;
  for (int s = 0; s < 60; ++s) {
    for (int z = 2; z <= 3; ++z) {
      for (int alt = 0; alt < (s < 30 ? 2 : 1); ++alt) {
        Psm p;
        p.file_index = static_cast<uint32_t>(s % 2);
        p.spectrum_index = static_cast<uint64_t>(s);
        p.charge = z;
        p.decoy = (s % 5 == 0) != (alt == 1);
        const int peptide = (s % 7 == 0) ? 1000 : s * 10 + alt;
        p.sequence = "PEPTIDE" + std::string(static_cast<size_t>(peptide % 5), 'K');
        p.proforma = p.decoy ? "DEC" : "";
        p.proforma += p.sequence;
        p.proforma += std::to_string(peptide);
        std::string accession = p.decoy ? "rev_P" : "P";
        accession += std::to_string(peptide % 13);
        p.evidence = {{accession, 0, 'K', 'A', p.decoy}};
        p.score = 10.0 - (p.decoy ? 4.0 : 0.0) - 0.1 * (s % 11) - alt * 0.5 + 0.01 * z;
        p.hyperscore = 20.0 + p.score;
        p.xcorr = p.score / 4;
        p.delta_next = 0.5 + 0.01 * s;
        p.matched_peaks = 5 + s % 9;
        p.theoretical_peaks = 30;
        p.candidates = 100 + s;
        p.precursor_ppm = (s % 7) - 3.0;
        p.fragment_ppm = 20.0 + z;
        p.missed_cleavages = s % 2;
        p.isotope_error = s % 3 == 0 ? 1 : 0;
        out.push_back(p);
      }
    }
  }
  return out;
}

TEST(PsmFacts, KeepsFinalizeFieldsAndInternsStrings) {
  std::vector<Psm> psms = make_psms();
  PsmFacts facts = facts_of(psms);
  ASSERT_EQ(facts.facts.size(), psms.size());
  for (size_t i = 0; i < psms.size(); ++i) {
    const PsmFact& f = facts.facts[i];
    EXPECT_EQ(f.arrival, i);
    EXPECT_EQ(facts.proforma(f.proforma), psms[i].proforma);
    EXPECT_EQ(f.sequence_length, psms[i].sequence.size());
    ASSERT_EQ(f.evidence_end - f.evidence_begin, 1u);
    EXPECT_EQ(facts.accession(facts.evidence()[f.evidence_begin].protein),
              psms[i].evidence[0].protein_accession);
    EXPECT_EQ(f.score, psms[i].score);
    EXPECT_EQ(f.charge, psms[i].charge);
  }
  // Spectra 7 and 14 (4 PSMs each) share target peptide 1000: one ProForma id per string.
  EXPECT_EQ(facts.facts[7 * 4].proforma, facts.facts[14 * 4].proforma);
  EXPECT_EQ(psms[7 * 4].proforma, psms[14 * 4].proforma);
  EXPECT_NE(facts.facts[7 * 4].proforma, facts.facts[8 * 4].proforma);
  EXPECT_EQ(facts.accession_count(), 26u);  // P0..P12 and rev_P0..rev_P12
  EXPECT_GT(facts.memory_bytes(), facts.facts.size() * sizeof(PsmFact));
}

class FinalizeFacts : public ::testing::TestWithParam<int> {};

TEST_P(FinalizeFacts, InterningOrderDoesNotChangeTheResult) {
  SearchParameters params;
  params.report_psms = GetParam();
  params.database.decoy_tag = "rev_";
  const std::vector<Psm> psms = make_psms();
  const std::vector<Psm> expected = finalize_psms(psms, params);

  // Facts placed at their arrival, but made (interned) in reverse order, as a spill scan would.
  PsmFacts facts;
  facts.facts.resize(psms.size());
  for (size_t i = psms.size(); i-- > 0;) facts.facts[i] = facts.make(psms[i], i);
  finalize_psm_facts(facts, params);

  ASSERT_EQ(facts.facts.size(), expected.size());
  size_t rank2 = 0;
  for (size_t k = 0; k < expected.size(); ++k) {
    const PsmFact& f = facts.facts[k];
    const Psm& e = expected[k];
    EXPECT_EQ(psms[f.arrival].proforma, e.proforma);
    EXPECT_EQ(psms[f.arrival].charge, e.charge);
    EXPECT_EQ(f.rank, e.rank);
    EXPECT_EQ(f.score, e.score);
    EXPECT_EQ(f.spectrum_q, e.spectrum_q);
    EXPECT_EQ(f.peptide_q, e.peptide_q);
    EXPECT_EQ(f.protein_q, e.protein_q);
    rank2 += e.rank == 2;
  }
  // Every PSM is a distinct (ProForma, charge): spectra 0-29 have 4, spectra 30-59 have 2.
  const size_t report = static_cast<size_t>(GetParam());
  EXPECT_EQ(expected.size(), 30 * std::min<size_t>(report, 4) + 30 * std::min<size_t>(report, 2));
  EXPECT_EQ(rank2, GetParam() == 1 ? 0u : 60u);
}

INSTANTIATE_TEST_SUITE_P(ReportPsms, FinalizeFacts, ::testing::Values(1, 2, 4));

// ProteinQFloor::kBestPeptide: a protein's q is at least the best peptide_q of its rank-1 PSMs
// (a new user's job reported 0 PSMs and 0 peptides but 2 proteins at 1% FDR).
TEST(FinalizeFacts, ProteinQIsAtLeastItsBestPeptideQ) {
  std::vector<Psm> psms = make_psms();
  for (Psm& p : psms) p.rank = p.charge == 2 ? 1 : 2;
  PsmFacts facts = facts_of(psms);
  const auto plain = assign_protein_q_values(facts, "rev_", false);
  double smallest = 1.0;
  for (const ProteinScore& p : plain) smallest = std::min(smallest, p.q_value);
  EXPECT_EQ(smallest, 0.0);  // the picked list alone: its best targets at q = 0
  for (PsmFact& f : facts.facts) f.peptide_q = 0.25 + 0.001 * f.spectrum_index;
  const auto floored = assign_protein_q_values(facts, "rev_", false, DecoyCount::kObserved,
                                               ProteinQFloor::kBestPeptide);
  ASSERT_EQ(floored.size(), plain.size());
  for (size_t i = 0; i < floored.size(); ++i) {
    ASSERT_EQ(floored[i].accession, plain[i].accession);
    double best_peptide_q = 1.0;
    for (const PsmFact& f : facts.facts) {
      const FactEvidence& e = facts.evidence()[f.evidence_begin];
      if (f.rank == 1 && e.decoy == f.decoy && facts.accession(e.protein) == plain[i].accession) {
        best_peptide_q = std::min(best_peptide_q, f.peptide_q);
      }
    }
    EXPECT_EQ(floored[i].q_value,
              plain[i].picked ? std::max(plain[i].q_value, best_peptide_q) : 1.0)
        << floored[i].accession;
  }
  for (const PsmFact& f : facts.facts) EXPECT_GE(f.protein_q, 0.25);
}

TEST(FinalizeFacts, VectorQValueFunctionsEqualTheFactVersions) {
  std::vector<Psm> psms = make_psms();
  for (Psm& p : psms) p.rank = p.charge == 2 ? 1 : 2;
  PsmFacts facts = facts_of(psms);
  assign_spectrum_q_values(psms);
  assign_peptide_q_values(psms);
  const auto proteins = assign_protein_q_values(psms, "rev_", false);
  assign_spectrum_q_values(facts.facts);
  assign_peptide_q_values(facts.facts);
  const auto fact_proteins = assign_protein_q_values(facts, "rev_", false);
  ASSERT_EQ(proteins.size(), fact_proteins.size());
  for (size_t i = 0; i < proteins.size(); ++i) {
    EXPECT_EQ(proteins[i].accession, fact_proteins[i].accession);
    EXPECT_EQ(proteins[i].q_value, fact_proteins[i].q_value);
  }
  size_t passing = 0;
  for (size_t i = 0; i < psms.size(); ++i) {
    EXPECT_EQ(psms[i].spectrum_q, facts.facts[i].spectrum_q);
    EXPECT_EQ(psms[i].peptide_q, facts.facts[i].peptide_q);
    EXPECT_EQ(psms[i].protein_q, facts.facts[i].protein_q);
    passing += psms[i].rank == 1 && !psms[i].decoy && psms[i].spectrum_q <= 0.01;
  }
  EXPECT_GT(passing, 10u);
}

}  // namespace
}  // namespace ionflow
