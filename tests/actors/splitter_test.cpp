// The splitter stage (actors/splitter.cpp) against stand-in neighbours (sorter, scorer pool and
// writer are the test): it pulls chunks from the sorter, sends each to the pool, forwards every
// PsmBatch to the writer, releases each index part once its last chunk is back, then sends its
// report and ChunksDone.
#include <gtest/gtest.h>

#include <deque>
#include <mutex>
#include <set>
#include <vector>

#include "stage_test_support.hpp"

namespace ionflow {
namespace {

class SplitterStage : public actors_test::StageTest {};

TEST_F(SplitterStage, SendsTheSortersChunksAndReleasesEachPartOnceScored) {
  JobSpec spec;
  auto ctx = context(spec);
  std::mutex mutex;
  std::vector<uint32_t> released;
  ctx->set_index_release([&](uint32_t part) {
    std::lock_guard<std::mutex> lock(mutex);
    released.push_back(part);
  });
  caf::actor splitter = keep(spawn_splitter(sys, ctx, me(), me(), me(), me()));
  // The sorter's chunks: two of part 0, one of part 1, then the end.
  std::deque<QueryChunk> chunks;
  chunks.push_back({kJob, 0, 0, std::vector<Query>(2)});
  chunks.push_back({kJob, 0, 0, std::vector<Query>(1)});
  chunks.push_back({kJob, 0, 1, std::vector<Query>(3)});
  std::set<uint64_t> scored, forwarded;
  StageReport report;
  int64_t done = -1;
  while (done < 0) {
    self->receive(
        [&](NextChunk&) -> QueryChunk {
          if (chunks.empty()) return QueryChunk{kJob, 0, 0, {}};
          QueryChunk c = std::move(chunks.front());
          chunks.pop_front();
          return c;
        },
        [&](QueryChunk& c) -> PsmBatch {
          scored.insert(c.seq);
          return PsmBatch{kJob, c.seq, {}, c.queries.size(), 0.0, ""};
        },
        [&](PsmBatch& b) { forwarded.insert(b.seq); },
        [&](StageReport& r) { report = std::move(r); },
        [&](ChunksDone& d) { done = static_cast<int64_t>(d.chunks); },
        caf::after(kWait) >>
            [&] {
              ADD_FAILURE() << "stalled";
              done = 0;
            });
  }
  EXPECT_EQ(scored, (std::set<uint64_t>{0, 1, 2}));
  EXPECT_EQ(forwarded, scored);
  EXPECT_EQ(done, 3);
  EXPECT_EQ(report.from, Stage::kSplitter);
  EXPECT_EQ(report.stages.at("splitter").items, 3u);
  EXPECT_EQ(report.stages.at("scorer").items, 6u);  // queries scored
  // Part 0 is released once both its chunks are back and part 1 has begun; part 1 only by the
  // writer at the end (release_index), not by the splitter.
  std::lock_guard<std::mutex> lock(mutex);
  EXPECT_EQ(released, (std::vector<uint32_t>{0}));
}

}  // namespace
}  // namespace ionflow
