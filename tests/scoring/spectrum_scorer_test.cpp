// SpectrumScorer on a hand-built PeptideIndex and a synthetic spectrum of LVNELTEFAK's b/y ions:
// the right peptide ranks first, with the PSM fields filled as documented.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "scoring/ion_series.hpp"
#include "scoring/mass.hpp"
#include "scoring/search.hpp"

namespace ionflow {
namespace {

std::shared_ptr<const PeptideIndex> small_index() {
  auto index = std::make_shared<PeptideIndex>();
  index->proteins = {{"P1", "", "MKLVNELTEFAKTCVADESHAGCEKSLHTLFGDELCK", false},
                     {"rev_P1", "", "KCLEDGFLTHLSKECGAHSEDAVCTKAFETLENVLKM", true}};
  index->modifications = {
      {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true}};
  // Staged owning copies, sorted by mass, then appended (the index keeps views' data in its
  // own columns).
  struct Staged {
    std::string sequence;
    std::vector<PlacedModification> modifications;
    PeptideOccurrence occurrence;
    double mass_da = 0.0;
    bool decoy = false;
  };
  std::vector<Staged> staged;
  auto add = [&](const std::string& seq, bool decoy, uint32_t protein, uint32_t start) {
    Staged p;
    p.sequence = seq;
    p.decoy = decoy;
    p.mass_da = mass::peptide_mass(seq);
    for (size_t i = 0; i < seq.size(); ++i) {
      if (seq[i] == 'C') {
        p.modifications.push_back({static_cast<int16_t>(i), 0});
        p.mass_da += 57.021464;
      }
    }
    p.occurrence = {protein, start};
    staged.push_back(p);
  };
  add("LVNELTEFAK", false, 0, 2);
  add("TCVADESHAGCEK", false, 0, 12);
  add("SLHTLFGDELCK", false, 0, 25);
  add("AFETLENVLK", true, 1, 26);  // decoy, same composition as LVNELTEFAK
  add("ECGAHSEDAVCTK", true, 1, 13);
  // Isobaric with LVNELTEFAK (same composition): competes in the precursor window.
  add("VLNELTEFAK", true, 1, 0);
  std::stable_sort(staged.begin(), staged.end(),
                   [](const Staged& a, const Staged& b) { return a.mass_da < b.mass_da; });
  for (const Staged& s : staged) {
    Peptide p;
    p.sequence = s.sequence;
    p.modifications = s.modifications;
    p.occurrences = {&s.occurrence, 1};
    p.neutral_mass_da = s.mass_da;
    p.decoy = s.decoy;
    index->append(p);
  }
  return index;
}

Query spectrum_of(const std::string& sequence, int charge, double mass_shift_da) {
  Peptide p;
  p.sequence = sequence;
  ModifiedResidues residues;
  modified_residue_masses(p, {}, residues);
  std::vector<Fragment> fragments;
  fragment_ions(residues, IonTypes::parse("by"), 1, fragments);
  Query q;
  q.charge = charge;
  q.neutral_mass = mass::peptide_mass(sequence) + mass_shift_da;
  q.precursor_mz = mass::mz_from_neutral(q.neutral_mass, charge);
  q.spectrum_index = 5;
  for (const Fragment& f : fragments) q.peaks.push_back({static_cast<float>(f.mz + 0.1), 50.0f});
  // Noise peaks away from the fragments.
  for (int i = 0; i < 20; ++i) q.peaks.push_back({static_cast<float>(155.55 + 41.3 * i), 5.0f});
  std::sort(q.peaks.begin(), q.peaks.end(),
            [](const Peak& a, const Peak& b) { return a.mz < b.mz; });
  return q;
}

TEST(SpectrumScorer, RanksTheRightPeptideFirst) {
  SearchParameters params;
  params.report_psms = 2;
  SpectrumScorer scorer(small_index(), params);
  std::vector<Psm> psms = scorer.score(spectrum_of("LVNELTEFAK", 2, 0.0));
  ASSERT_EQ(psms.size(), 2u);  // of LVNELTEFAK and its isobaric VLNELTEFAK and AFETLENVLK
  const Psm& best = psms[0];
  EXPECT_EQ(best.sequence, "LVNELTEFAK");
  EXPECT_EQ(best.proforma, "LVNELTEFAK");
  EXPECT_EQ(best.rank, 1);
  EXPECT_FALSE(best.decoy);
  EXPECT_EQ(best.spectrum_index, 5u);
  EXPECT_EQ(best.charge, 2);
  EXPECT_NEAR(best.calcmass, 1162.623390, 1e-4);  // LVNELTEFAK monoisotopic
  EXPECT_NEAR(best.precursor_ppm, 0.0, 1e-3);
  EXPECT_EQ(best.isotope_error, 0);
  EXPECT_EQ(best.theoretical_peaks, 18);  // b1..b9, y1..y9 at 1+
  EXPECT_EQ(best.matched_peaks, 18);
  EXPECT_NEAR(best.fragment_ppm, 0.1 / 600 * 1e6, 150.0);  // 0.1 Th off everywhere
  EXPECT_EQ(best.candidates, 3);
  EXPECT_GT(best.hyperscore, psms[1].hyperscore);
  EXPECT_GT(best.delta_next, 0.0);
  EXPECT_GT(best.score, psms[1].score);
  EXPECT_DOUBLE_EQ(best.score, -std::log10(best.evalue));
  ASSERT_EQ(best.evidence.size(), 1u);
  EXPECT_EQ(best.evidence[0].protein_accession, "P1");
  EXPECT_EQ(best.evidence[0].start, 2u);
  EXPECT_EQ(best.evidence[0].pre, 'K');
  EXPECT_EQ(best.evidence[0].post, 'T');
  EXPECT_EQ(psms[1].sequence, "VLNELTEFAK");
  EXPECT_TRUE(psms[1].decoy);
  EXPECT_EQ(psms[1].rank, 2);
}

// A spectrum tried at k charges had k times the candidates tested: each of its queries' E-values
// is k times that of the same query tried alone (the scores and ranks are the same).
TEST(SpectrumScorer, EvalueCountsEveryChargeTried) {
  SearchParameters params;
  SpectrumScorer scorer(small_index(), params);
  Query alone = spectrum_of("LVNELTEFAK", 2, 0.0);
  Query of_two = alone;
  of_two.charges_tried = 2;
  const std::vector<Psm> a = scorer.score(alone);
  const std::vector<Psm> b = scorer.score(of_two);
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0].proforma, b[0].proforma);
  EXPECT_EQ(a[0].hyperscore, b[0].hyperscore);
  EXPECT_NEAR(b[0].evalue / a[0].evalue, 2.0, 1e-9);
  EXPECT_NEAR(a[0].score - b[0].score, std::log10(2.0), 1e-9);
}

TEST(SpectrumScorer, IsotopeErrorAndModifications) {
  SearchParameters params;
  params.isotope_errors = {0, 1};
  SpectrumScorer scorer(small_index(), params);
  // Precursor picked on the 13C peak: expmass = M + 1.00335.
  std::vector<Psm> psms = scorer.score(spectrum_of("LVNELTEFAK", 2, mass::kC13C12Spacing));
  ASSERT_FALSE(psms.empty());
  EXPECT_EQ(psms[0].sequence, "LVNELTEFAK");
  EXPECT_EQ(psms[0].isotope_error, 1);
  EXPECT_NEAR(psms[0].precursor_ppm, 0.0, 1e-3);
  // Without isotope error 1 nothing is within 10 ppm.
  SearchParameters strict;
  SpectrumScorer strict_scorer(small_index(), strict);
  EXPECT_TRUE(strict_scorer.score(spectrum_of("LVNELTEFAK", 2, mass::kC13C12Spacing)).empty());

  // A carbamidomethylated peptide: ProForma and applied modifications.
  Query q = spectrum_of("TCVADESHAGCEK", 2, 2 * 57.021464);
  std::vector<Psm> mod = scorer.score(q);
  ASSERT_FALSE(mod.empty());
  EXPECT_EQ(mod[0].proforma, "TC[UNIMOD:4]VADESHAGC[UNIMOD:4]EK");
  ASSERT_EQ(mod[0].modifications.size(), 2u);
  EXPECT_EQ(mod[0].modifications[0].position, 1);
  EXPECT_EQ(mod[0].modifications[0].residue, 'C');
  EXPECT_EQ(mod[0].modifications[0].unimod_accession, 4);
  EXPECT_TRUE(mod[0].modifications[0].fixed);
}

TEST(SpectrumScorer, FinalizeKeepsBestChargeAndOrders) {
  SearchParameters params;
  SpectrumScorer scorer(small_index(), params);
  Query q2 = spectrum_of("LVNELTEFAK", 2, 0.0);
  std::vector<Psm> all = scorer.score(q2);
  Psm other = all.at(0);
  other.charge = 3;
  other.score -= 1.0;
  other.spectrum_index = 5;
  all.push_back(other);
  Psm earlier = all.at(0);
  earlier.spectrum_index = 1;
  all.push_back(earlier);
  std::vector<Psm> final_psms = finalize_psms(all, params);
  ASSERT_EQ(final_psms.size(), 2u);  // one per spectrum (report_psms = 1)
  EXPECT_EQ(final_psms[0].spectrum_index, 1u);
  EXPECT_EQ(final_psms[1].spectrum_index, 5u);
  EXPECT_EQ(final_psms[1].charge, 2);  // the better charge query wins
  EXPECT_EQ(final_psms[1].rank, 1);
  EXPECT_DOUBLE_EQ(final_psms[1].spectrum_q, 0.0);
}

}  // namespace
}  // namespace ionflow

namespace ionflow {
namespace {

TEST(SpectrumScorer, EmptyInputs) {
  SearchParameters params;
  EXPECT_TRUE(finalize_psms({}, params).empty());
  SpectrumScorer scorer(std::make_shared<PeptideIndex>(), params);
  Query q;
  q.charge = 2;
  q.neutral_mass = 1000.0;
  q.peaks = {{300.0f, 10.0f}};
  EXPECT_TRUE(scorer.score(q).empty());  // empty index
  EXPECT_THROW(SpectrumScorer(nullptr, params), std::invalid_argument);
}

}  // namespace
}  // namespace ionflow
