// The database stage (actors/database.cpp) against stand-in neighbours: it loads the FASTA,
// registers the job's index for the scorers and answers the sorter's IndexOpen and
// IndexRequests; a narrow-window job gets one index per sorted run, each from its queries'
// masses; a database without decoys fails the job.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

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
  // The reply to `request` (IndexOpen or IndexRequest).
  template <typename Request>
  IndexReady ask(const caf::actor& database, Request request) {
    IndexReady ready;
    ready.part = kNoIndexPart - 1;
    self->request(database, kWait, std::move(request))
        .receive([&](IndexReady& r) { ready = r; },
                 [&](caf::error& e) { ADD_FAILURE() << sys.render(e); });
    return ready;
  }
  StageReport receive_report() {
    StageReport report;
    self->receive([&](StageReport& r) { report = r; }, [&](JobFailure& f) { FAIL() << f.message; },
                  caf::after(kWait) >> [] { FAIL() << "no report"; });
    return report;
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
  caf::actor database = keep(spawn_database(sys, context(spec), registry_, me(), me(), me(), 1));
  const StageReport report = receive_report();
  EXPECT_EQ(report.from, Stage::kDatabase);
  EXPECT_EQ(report.peptides_in_index, want);
  EXPECT_EQ(report.index_scope, "");
  EXPECT_EQ(report.input_sha256.at(kFasta).size(), 64u);
  const IndexReady ready = ask(database, IndexOpen{kJob});
  EXPECT_EQ(ready.job, kJob);
  EXPECT_EQ(ready.part, 0u);
  EXPECT_EQ(ready.plan, IndexPlan::kWhole);
  ASSERT_NE(registry_->find(kJob), nullptr);
  EXPECT_EQ(registry_->find(kJob)->index->size(), want);
}

// Two runs: each part holds its own queries' window peptides (and the null pool); the report
// comes with the last, and releasing a part drops only its registry entry.
TEST_F(DatabaseStage, ANarrowWindowJobGetsOneIndexPerSortedRun) {
  // The E. coli target-decoy FASTA: large enough for a null pool of 1 in several sequences.
  JobSpec spec;
  spec.fasta_path =
      std::string(IONFLOW_EXAMPLES_DIR) +
      "/TOPPAS/data/Identification/target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta";
  spec.search.database.decoy_generation = DecoyGeneration::kNone;
  // Peptides outside the null pool (so only their run's index holds them), 500 Da apart.
  const auto whole = build_peptide_index(
      parse_fasta(actors_test::read_file(spec.fasta_path), spec.fasta_path, {"rev_", false}),
      spec.search);
  std::vector<double> masses;
  for (size_t i = 0; i < whole->size() && masses.size() < 3; ++i) {
    const double m = whole->neutral_mass_da(i);
    if ((whole->records()[i].flags & kOutsideNullPool) != 0 &&
        (masses.empty() || m > masses.back() + 500.0)) {
      masses.push_back(m);
    }
  }
  ASSERT_EQ(masses.size(), 3u);
  auto ctx = context(spec);
  caf::actor database = keep(spawn_database(sys, ctx, registry_, me(), me(), me(), 1));
  const IndexReady open = ask(database, IndexOpen{kJob});
  EXPECT_EQ(open.plan, IndexPlan::kPerRun);
  EXPECT_EQ(registry_->find(kJob, 0), nullptr);  // nothing before a run's masses
  EXPECT_EQ(ask(database, IndexRequest{kJob, 0, {masses[0], masses[1]}, false}).part, 0u);
  EXPECT_EQ(ask(database, IndexRequest{kJob, 1, {masses[2]}, true}).part, 1u);
  const StageReport report = receive_report();
  const auto first = registry_->find(kJob, 0), second = registry_->find(kJob, 1);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  auto window = [](const PeptideIndex& index, double mass) {
    auto [a, b] = index.mass_range(mass * (1 - 10e-6), mass * (1 + 10e-6));
    return b - a;
  };
  EXPECT_EQ(window(*first->index, masses[0]), window(*whole, masses[0]));
  EXPECT_GT(window(*first->index, masses[0]), 0u);
  EXPECT_LT(window(*second->index, masses[0]), window(*whole, masses[0]));
  EXPECT_EQ(window(*second->index, masses[2]), window(*whole, masses[2]));
  EXPECT_LT(window(*first->index, masses[2]), window(*whole, masses[2]));
  EXPECT_EQ(first->index->null_pool().size(), second->index->null_pool().size());
  EXPECT_EQ(report.peptides_in_index, std::max(first->index->size(), second->index->size()));
  EXPECT_EQ(
      report.index_scope.rfind("selected per sorted run: 2 runs of 1-2 queries (3 in all)", 0), 0u)
      << report.index_scope;
  ctx->release_index_part(0);
  EXPECT_EQ(registry_->find(kJob, 0), nullptr);
  EXPECT_NE(registry_->find(kJob, 1), nullptr);
  self->receive([](ForgetJob& f) { EXPECT_EQ(f.part, 0u); },
                caf::after(kWait) >> [] { FAIL() << "no ForgetJob to the pool"; });
}

// A job of one run: its one index and the scope it always had.
TEST_F(DatabaseStage, AOneRunJobHasTheSelectedIndexOfItsQueries) {
  caf::actor database =
      keep(spawn_database(sys, context(bsa_job()), registry_, me(), me(), me(), 1));
  EXPECT_EQ(ask(database, IndexOpen{kJob}).plan, IndexPlan::kPerRun);
  EXPECT_EQ(ask(database, IndexRequest{kJob, 0, {1479.795, 1638.930}, true}).part, 0u);
  const StageReport report = receive_report();
  EXPECT_GT(report.peptides_in_index, 0u);
  EXPECT_EQ(report.index_scope.rfind("selected: the peptides within the 2 queries' precursor "
                                     "windows",
                                     0),
            0u)
      << report.index_scope;
}

// No query at all: the closing request builds the null pool's index, so that the checks run
// and the summary has an index, as before runs.
TEST_F(DatabaseStage, AJobWithoutQueriesStillGetsItsIndexAndReport) {
  caf::actor database =
      keep(spawn_database(sys, context(bsa_job()), registry_, me(), me(), me(), 1));
  ask(database, IndexOpen{kJob});
  EXPECT_EQ(ask(database, IndexRequest{kJob, kNoIndexPart, {}, true}).part, kNoIndexPart);
  const StageReport report = receive_report();
  EXPECT_GT(report.peptides_in_index, 0u);
  EXPECT_NE(registry_->find(kJob, 0), nullptr);
}

TEST_F(DatabaseStage, ADatabaseWithoutDecoysFailsTheJob) {
  JobSpec spec = bsa_job();
  spec.whole_index = true;
  spec.search.database.decoy_tag = "DECOY_";  // matches no accession
  spec.search.database.decoy_tag_is_suffix = false;
  keep(spawn_database(sys, context(spec), registry_, me(), me(), me(), 1));
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
