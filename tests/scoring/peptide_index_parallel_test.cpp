// build_peptide_index on several threads builds exactly the index one thread builds: every
// column equal, byte for byte, on the real E. coli target-decoy FASTA (openms-doc), with
// generated reversed-peptide decoys and with a protein N-terminal modification (the path that
// merges forms across protein-terminus classes). Also the known size of the demo index.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "io/fasta_reader.hpp"
#include "scoring/peptide_index.hpp"
#include "scoring_test_support.hpp"

namespace ionflow {
namespace {

std::vector<Protein> read_fasta(const std::string& path, const std::string& decoy_tag,
                                bool suffix) {
  FastaOptions options;
  options.decoy_tag = decoy_tag;
  options.tag_is_suffix = suffix;
  return parse_fasta(scoring_test::read_file(path), path, options);
}

const std::vector<Protein>& ecoli() {
  static const std::vector<Protein> proteins =
      read_fasta(std::string(IONFLOW_EXAMPLES_DIR) +
                     "/TOPPAS/data/Identification/"
                     "target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta",
                 "rev_", false);
  return proteins;
}

using scoring_test::carbamidomethyl;
using scoring_test::oxidation;
using scoring_test::protein_n_acetyl;

template <typename T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

void expect_same_index(const PeptideIndex& a, const PeptideIndex& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_TRUE(same_bytes(a.masses(), b.masses()));
  EXPECT_TRUE(same_bytes(a.records(), b.records()));
  EXPECT_EQ(a.residues(), b.residues());
  EXPECT_TRUE(same_bytes(a.placed_modifications(), b.placed_modifications()));
  EXPECT_TRUE(same_bytes(a.occurrences(), b.occurrences()));
}

std::shared_ptr<const PeptideIndex> build(const SearchParameters& params, int threads) {
  PeptideIndexLimits limits;
  limits.threads = threads;
  return build_peptide_index(ecoli(), params, nullptr, limits);
}

TEST(PeptideIndexParallel, ReversedPeptideDecoysSameOnOneTwoThreeAndSevenThreads) {
  SearchParameters params;
  params.database.enzyme.missed_cleavages = 2;
  params.database.fixed_modifications = {carbamidomethyl()};
  params.database.variable_modifications = {oxidation()};
  auto one = build(params, 1);
  // The count of the E. coli index with these parameters (BM_BuildIndexEcoli, perf/).
  EXPECT_EQ(one->size(), 944434u);
  for (int threads : {2, 3, 7}) {
    SCOPED_TRACE(threads);
    expect_same_index(*one, *build(params, threads));
  }
}

TEST(PeptideIndexParallel, ProteinTerminalModificationAndFastaDecoysSameOnFourThreads) {
  SearchParameters params;
  params.database.decoy_generation = DecoyGeneration::kNone;  // the FASTA's rev_ entries
  params.database.fixed_modifications = {carbamidomethyl()};
  params.database.variable_modifications = {oxidation(), protein_n_acetyl()};
  auto one = build(params, 1);
  auto four = build(params, 4);
  expect_same_index(*one, *four);
  size_t acetylated = 0;
  for (size_t i = 0; i < one->size(); ++i) {
    for (const auto& m : one->peptide(i).modifications) {
      acetylated += one->modifications[m.modification].name == "Acetyl" ? 1 : 0;
    }
  }
  EXPECT_GT(acetylated, 1000u);  // every protein N-terminus, targets and decoys
}

// The demo job's index (examples/bsa_demo.json): 1 471 779 peptide forms, on any thread count.
TEST(PeptideIndexParallel, BsaDemoIndexHasItsKnownSize) {
  const auto proteins = read_fasta(std::string(IONFLOW_EXAMPLES_DIR) +
                                       "/TOPPAS/data/BSA_Identification/"
                                       "18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta",
                                   "_rev", true);
  SearchParameters params;
  params.database.decoy_tag = "_rev";
  params.database.decoy_tag_is_suffix = true;
  params.database.decoy_generation = DecoyGeneration::kNone;
  params.database.fixed_modifications = {carbamidomethyl()};
  params.database.variable_modifications = {oxidation()};
  PeptideIndexLimits limits;
  limits.threads = 2;
  EXPECT_EQ(build_peptide_index(proteins, params, nullptr, limits)->size(), 1471779u);
}

}  // namespace
}  // namespace ionflow
