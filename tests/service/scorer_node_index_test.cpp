// A remote scorer node's rebuild of a job's peptide index (service/scorer_node_command.hpp) from
// the RemoteJobSetup its coordinator makes (io/index_checksum.hpp): the same index (checksum,
// peptide count) for the whole database and for a narrow-window selection; a tampered FASTA or
// a different checksum is refused with the reason both sides log.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "io/index_checksum.hpp"
#include "io/protein_database.hpp"
#include "scoring/search_plan.hpp"
#include "service/job_message.hpp"
#include "service/scorer_node_command.hpp"

namespace ionflow {
namespace {

using ::testing::HasSubstr;

const std::string kData = IONFLOW_TEST_DATA_DIR;
const std::string kFasta =
    std::string(IONFLOW_EXAMPLES_DIR) +
    "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta";

JobSpec spec() {
  static Unimod unimod;
  const std::string job = R"({"database": {"fasta": ")" + kFasta +
                          R"j(", "decoy_tag": "_rev", "generate_decoys": false},
    "decoy_tag_position": "suffix", "fixed_modifications": ["Carbamidomethyl (C)"],
    "variable_modifications": ["Oxidation (M)"], "mzml_paths": [")j" +
                          kData + R"(/BSA1_identified_excerpt.mzML"]})";
  return parse_job_message(job, unimod).spec;
}

// The coordinator's side: the index as its database stage builds it, and the setup it sends.
struct Coordinator {
  std::shared_ptr<const PeptideIndex> index;
  std::shared_ptr<const RemoteJobSetup> setup;
};

Coordinator coordinator(const std::vector<double>* query_masses_da) {
  const JobSpec job = spec();
  LoadedDatabase loaded =
      load_database(job.fasta_path, job.search, query_masses_da != nullptr, "", 1, nullptr);
  Coordinator c;
  c.index = loaded.index;
  if (!c.index) {
    c.index = build_selected_index(std::move(*loaded.digested), *query_masses_da, job.search,
                                   job.fasta_path, 1, nullptr)
                  .index;
  }
  std::string why;
  c.setup = remote_job_setup(7, job, loaded.fasta_sha256, *c.index, query_masses_da, &why);
  EXPECT_NE(c.setup, nullptr) << why;
  return c;
}

TEST(ScorerNodeIndex, TheWholeIndexIsRebuiltWithTheSameChecksum) {
  const Coordinator c = coordinator(nullptr);
  ASSERT_NE(c.setup, nullptr);
  EXPECT_EQ(c.setup->index_checksum.size(), 64u);
  EXPECT_EQ(c.setup->index_checksum, peptide_index_checksum(*c.index));
  std::shared_ptr<const JobScoring> rebuilt = rebuild_job_scoring(*c.setup, 1);
  EXPECT_EQ(rebuilt->index->size(), c.index->size());
  EXPECT_GT(rebuilt->index->size(), 100000u);
  EXPECT_EQ(peptide_index_checksum(*rebuilt->index), c.setup->index_checksum);
}

TEST(ScorerNodeIndex, ANarrowWindowSelectionIsRebuiltFromTheQueryMasses) {
  const std::vector<double> masses = {1163.63, 1479.79, 1567.74, 2045.03};
  const Coordinator whole = coordinator(nullptr);
  const Coordinator c = coordinator(&masses);
  ASSERT_NE(c.setup, nullptr);
  EXPECT_EQ(c.setup->query_neutral_masses_da, masses);
  EXPECT_LT(c.index->size(), whole.index->size());
  EXPECT_NE(c.setup->index_checksum, whole.setup->index_checksum);
  std::shared_ptr<const JobScoring> rebuilt = rebuild_job_scoring(*c.setup, 1);
  EXPECT_EQ(rebuilt->index->size(), c.index->size());
  EXPECT_EQ(peptide_index_checksum(*rebuilt->index), c.setup->index_checksum);
}

TEST(ScorerNodeIndex, ADifferentChecksumOrFastaIsRefused) {
  const Coordinator c = coordinator(nullptr);
  ASSERT_NE(c.setup, nullptr);
  RemoteJobSetup other_index = *c.setup;
  other_index.index_checksum = std::string(64, 'f');
  try {
    rebuild_job_scoring(other_index, 1);
    ADD_FAILURE() << "a different checksum was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "job 7: peptide index checksum " + c.setup->index_checksum.substr(0, 16) +
                  " differs from the coordinator's ffffffffffffffff; refusing its chunks");
  }
  RemoteJobSetup other_fasta = *c.setup;
  other_fasta.fasta_bytes[other_fasta.fasta_bytes.size() / 2] ^= 1;
  try {
    rebuild_job_scoring(other_fasta, 1);
    ADD_FAILURE() << "changed FASTA bytes were accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("the FASTA's bytes have SHA-256 "));
    EXPECT_THAT(e.what(), HasSubstr(", the coordinator's " + c.setup->fasta_sha256.substr(0, 16)));
  }
}

}  // namespace
}  // namespace ionflow
