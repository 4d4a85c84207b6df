// The sorter stage (actors/sorter.cpp) against stand-in neighbours (database, splitter and writer
// are the test): it cuts the queries into sorted runs, asks the database for each run's index as
// the index plan says, serves each run's chunks in mass order once its index is registered, and
// reports to the writer once drained.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "stage_test_support.hpp"

namespace ionflow {
namespace {

Query query(uint64_t spectrum, double neutral_mass_da) {
  Query q;
  q.spectrum_index = spectrum;
  q.native_id = "index=" + std::to_string(spectrum);
  q.charge = 2;
  q.neutral_mass = neutral_mass_da;
  q.precursor_mz = neutral_mass_da / 2 + 1.007276;
  return q;
}

class SorterStage : public actors_test::StageTest {
 protected:
  // Spawns the sorter and answers its IndexOpen with `plan`.
  caf::actor start(const JobSpec& spec, IndexPlan plan) {
    caf::actor sorter = keep(spawn_sorter(sys, context(spec), me(), me(), me()));
    self->receive(
        [&](IndexOpen& open) -> IndexReady {
          return {open.job, 0, plan};
        },
        caf::after(kWait) >> [] { FAIL() << "no IndexOpen"; });
    return sorter;
  }
  void add(const caf::actor& sorter, std::vector<Query> queries, uint64_t held) {
    self->request(sorter, kWait, QueryBatch{kJob, std::move(queries)})
        .receive([&](uint64_t n) { EXPECT_EQ(n, held); },
                 [&](caf::error& e) { FAIL() << sys.render(e); });
  }
  // Pulls chunks until the empty one, answering index requests (recorded in `requests`, in
  // order) as they come; returns the spectra of each chunk with its part.
  std::vector<std::pair<uint32_t, std::vector<uint64_t>>> drain(
      const caf::actor& sorter, std::vector<IndexRequest>& requests) {
    std::vector<std::pair<uint32_t, std::vector<uint64_t>>> chunks;
    bool done = false;
    self->send(sorter, NextChunk{kJob});
    while (!done) {
      self->receive(
          [&](IndexRequest& r) -> IndexReady {
            requests.push_back(r);
            return {r.job, r.part, IndexPlan::kPerRun};
          },
          [&](QueryChunk& c) {
            if (c.queries.empty()) {
              done = true;
              return;
            }
            std::vector<uint64_t> spectra;
            for (const Query& q : c.queries) spectra.push_back(q.spectrum_index);
            chunks.emplace_back(c.part, std::move(spectra));
            self->send(sorter, NextChunk{kJob});
          },
          caf::after(kWait) >>
              [&] {
                ADD_FAILURE() << "stalled";
                done = true;
              });
    }
    return chunks;
  }
  StageReport report() {
    StageReport r;
    self->receive([&](StageReport& s) { r = s; },
                  caf::after(kWait) >> [] { FAIL() << "no report"; });
    return r;
  }
};

// A small job: one run at the end of the input, its index asked with every mass and `last`.
TEST_F(SorterStage, AJobOfOneRunAsksOneIndexAndServesItInMassOrder) {
  JobSpec spec;
  spec.output_directory = ::testing::TempDir();
  caf::actor sorter = start(spec, IndexPlan::kPerRun);
  add(sorter, {query(0, 3000.0), query(1, 1000.0)}, 2);
  add(sorter, {query(2, 2000.0)}, 3);
  self->send(sorter, InputDone{kJob});
  std::vector<IndexRequest> requests;
  const auto chunks = drain(sorter, requests);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].part, 0u);
  EXPECT_TRUE(requests[0].last);
  EXPECT_EQ(requests[0].neutral_masses_da, (std::vector<double>{1000.0, 2000.0, 3000.0}));
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0].first, 0u);
  EXPECT_EQ(chunks[0].second, (std::vector<uint64_t>{1, 2, 0}));  // 1000, 2000, 3000 Da
  const StageReport r = report();
  EXPECT_EQ(r.from, Stage::kSorter);
  EXPECT_EQ(r.stages.at("sorter").items, 3u);
}

// A budget of one query: every query is a spilled run of its own, each with its own index part
// (each asked once the run before is half served, the last one marked), served in arrival order.
TEST_F(SorterStage, RunsOverTheBudgetAreSpilledAndEachGetsItsOwnIndex) {
  JobSpec spec;
  spec.output_directory = ::testing::TempDir();
  spec.sorter_memory_budget_bytes = 1;
  caf::actor sorter = start(spec, IndexPlan::kPerRun);
  add(sorter, {query(0, 3000.0), query(1, 1000.0), query(2, 2000.0)}, 3);
  self->send(sorter, InputDone{kJob});
  std::vector<IndexRequest> requests;
  const auto chunks = drain(sorter, requests);
  ASSERT_EQ(requests.size(), 3u);
  std::map<uint32_t, std::vector<double>> masses;
  for (const IndexRequest& r : requests) masses[r.part] = r.neutral_masses_da;
  EXPECT_EQ(masses[0], (std::vector<double>{3000.0}));
  EXPECT_EQ(masses[1], (std::vector<double>{1000.0}));
  EXPECT_EQ(masses[2], (std::vector<double>{2000.0}));
  EXPECT_FALSE(requests[0].last);
  EXPECT_TRUE(requests[2].last);
  using Chunk = std::pair<uint32_t, std::vector<uint64_t>>;
  EXPECT_EQ(chunks, (std::vector<Chunk>{{0, {0}}, {1, {1}}, {2, {2}}}));
  EXPECT_GT(report().stages.at("sorter").bytes, 0u);  // spilled
}

// The whole database's index: no index request, every chunk part 0.
TEST_F(SorterStage, WithTheWholeIndexNoRunAsksForAnIndex) {
  JobSpec spec;
  spec.output_directory = ::testing::TempDir();
  spec.sorter_memory_budget_bytes = 1;
  caf::actor sorter = start(spec, IndexPlan::kWhole);
  add(sorter, {query(0, 3000.0), query(1, 1000.0)}, 2);
  self->send(sorter, InputDone{kJob});
  std::vector<IndexRequest> requests;
  const auto chunks = drain(sorter, requests);
  EXPECT_TRUE(requests.empty());
  using Chunk = std::pair<uint32_t, std::vector<uint64_t>>;
  EXPECT_EQ(chunks, (std::vector<Chunk>{{0, {0}}, {0, {1}}}));
}

// Remote scorer nodes rebuild one index: one request after the last query, every run's masses.
TEST_F(SorterStage, WithRemoteScoringOneIndexOfEveryQueryComesAfterTheLast) {
  JobSpec spec;
  spec.output_directory = ::testing::TempDir();
  spec.sorter_memory_budget_bytes = 1;
  caf::actor sorter = start(spec, IndexPlan::kAllQueries);
  add(sorter, {query(0, 3000.0), query(1, 1000.0)}, 2);
  add(sorter, {query(2, 2000.0)}, 3);
  self->send(sorter, InputDone{kJob});
  std::vector<IndexRequest> requests;
  const auto chunks = drain(sorter, requests);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].part, 0u);
  EXPECT_TRUE(requests[0].last);
  EXPECT_EQ(requests[0].neutral_masses_da, (std::vector<double>{3000.0, 1000.0, 2000.0}));
  using Chunk = std::pair<uint32_t, std::vector<uint64_t>>;
  EXPECT_EQ(chunks, (std::vector<Chunk>{{0, {0}}, {0, {1}}, {0, {2}}}));
}

// A waiting splitter gets a run cut as soon as min_run_queries are held, long before the input
// ends; the next run is cut once the first one's index is there (to be indexed while it is
// scored), and the end of the input cuts the rest, whose request is the last.
TEST_F(SorterStage, AWaitingSplitterGetsARunCutFromMinRunQueries) {
  JobSpec spec;
  spec.output_directory = ::testing::TempDir();
  spec.min_run_queries = 2;
  caf::actor sorter = start(spec, IndexPlan::kPerRun);
  self->send(sorter, NextChunk{kJob});
  add(sorter, {query(0, 3000.0)}, 1);
  add(sorter, {query(1, 1000.0)}, 2);  // two held: run 0
  IndexRequest first;
  self->receive([&](IndexRequest& r) -> IndexReady {
    first = r;
    return {r.job, r.part, IndexPlan::kPerRun};
  });
  EXPECT_EQ(first.part, 0u);
  EXPECT_FALSE(first.last);
  EXPECT_EQ(first.neutral_masses_da, (std::vector<double>{1000.0, 3000.0}));
  self->receive([&](QueryChunk& c) {
    EXPECT_EQ(c.part, 0u);
    ASSERT_EQ(c.queries.size(), 2u);
    EXPECT_EQ(c.queries[0].spectrum_index, 1u);
  });
  add(sorter, {query(2, 2000.0), query(3, 1500.0)}, 4);  // run 1, requested ahead
  add(sorter, {query(4, 2500.0)}, 5);
  self->send(sorter, InputDone{kJob});  // run 2: the rest
  std::vector<IndexRequest> requests;
  const auto chunks = drain(sorter, requests);
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].part, 1u);
  EXPECT_EQ(requests[0].neutral_masses_da, (std::vector<double>{1500.0, 2000.0}));
  EXPECT_FALSE(requests[0].last);
  EXPECT_EQ(requests[1].part, 2u);
  EXPECT_TRUE(requests[1].last);
  using Chunk = std::pair<uint32_t, std::vector<uint64_t>>;
  EXPECT_EQ(chunks, (std::vector<Chunk>{{1, {3, 2}}, {2, {4}}}));
}

// Without any query the sorter still closes the database's index requests (its report).
TEST_F(SorterStage, NoQueryClosesTheIndexRequestsAndEnds) {
  JobSpec spec;
  spec.output_directory = ::testing::TempDir();
  caf::actor sorter = start(spec, IndexPlan::kPerRun);
  self->send(sorter, InputDone{kJob});
  std::vector<IndexRequest> requests;
  EXPECT_TRUE(drain(sorter, requests).empty());
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].part, kNoIndexPart);
  EXPECT_TRUE(requests[0].last);
  EXPECT_EQ(report().stages.at("sorter").items, 0u);
}

}  // namespace
}  // namespace ionflow
