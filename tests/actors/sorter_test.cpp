// The sorter stage (actors/sorter.cpp) against stand-in neighbours: it holds the queries, sends
// their masses (arrival order) to the database and its chunk plan to the splitter, and serves
// them in ascending neutral mass; its report goes to the writer once it is drained.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "stage_test_support.hpp"

namespace ionflow {
namespace {

class SorterStage : public actors_test::StageTest {};

Query query(uint64_t spectrum, double neutral_mass_da) {
  Query q;
  q.spectrum_index = spectrum;
  q.native_id = "index=" + std::to_string(spectrum);
  q.charge = 2;
  q.neutral_mass = neutral_mass_da;
  q.precursor_mz = neutral_mass_da / 2 + 1.007276;
  return q;
}

TEST_F(SorterStage, ServesTheQueriesInMassOrderAfterTheMassesAndThePlan) {
  JobSpec spec;
  spec.output_directory = ::testing::TempDir();
  caf::actor sorter = keep(spawn_sorter(sys, context(spec), me(), me(), me(), me()));
  self->request(sorter, kWait, QueryBatch{kJob, {query(0, 3000.0), query(1, 1000.0)}})
      .receive([](uint64_t held) { EXPECT_EQ(held, 2u); },
               [&](caf::error& e) { FAIL() << sys.render(e); });
  self->request(sorter, kWait, QueryBatch{kJob, {query(2, 2000.0)}})
      .receive([](uint64_t held) { EXPECT_EQ(held, 3u); },
               [&](caf::error& e) { FAIL() << sys.render(e); });
  self->send(sorter, InputDone{kJob});
  self->receive(
      [](QueryMasses& m) {
        EXPECT_EQ(m.neutral_masses_da, (std::vector<double>{3000.0, 1000.0, 2000.0}));
      },
      caf::after(kWait) >> [] { FAIL() << "no masses"; });
  self->receive(
      [](SortedReady& r) {
        EXPECT_EQ(std::accumulate(r.chunk_queries.begin(), r.chunk_queries.end(), 0u), 3u);
      },
      caf::after(kWait) >> [] { FAIL() << "no plan"; });
  std::vector<uint64_t> order;
  self->request(sorter, kWait, NextQueries{kJob, 10})
      .receive(
          [&](QueryBatch& b) {
            for (const Query& q : b.queries) order.push_back(q.spectrum_index);
          },
          [&](caf::error& e) { FAIL() << sys.render(e); });
  EXPECT_EQ(order, (std::vector<uint64_t>{1, 2, 0}));  // 1000, 2000, 3000 Da
  self->receive(
      [](StageReport& r) {
        EXPECT_EQ(r.from, Stage::kSorter);
        EXPECT_EQ(r.stages.at("sorter").items, 3u);
      },
      caf::after(kWait) >> [] { FAIL() << "no report"; });
}

}  // namespace
}  // namespace ionflow
