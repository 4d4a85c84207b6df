// The precursor selection (precursor_selection.hpp) and the selected build of the peptide index
// (peptide_index.hpp): windows by hand-computed masses, a peptide's modification shifts, and on
// the real E. coli target-decoy FASTA (openms-doc) that a selected index holds, in every query's
// precursor windows, exactly the whole index's peptides, and the same null pool.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "io/fasta_reader.hpp"
#include "scoring/mass.hpp"
#include "scoring/peptide_index.hpp"
#include "scoring/precursor_selection.hpp"
#include "scoring_test_support.hpp"

namespace ionflow {
namespace {

using scoring_test::carbamidomethyl;
using scoring_test::oxidation;
using scoring_test::protein_n_acetyl;

TEST(PrecursorSelection, ContainsEachWindowAndNothingBeyondIt) {
  SearchParameters params;
  params.precursor_tolerance = Tolerance::Ppm(-10.0, 10.0);
  params.isotope_errors = {0, 1};
  const PrecursorSelection selection({1000.0}, params, 5001.0);
  // Isotope error 0: theoretical masses t with 1000 / (1 + 10e-6) <= t <= 1000 / (1 - 10e-6),
  // i.e. 999.990000 .. 1000.010000 Da.
  EXPECT_TRUE(selection.contains(1000.0));
  EXPECT_TRUE(selection.contains(999.99001));
  EXPECT_TRUE(selection.contains(1000.00999));
  EXPECT_FALSE(selection.contains(999.98));  // 2.5 bins of 1/256 Da below the window
  EXPECT_FALSE(selection.contains(1000.02));
  // Isotope error 1: around 1000 - 1.0033548378 = 998.9966451622 Da.
  EXPECT_TRUE(selection.contains(998.9966451622));
  EXPECT_FALSE(selection.contains(999.5));
  EXPECT_FALSE(selection.contains(5001.5));  // beyond the maximum
  EXPECT_FALSE(selection.contains(-1.0));
  // Two windows of ~0.02 Da, 6 bins each at most, of 5001 x 256 + 1 bins.
  EXPECT_GT(selection.covered_fraction(), 0.0);
  EXPECT_LT(selection.covered_fraction(), 14.0 / (5001.0 * 256.0));
}

std::vector<double> shifts_of(const FormMassShifts& shifts, uint64_t eligible) {
  std::vector<double> out;
  shifts.any_shift(eligible, [&](double d) {
    out.push_back(d);
    return false;
  });
  std::sort(out.begin(), out.end());
  return out;
}

TEST(FormMassShifts, BaseMassAndTheShiftsAPeptideCanHave) {
  DatabaseParameters db;
  db.fixed_modifications = {carbamidomethyl()};
  db.variable_modifications = {oxidation()};
  db.max_variable_modifications = 2;
  const FormMassShifts shifts(db);
  ASSERT_TRUE(shifts.supported());
  uint64_t eligible = 0;
  // PEPTCMK: residues + water + Carbamidomethyl on C (Unimod 4, 57.021464 Da); one M.
  EXPECT_NEAR(shifts.base_mass("PEPTCMK", eligible), mass::peptide_mass("PEPTCMK") + 57.021464,
              1e-9);
  EXPECT_EQ(eligible, 1u);
  const std::vector<double> one = shifts_of(shifts, eligible);
  ASSERT_EQ(one.size(), 2u);  // 0 and one Oxidation (Unimod 35, 15.994915 Da)
  EXPECT_DOUBLE_EQ(one[0], 0.0);
  EXPECT_DOUBLE_EQ(one[1], 15.994915);
  shifts.base_mass("MMMK", eligible);
  EXPECT_EQ(eligible, 3u);
  EXPECT_EQ(shifts_of(shifts, eligible).size(), 3u);  // 0, 1 and 2: max_variable_mods 2
  shifts.base_mass("PEPTIDEK", eligible);
  EXPECT_EQ(shifts_of(shifts, eligible), std::vector<double>{0.0});
  // Prefix sums over a protein give every substring's base mass and eligibility.
  const std::string protein = "MKWVTFISLLLLFSSAYSRGVFRRDTHKSEIAHRFKDLGEEHFKGLVLIAFSQYLQQCPFDEHVK";
  std::vector<double> mass_prefix;
  std::vector<uint64_t> eligible_prefix;
  shifts.prefix_sums(protein, mass_prefix, eligible_prefix);
  for (size_t a : {size_t{0}, size_t{2}, size_t{19}}) {
    for (size_t b : {a + 1, a + 7, protein.size()}) {
      const double direct = shifts.base_mass(std::string_view(protein).substr(a, b - a), eligible);
      EXPECT_NEAR(shifts.water_da() + mass_prefix[b] - mass_prefix[a], direct, 1e-9);
      EXPECT_EQ(eligible_prefix[b] - eligible_prefix[a], eligible);
    }
  }
}

TEST(FormMassShifts, CountsIAndLTogetherAndRefusesWhatItDoesNotModel) {
  DatabaseParameters db;
  Modification on_l = oxidation();
  on_l.residues = "L";
  db.variable_modifications = {on_l};
  uint64_t eligible = 0;
  FormMassShifts(db).base_mass("PEPTIDEK", eligible);
  EXPECT_EQ(eligible, 1u);                           // the I counts: I and L merge into one peptide
  db.variable_modifications.assign(5, oxidation());  // five variable residue modifications
  EXPECT_FALSE(FormMassShifts(db).supported());
  db.variable_modifications.clear();
  Modification on_i = carbamidomethyl();
  on_i.residues = "I";  // a fixed modification on I but not on L
  db.fixed_modifications = {on_i};
  EXPECT_FALSE(FormMassShifts(db).supported());
}

TEST(PrecursorSelection, NullPoolStrideHasItsDocumentedValues) {
  EXPECT_EQ(null_pool_stride(0), 1u);
  EXPECT_EQ(null_pool_stride(32767), 1u);
  EXPECT_EQ(null_pool_stride(32768), 2u);
  EXPECT_EQ(null_pool_stride(1187899), 64u);   // the BSA example database's occurrences
  EXPECT_EQ(null_pool_stride(3403658), 128u);  // the human-size scale database's
}

const std::vector<Protein>& ecoli() {
  static const std::vector<Protein> proteins = [] {
    const std::string path = std::string(IONFLOW_EXAMPLES_DIR) +
                             "/TOPPAS/data/Identification/"
                             "target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta";
    FastaOptions options;
    options.decoy_tag = "rev_";
    return parse_fasta(scoring_test::read_file(path), path, options);
  }();
  return proteins;
}

void expect_same_peptide(const PeptideIndex& a, size_t i, const PeptideIndex& b, size_t j) {
  const Peptide p = a.peptide(i), q = b.peptide(j);
  ASSERT_EQ(p.sequence, q.sequence);
  EXPECT_EQ(p.neutral_mass_da, q.neutral_mass_da);
  EXPECT_EQ(p.decoy, q.decoy);
  EXPECT_EQ(p.missed_cleavages, q.missed_cleavages);
  EXPECT_EQ(p.enzymatic_termini, q.enzymatic_termini);
  EXPECT_EQ(a.records()[i].flags, b.records()[j].flags);
  ASSERT_EQ(p.modifications.size(), q.modifications.size());
  for (size_t k = 0; k < p.modifications.size(); ++k) {
    EXPECT_EQ(p.modifications[k].position, q.modifications[k].position);
    EXPECT_EQ(p.modifications[k].modification, q.modifications[k].modification);
  }
  ASSERT_EQ(p.occurrences.size(), q.occurrences.size());
  for (size_t k = 0; k < p.occurrences.size(); ++k) {
    EXPECT_EQ(p.occurrences[k].protein, q.occurrences[k].protein);
    EXPECT_EQ(p.occurrences[k].start, q.occurrences[k].start);
  }
}

// Queries at every 1500th peptide mass of the whole index, 3 ppm off; isotope errors 0 and 1.
void expect_selected_equals_whole(const SearchParameters& params) {
  PeptideIndexLimits limits;
  limits.threads = 2;
  const auto whole = build_peptide_index(ecoli(), params, nullptr, limits);
  std::vector<double> queries;
  for (size_t i = 0; i < whole->size(); i += 1500) {
    queries.push_back(whole->neutral_mass_da(i) * (1 + 3e-6));
  }
  DigestedDatabase digested = digest_database(ecoli(), params, nullptr, limits);
  ASSERT_TRUE(digested.selectable());
  const uint32_t stride = null_pool_stride(digested.occurrences());
  const PrecursorSelection selection(queries, params, params.database.peptide_max_mass_da + 1.0);
  const auto selected = build_peptide_index(std::move(digested), &selection, nullptr, limits);
  EXPECT_LT(selected->size(), whole->size() / 3);
  size_t window_peptides = 0;
  for (double q : queries) {
    for (int k : params.isotope_errors) {
      auto [lo, hi] = params.precursor_tolerance.theoretical_range(q - k * mass::kC13C12Spacing);
      auto [a, b] = whole->mass_range(lo, hi);
      auto [c, d] = selected->mass_range(lo, hi);
      ASSERT_EQ(b - a, d - c) << q << " isotope error " << k;
      for (size_t n = 0; n < b - a; ++n) expect_same_peptide(*whole, a + n, *selected, c + n);
      window_peptides += b - a;
    }
  }
  EXPECT_GT(window_peptides, queries.size());
  // The same null pool, about 1 in `stride` of the whole index.
  ASSERT_EQ(whole->null_pool().size(), selected->null_pool().size());
  for (size_t n = 0; n < whole->null_pool().size(); ++n) {
    expect_same_peptide(*whole, whole->null_pool()[n], *selected, selected->null_pool()[n]);
  }
  EXPECT_GT(stride, 1u);
  EXPECT_NEAR(static_cast<double>(whole->null_pool().size()) * stride, whole->size(),
              0.1 * whole->size());
}

TEST(PrecursorSelection, SelectedIndexHoldsTheWholeIndexsWindowsWithReversedPeptideDecoys) {
  SearchParameters params;
  params.database.enzyme.missed_cleavages = 2;
  params.database.fixed_modifications = {carbamidomethyl()};
  params.database.variable_modifications = {oxidation()};
  params.isotope_errors = {0, 1};
  expect_selected_equals_whole(params);
}

TEST(PrecursorSelection, SelectedIndexHoldsTheWholeIndexsWindowsWithProteinTerminalAcetyl) {
  SearchParameters params;
  params.database.decoy_generation = DecoyGeneration::kNone;  // the FASTA's rev_ entries
  params.database.fixed_modifications = {carbamidomethyl()};
  params.database.variable_modifications = {oxidation(), protein_n_acetyl()};
  params.precursor_tolerance = Tolerance::Da(-0.02, 0.02);
  params.isotope_errors = {0};
  expect_selected_equals_whole(params);
}

// A job that selects per sorted run builds several indexes from one digest: each equals the
// consuming build's for the same selection, and the digest is unchanged by them (the second run's
// index, built after the first, equals a fresh digest's).
TEST(PrecursorSelection, ReusableDigestBuildsEachRunsIndexAsAFreshDigestWould) {
  SearchParameters params;
  params.database.enzyme.missed_cleavages = 2;
  params.database.fixed_modifications = {carbamidomethyl()};
  params.database.variable_modifications = {oxidation()};
  params.isotope_errors = {0, 1};
  PeptideIndexLimits limits;
  limits.threads = 2;
  const std::vector<std::vector<double>> runs = {{1045.5, 1500.75, 2210.1},
                                                 {812.43, 1500.75, 3011.2, 3500.0}};
  DigestedDatabase kept = digest_database(ecoli(), params, nullptr, limits);
  std::vector<std::shared_ptr<const PeptideIndex>> run_indexes;
  for (const std::vector<double>& masses : runs) {
    const PrecursorSelection selection(masses, params, params.database.peptide_max_mass_da + 1.0);
    const auto reused = build_selected_peptide_index(kept, selection, nullptr, limits);
    run_indexes.push_back(reused);
    const auto fresh = build_peptide_index(digest_database(ecoli(), params, nullptr, limits),
                                           &selection, nullptr, limits);
    ASSERT_EQ(reused->size(), fresh->size());
    EXPECT_GT(fresh->size(), fresh->null_pool().size());  // window peptides besides the pool
    EXPECT_EQ(reused->masses(), fresh->masses());
    EXPECT_EQ(reused->residues(), fresh->residues());
    EXPECT_EQ(reused->null_pool(), fresh->null_pool());
    ASSERT_EQ(reused->proteins.size(), fresh->proteins.size());
    EXPECT_EQ(reused->proteins.back().accession, fresh->proteins.back().accession);
    for (size_t i = 0; i < fresh->size(); i += 97) expect_same_peptide(*reused, i, *fresh, i);
  }
  EXPECT_EQ(kept.occurrences(), digest_database(ecoli(), params).occurrences());
  // The run indexes hold one list of the proteins between them, not a copy each.
  EXPECT_TRUE(run_indexes[0]->proteins.shares(run_indexes[1]->proteins));
  EXPECT_FALSE(run_indexes[0]->proteins.empty());
}

TEST(PrecursorSelection, ReusableBuildRefusesADigestThatCannotSelect) {
  SearchParameters params;
  const DigestedDatabase whole = digest_database(ecoli(), params, nullptr, {}, false);
  const PrecursorSelection selection({1500.0}, params, params.database.peptide_max_mass_da + 1.0);
  EXPECT_THROW(build_selected_peptide_index(whole, selection), std::invalid_argument);
}

}  // namespace
}  // namespace ionflow
