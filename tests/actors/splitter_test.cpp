// The splitter stage (actors/splitter.cpp) against stand-in neighbours (sorter, scorer pool and
// writer are the test): after IndexReady and SortedReady it pulls the planned chunks, sends each
// to the pool, forwards every PsmBatch to the writer, then its report and ChunksDone.
#include <gtest/gtest.h>

#include <deque>
#include <set>
#include <vector>

#include "stage_test_support.hpp"

namespace ionflow {
namespace {

class SplitterStage : public actors_test::StageTest {};

TEST_F(SplitterStage, CutsThePlannedChunksAndReportsWhenAllAreScored) {
  JobSpec spec;
  caf::actor splitter = keep(spawn_splitter(sys, context(spec), me(), me(), me()));
  self->send(splitter, IndexReady{kJob});
  self->send(splitter, SortedReady{kJob, {2, 1}});  // from the test: it is the sorter
  std::deque<Query> queries(3);
  std::vector<uint32_t> asked;
  std::set<uint64_t> scored, forwarded;
  StageReport report;
  int64_t chunks = -1;
  while (chunks < 0) {
    self->receive(
        [&](NextQueries& n) -> QueryBatch {
          asked.push_back(n.max_count);
          QueryBatch b{kJob, {}};
          while (b.queries.size() < n.max_count && !queries.empty()) {
            b.queries.push_back(queries.front());
            queries.pop_front();
          }
          return b;
        },
        [&](QueryChunk& c) -> PsmBatch {
          scored.insert(c.seq);
          return PsmBatch{kJob, c.seq, {}, c.queries.size(), 0.0, ""};
        },
        [&](PsmBatch& b) { forwarded.insert(b.seq); },
        [&](StageReport& r) { report = std::move(r); },
        [&](ChunksDone& d) { chunks = static_cast<int64_t>(d.chunks); },
        caf::after(kWait) >>
            [&] {
              ADD_FAILURE() << "stalled";
              chunks = 0;
            });
  }
  // The plan's two chunks, then one more request whose short reply ends the sorter.
  EXPECT_EQ(asked, (std::vector<uint32_t>{2, 1, 1}));
  EXPECT_EQ(scored, (std::set<uint64_t>{0, 1}));
  EXPECT_EQ(forwarded, scored);
  EXPECT_EQ(chunks, 2);
  EXPECT_EQ(report.from, Stage::kSplitter);
  EXPECT_EQ(report.stages.at("splitter").items, 2u);
  EXPECT_EQ(report.stages.at("scorer").items, 3u);  // queries scored
}

}  // namespace
}  // namespace ionflow
