// estimate_index_memory (scoring/index_memory.hpp): the occurrence count equals the builder's
// own (DigestedDatabase::occurrences) for enzymatic and semi-enzymatic digestion with generated
// decoys; the form estimate bounds the built index from above, within 1.5x on E. coli; the byte
// arithmetic follows the documented constants; the estimate is the same on any thread count;
// the error names the settings.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "scoring/index_memory.hpp"
#include "scoring_test_support.hpp"

namespace ionflow {
namespace {

using scoring_test::ecoli_parameters;
using scoring_test::read_file;

std::vector<Protein> ecoli_proteins() {
  const std::string path = std::string(IONFLOW_EXAMPLES_DIR) +
                           "/TOPPAS/data/Identification/target_decoy_Ecoli_K12_TaxID_83333."
                           "proteomes.fasta";
  FastaOptions options{"rev_", false};
  return parse_fasta(read_file(path), path, options);
}

TEST(IndexMemory, OccurrencesEqualTheBuildersCountEnzymaticAndSemi) {
  const std::vector<Protein> proteins = ecoli_proteins();
  ASSERT_GT(proteins.size(), 1000u);
  for (bool semi : {false, true}) {
    SearchParameters params = ecoli_parameters(Tolerance::Ppm(-10, 10));
    params.database.decoy_generation = DecoyGeneration::kReversePeptide;  // FASTA decoys replaced
    params.database.enzyme.semi_enzymatic = semi;
    params.database.enzyme.missed_cleavages = 2;
    const IndexMemoryEstimate e = estimate_index_memory(proteins, params, true);
    DigestedDatabase digested = digest_database(proteins, params, nullptr, {}, false);
    EXPECT_EQ(e.occurrences, digested.occurrences()) << "semi " << semi;
  }
}

TEST(IndexMemory, FormEstimateBoundsTheBuiltIndexWithinOneAndAHalf) {
  const std::vector<Protein> proteins = ecoli_proteins();
  SearchParameters params = ecoli_parameters(Tolerance::Ppm(-10, 10));
  params.database.peptide_min_mass_da = 0;
  params.database.peptide_max_mass_da = 1e6;  // the estimate ignores mass bounds
  const IndexMemoryEstimate e = estimate_index_memory(proteins, params, true);
  PeptideIndexLimits limits;
  limits.threads = 2;
  const auto index = build_peptide_index(proteins, params, nullptr, limits);
  EXPECT_GE(static_cast<double>(e.peptide_forms), 0.95 * static_cast<double>(index->size()));
  EXPECT_LE(static_cast<double>(e.peptide_forms), 1.5 * static_cast<double>(index->size()));
}

TEST(IndexMemory, TheEstimateIsTheSameOnAnyThreadCount) {
  const std::vector<Protein> proteins = ecoli_proteins();
  SearchParameters params = ecoli_parameters(Tolerance::Ppm(-10, 10));
  params.database.decoy_generation = DecoyGeneration::kReversePeptide;
  const IndexMemoryEstimate one = estimate_index_memory(proteins, params, true, 1);
  EXPECT_GT(one.peptide_forms, one.occurrences);  // Oxidation (M) adds forms
  for (int threads : {2, 3, 8}) {
    const IndexMemoryEstimate e = estimate_index_memory(proteins, params, true, threads);
    EXPECT_EQ(e.proteins, one.proteins) << threads;
    EXPECT_EQ(e.residues, one.residues) << threads;
    EXPECT_EQ(e.occurrences, one.occurrences) << threads;
    EXPECT_EQ(e.peptide_forms, one.peptide_forms) << threads;
    EXPECT_EQ(e.peak_bytes(), one.peak_bytes()) << threads;
  }
}

TEST(IndexMemory, TheSelectedBoundIsAtOrAboveTheExactEstimate) {
  const std::vector<Protein> proteins = ecoli_proteins();
  SearchParameters params = ecoli_parameters(Tolerance::Ppm(-10, 10));
  for (bool semi : {false, true}) {
    for (int missed : {0, 2}) {
      for (DecoyGeneration decoys : {DecoyGeneration::kNone, DecoyGeneration::kReversePeptide}) {
        params.database.enzyme.semi_enzymatic = semi;
        params.database.enzyme.missed_cleavages = missed;
        params.database.decoy_generation = decoys;
        const IndexMemoryEstimate exact = estimate_index_memory(proteins, params, false, 2);
        const IndexMemoryEstimate bound = selected_index_memory_bound(proteins, params);
        const std::string what = "semi " + std::to_string(semi) + " missed " +
                                 std::to_string(missed) + " decoys " +
                                 std::to_string(static_cast<int>(decoys));
        EXPECT_EQ(bound.proteins, exact.proteins) << what;
        EXPECT_EQ(bound.residues, exact.residues) << what;
        EXPECT_GE(bound.occurrences, exact.occurrences) << what;
        EXPECT_GE(bound.peak_bytes(), exact.peak_bytes()) << what;
        EXPECT_FALSE(bound.whole_index);
      }
    }
  }
  // Fully specific, 1 missed cleavage: the bound is 2 per residue, 8 bytes twice per occurrence.
  params.database.enzyme.semi_enzymatic = false;
  params.database.enzyme.missed_cleavages = 1;
  params.database.decoy_generation = DecoyGeneration::kNone;
  const IndexMemoryEstimate bound = selected_index_memory_bound(proteins, params);
  EXPECT_EQ(bound.occurrences, 2 * bound.residues);
  EXPECT_EQ(bound.peak_bytes(), static_cast<uint64_t>(kBaseBytes + bound.residues +
                                                      2 * kDigestRangeBytes * bound.occurrences));
}

// E. coli's parameters with no enzyme, peptides of [min_length, max_length] residues.
SearchParameters no_enzyme_parameters(int min_length, int max_length) {
  SearchParameters params = ecoli_parameters(Tolerance::Ppm(-10, 10));
  params.database.enzyme.name = "no-enzyme";
  params.database.enzyme.min_length = min_length;
  params.database.enzyme.max_length = max_length;
  return params;
}

TEST(IndexMemory, AnUnspecificDigestIsCountedWithoutMakingItAndCanBeCancelled) {
  const std::vector<Protein> all = ecoli_proteins();
  const std::vector<Protein> some(all.begin(), all.begin() + 20);
  SearchParameters params = no_enzyme_parameters(1, 60);
  params.database.decoy_generation = DecoyGeneration::kReversePeptide;
  const IndexMemoryEstimate e = estimate_index_memory(some, params, false, 2);
  DigestedDatabase digested = digest_database(some, params, nullptr, {}, true);
  EXPECT_EQ(e.occurrences, digested.occurrences());
  // The whole proteome at max_len 1000: 0.6 G occurrences (targets and reversed peptides)
  // counted, not made (digest() would make 7 GB of them).
  params.database.enzyme.max_length = 1000;
  const IndexMemoryEstimate big = estimate_index_memory(all, params, true, 2);
  EXPECT_EQ(big.occurrences, 595'036'282u);
  EXPECT_GT(big.peptide_forms, big.occurrences);
  EXPECT_NE(index_memory_error(big, 1ull << 30, params, "--max-memory")
                .find("settings: enzyme no-enzyme (every substring), database.enzyme."
                      "semi_enzymatic false"),
            std::string::npos);
  EXPECT_NE(index_memory_error(big, 1ull << 30, params, "--max-memory")
                .find("to fit: use an enzyme or lower max_len, "),
            std::string::npos);
  const std::atomic<bool> cancelled{true};
  EXPECT_THROW(estimate_index_memory(all, params, true, 2, &cancelled), BuildCancelled);
}

TEST(IndexMemory, AnUnspecificFormEstimateBoundsTheBuiltIndex) {
  const std::vector<Protein> all = ecoli_proteins();
  const std::vector<Protein> some(all.begin(), all.begin() + 40);
  SearchParameters params = no_enzyme_parameters(6, 40);
  params.database.peptide_min_mass_da = 0;
  params.database.peptide_max_mass_da = 1e6;
  const IndexMemoryEstimate e = estimate_index_memory(some, params, true, 2);
  EXPECT_EQ(estimate_index_memory(some, params, true, 1).peptide_forms, e.peptide_forms);
  EXPECT_EQ(estimate_index_memory(some, params, true, 3).peptide_forms, e.peptide_forms);
  PeptideIndexLimits limits;
  limits.threads = 2;
  const auto index = build_peptide_index(some, params, nullptr, limits);
  EXPECT_GE(static_cast<double>(e.peptide_forms), 0.95 * static_cast<double>(index->size()));
  EXPECT_LE(static_cast<double>(e.peptide_forms), 1.5 * static_cast<double>(index->size()));
}

// One protein of three tryptic peptides: PEPTIDEK, SAMPLER, GLYCINEK (23 residues).
Protein three_peptide_protein() {
  Protein p;
  p.accession = "P";
  p.sequence = "PEPTIDEKSAMPLERGLYCINEK";
  return p;
}

TEST(IndexMemory, BytesFollowTheDocumentedConstants) {
  const Protein p = three_peptide_protein();
  SearchParameters params;
  params.database.decoy_generation = DecoyGeneration::kNone;
  params.database.clip_n_terminal_methionine = false;
  params.database.enzyme.missed_cleavages = 1;
  // PEPTIDEK, SAMPLER, GLYCINEK, PEPTIDEKSAMPLER, SAMPLERGLYCINEK: 5 occurrences, no mods.
  const IndexMemoryEstimate whole = estimate_index_memory({p}, params, true);
  EXPECT_EQ(whole.occurrences, 5u);
  EXPECT_EQ(whole.peptide_forms, 5u);
  EXPECT_EQ(whole.residues, 23u);
  EXPECT_EQ(whole.digest_bytes, static_cast<uint64_t>(kBaseBytes + 23 + 5 * 24 * 2));
  EXPECT_EQ(whole.index_bytes, static_cast<uint64_t>(kBaseBytes + 23 + 5 * 24 + 5 * 80.0));
  const IndexMemoryEstimate selected = estimate_index_memory({p}, params, false);
  EXPECT_EQ(selected.digest_bytes, static_cast<uint64_t>(kBaseBytes + 23 + 5 * 8 * 2));
  EXPECT_EQ(selected.index_bytes, 0u);
}

TEST(IndexMemory, ErrorNamesTheEstimateTheBudgetAndTheSettings) {
  const std::vector<Protein> proteins = ecoli_proteins();
  SearchParameters params = ecoli_parameters(Tolerance::Ppm(-10, 10));
  params.database.enzyme.semi_enzymatic = true;
  params.database.enzyme.missed_cleavages = 3;
  const IndexMemoryEstimate e = estimate_index_memory(proteins, params, true);
  const std::string message = index_memory_error(e, 100ull << 20, params, "--max-memory");
  const std::string expected_start =
      "the peptide index would need about " + memory_size_text(e.peak_bytes()) + " (" +
      std::to_string(e.occurrences) + " digested peptide occurrences";
  EXPECT_EQ(message.rfind(expected_start, 0), 0u) << message;
  EXPECT_NE(message.find("more than the memory budget of 100 MiB (--max-memory); settings: "
                         "database.enzyme.semi_enzymatic true, "
                         "database.enzyme.missed_cleavages 3, database.enzyme.min_len 5, "
                         "database.enzyme.max_len 50, database.max_variable_mods 2 with 1 "
                         "variable modification(s) (Oxidation); to fit: turn semi_enzymatic off, "
                         "lower missed_cleavages or max_len, lower max_variable_mods or remove "
                         "variable modifications, or raise --max-memory"),
            std::string::npos)
      << message;
  EXPECT_GT(max_peptide_forms_within(e, 8ull << 30), 1u);
  EXPECT_EQ(max_peptide_forms_within(e, 1 << 20), 1u);
  // With no setting to lower (a new user's demo job under --max-memory 60M read "to fit: or
  // raise --max-memory").
  SearchParameters plain = ecoli_parameters(Tolerance::Ppm(-10, 10));
  plain.database.enzyme.missed_cleavages = 1;
  plain.database.variable_modifications.clear();
  const IndexMemoryEstimate small = estimate_index_memory(proteins, plain, true);
  const std::string alone = index_memory_error(small, 1 << 20, plain, "--max-memory");
  EXPECT_NE(alone.find("; to fit: raise --max-memory"), std::string::npos) << alone;
}

TEST(IndexMemory, CheckRefusesAboveTheBudgetAndCapsTheFormsBelowIt) {
  const Protein p = three_peptide_protein();
  SearchParameters params;
  params.database.decoy_generation = DecoyGeneration::kNone;
  const IndexMemoryEstimate e = estimate_index_memory({p}, params, true);
  EXPECT_EQ(check_index_memory(e, 0, params, "--max-memory", 100), 100u);  // no budget
  EXPECT_EQ(check_index_memory(e, 1ull << 40, params, "--max-memory", 100), 100u);
  // What is left above the fixed part, at kIndexBytesPerForm (80) bytes per form.
  const uint64_t fixed = static_cast<uint64_t>(kBaseBytes) + 23 + 5 * 24;
  EXPECT_EQ(check_index_memory(e, e.peak_bytes() + (1 << 20), params, "x", 1'000'000),
            static_cast<uint64_t>((e.peak_bytes() + (1 << 20) - fixed) / 80.0));
  try {
    check_index_memory(e, 1 << 20, params, "--max-memory", 100);
    FAIL() << "no IndexMemoryExceeded";
  } catch (const IndexMemoryExceeded& x) {
    EXPECT_NE(std::string(x.what()).find("more than the memory budget of 1 MiB (--max-memory)"),
              std::string::npos)
        << x.what();
  }
}

}  // namespace
}  // namespace ionflow
