// The database stage (actors/database.cpp) against stand-in neighbours: it loads the FASTA,
// registers the job's index for the scorers and sends IndexReady and its report; a narrow-window
// job's index waits for the queries' masses; a database without decoys fails the job.
#include <gtest/gtest.h>

#include <string>

#include "actors_test_support.hpp"
#include "io/fasta_reader.hpp"
#include "stage_test_support.hpp"

namespace ionflow {
namespace {

const std::string kFasta = std::string(IONFLOW_TEST_DATA_DIR) + "/bsa_target_decoy_excerpt.fasta";

class DatabaseStage : public actors_test::StageTest {
 protected:
  JobSpec bsa_job() {
    JobSpec spec;
    spec.fasta_path = kFasta;
    spec.search.database.decoy_tag = "_rev";
    spec.search.database.decoy_tag_is_suffix = true;
    spec.search.database.decoy_generation = DecoyGeneration::kNone;
    return spec;
  }
  // The IndexReady and the report of the stage.
  void receive_index(IndexReady& ready, StageReport& report) {
    for (int i = 0; i < 2; ++i) {
      self->receive([&](IndexReady& r) { ready = r; }, [&](StageReport& r) { report = r; },
                    [&](JobFailure& f) { FAIL() << f.message; },
                    caf::after(kWait) >> [] { FAIL() << "no index"; });
    }
  }
  // As SearchRuntime::run does after every job: the registry entry shares the JobContext
  // (JobScoring::stop), whose index release holds the registry, a cycle until removed.
  void TearDown() override {
    actors_test::StageTest::TearDown();
    registry_->remove(kJob);
  }

  std::shared_ptr<JobRegistry> registry_ = std::make_shared<JobRegistry>();
};

TEST_F(DatabaseStage, BuildsTheWholeIndexAtOnceAndRegistersIt) {
  JobSpec spec = bsa_job();
  spec.whole_index = true;
  const size_t want =
      build_peptide_index(parse_fasta(actors_test::read_file(kFasta), kFasta, {"_rev", true}),
                          spec.search)
          ->size();
  keep(spawn_database(sys, context(spec), registry_, me(), me(), me(), me(), 1));
  IndexReady ready;
  StageReport report;
  receive_index(ready, report);
  EXPECT_EQ(ready.job, kJob);
  EXPECT_EQ(report.from, Stage::kDatabase);
  EXPECT_EQ(report.peptides_in_index, want);
  EXPECT_EQ(report.index_scope, "");
  EXPECT_EQ(report.input_sha256.at(kFasta).size(), 64u);
  ASSERT_NE(registry_->find(kJob), nullptr);
  EXPECT_EQ(registry_->find(kJob)->index->size(), want);
}

TEST_F(DatabaseStage, ANarrowWindowIndexWaitsForTheQueriesMasses) {
  caf::actor database =
      keep(spawn_database(sys, context(bsa_job()), registry_, me(), me(), me(), me(), 1));
  self->send(database, QueryMasses{kJob, {1479.795, 1638.930}});  // two BSA peptides' masses
  IndexReady ready;
  StageReport report;
  receive_index(ready, report);
  EXPECT_EQ(ready.job, kJob);
  EXPECT_GT(report.peptides_in_index, 0u);
  EXPECT_EQ(report.index_scope.rfind("selected: the peptides within the 2 queries' precursor "
                                     "windows",
                                     0),
            0u)
      << report.index_scope;
}

TEST_F(DatabaseStage, ADatabaseWithoutDecoysFailsTheJob) {
  JobSpec spec = bsa_job();
  spec.whole_index = true;
  spec.search.database.decoy_tag = "DECOY_";  // matches no accession
  spec.search.database.decoy_tag_is_suffix = false;
  keep(spawn_database(sys, context(spec), registry_, me(), me(), me(), me(), 1));
  std::string message;
  self->receive([&](JobFailure& f) { message = f.message; },
                caf::after(kWait) >> [] { FAIL() << "no failure"; });
  // 5 of the 8 entries: with the wrong tag, three UniProt decoys ("sp|A9F596|ACCA_SORC5_rev")
  // have their target's accession and are dropped as repeats (io/fasta_reader.hpp).
  EXPECT_EQ(message.rfind(kFasta + ": no decoy entries: 0 of the 5 accessions carry the decoy "
                                   "tag 'DECOY_' as a prefix",
                          0),
            0u)
      << message;
}

}  // namespace
}  // namespace ionflow
