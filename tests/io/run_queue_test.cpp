#include "io/run_queue.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/job_files.hpp"
#include "io/query_codec.hpp"

namespace ionflow {
namespace {

// Deterministic queries: masses from a linear congruential generator (Numerical Recipes
// constants), many exact mass ties across files to exercise the tie-breaks.
std::vector<Query> make_queries(size_t n) {
  std::vector<Query> out;
  uint32_t state = 12345;
  for (size_t i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    Query q;
    q.file_index = static_cast<uint32_t>(i % 3);
    q.spectrum_index = i / 3;
    q.charge = 2 + static_cast<int>(i % 2);
    q.native_id = "scan=" + std::to_string(i);
    q.scan = static_cast<int64_t>(i);
    q.neutral_mass = 500.0 + (state % 2000) * 0.5;  // ties every ~2000 queries per value
    q.precursor_mz = (q.neutral_mass + q.charge * 1.007276466621) / q.charge;
    for (int p = 0; p < 20; ++p) q.peaks.push_back({100.0f + p, static_cast<float>(p)});
    out.push_back(std::move(q));
  }
  return out;
}

std::vector<std::string> keys(const std::vector<Query>& qs) {
  std::vector<std::string> k;
  for (const Query& q : qs) k.push_back(q.native_id);
  return k;
}

class RunQueueTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ionflow-run-queue-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

// Takes every run to its end in chunks of `chunk`, checking each run is sorted and has the size
// the cut visitor saw; returns the runs' queries in serving order.
std::vector<std::vector<Query>> drain(RunQueue& queue, size_t chunk,
                                      const std::vector<size_t>& cut_sizes) {
  std::vector<std::vector<Query>> runs;
  while (queue.runs() > 0) {
    std::vector<Query> run;
    const uint64_t size = queue.front_left();
    while (queue.front_left() > 0) {
      const size_t before = queue.runs();
      EXPECT_GT(queue.take(chunk, run), 0u);
      if (queue.runs() != before) break;  // the front run ended: take never crosses it
    }
    EXPECT_EQ(run.size(), size);
    EXPECT_TRUE(std::is_sorted(run.begin(), run.end(), query_order_less));
    runs.push_back(std::move(run));
  }
  EXPECT_EQ(runs.size(), cut_sizes.size());
  for (size_t i = 0; i < std::min(runs.size(), cut_sizes.size()); ++i) {
    EXPECT_EQ(runs[i].size(), cut_sizes[i]) << "run " << i;
  }
  return runs;
}

TEST_F(RunQueueTest, TinyBudgetSpillsSortedRunsServedInCutOrder) {
  const std::vector<Query> input = make_queries(5000);
  std::string spill_dir;
  std::vector<size_t> cut_sizes;
  std::vector<std::vector<Query>> runs;
  {
    // ~4 KB budget: about 13 queries per run -> hundreds of spilled runs.
    RunQueue queue(dir_.string(), 4096);
    auto visit = [&](const std::vector<Query>& sorted) {
      EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end(), query_order_less));
      cut_sizes.push_back(sorted.size());
    };
    size_t cuts = 0;
    for (const Query& q : input) cuts += queue.add(q, visit) ? 1 : 0;
    EXPECT_EQ(cuts, queue.stats().runs_spilled);
    EXPECT_TRUE(queue.cut(visit));  // the rest stays in RAM
    EXPECT_FALSE(queue.cut(visit));
    EXPECT_EQ(queue.held(), 0u);
    EXPECT_EQ(queue.stats().queries, 5000u);
    EXPECT_GT(queue.stats().runs_spilled, 300u);
    EXPECT_EQ(queue.stats().runs, queue.stats().runs_spilled + 1);
    EXPECT_GT(queue.stats().bytes_spilled, 0u);
    EXPECT_LE(queue.stats().peak_memory_bytes, 4096u + query_memory_bytes(input.front()));
    spill_dir = queue.spill_directory();
    EXPECT_TRUE(std::filesystem::exists(spill_dir));
    runs = drain(queue, 7, cut_sizes);
    // Each spilled run's file is removed once it is read.
    EXPECT_TRUE(std::filesystem::is_empty(spill_dir));
    EXPECT_EQ(queue.take(7, runs.back()), 0u);
  }
  EXPECT_FALSE(std::filesystem::exists(spill_dir));  // removed by the destructor
  // The runs hold the queries in arrival order of their cuts: concatenated, each run sorted,
  // they are exactly the input, spectra and peaks intact.
  std::vector<Query> got;
  size_t start = 0;
  for (const std::vector<Query>& run : runs) {
    std::vector<Query> expected(input.begin() + start, input.begin() + start + run.size());
    std::sort(expected.begin(), expected.end(), query_order_less);
    EXPECT_EQ(keys(run), keys(expected));
    start += run.size();
    got.insert(got.end(), run.begin(), run.end());
  }
  ASSERT_EQ(got.size(), 5000u);
  for (const Query& q : got) {
    EXPECT_EQ(q.peaks.size(), 20u);
    EXPECT_EQ(q.peaks[19].intensity, 19.0f);
  }
}

// Runs cut in RAM count against the budget until they are taken: queries added meanwhile are
// spilled once RAM holds more than the budget.
TEST_F(RunQueueTest, RunsInMemoryCountAgainstTheBudgetUntilTaken) {
  const std::vector<Query> input = make_queries(300);
  const uint64_t each = query_memory_bytes(Query(input.front()));  // a copy, as add() holds
  RunQueue queue(dir_.string(), 100 * each + each / 2);            // 100 queries fit
  std::vector<size_t> cut_sizes;
  auto visit = [&](const std::vector<Query>& sorted) { cut_sizes.push_back(sorted.size()); };
  for (size_t i = 0; i < 60; ++i) EXPECT_FALSE(queue.add(input[i], visit));
  EXPECT_TRUE(queue.cut(visit));  // 60 in RAM, in a run
  size_t i = 60;
  while (!queue.add(input[i++], visit)) {
  }
  EXPECT_EQ(i, 101u);  // the 41st held query passed the budget: those 41 were spilled
  EXPECT_EQ(queue.stats().runs_spilled, 1u);
  std::vector<Query> taken;
  EXPECT_EQ(queue.take(50, taken), 50u);  // frees 50 queries' room
  for (size_t n = 0; n < 80; ++n) EXPECT_FALSE(queue.add(input[i++], visit));
  EXPECT_EQ(queue.held(), 80u);
  EXPECT_TRUE(queue.cut(visit));
  EXPECT_EQ(cut_sizes, (std::vector<size_t>{60, 41, 80}));
  EXPECT_EQ(queue.runs(), 3u);
  EXPECT_EQ(queue.front_left(), 10u);
  drain(queue, 1000, {10, 41, 80});
}

TEST_F(RunQueueTest, NothingHeldCutsNothing) {
  RunQueue queue(dir_.string(), 1 << 20);
  int calls = 0;
  EXPECT_FALSE(queue.cut([&](const std::vector<Query>&) { ++calls; }));
  EXPECT_EQ(calls, 0);
  std::vector<Query> out;
  EXPECT_EQ(queue.take(10, out), 0u);
  EXPECT_EQ(queue.front_left(), 0u);
}

// A process killed with -9 leaves its spill folder; the next spill in that directory removes
// it, but not a live process's folder nor anything else.
TEST_F(RunQueueTest, TheFirstSpillRemovesTheFoldersOfDeadProcesses) {
  EXPECT_EQ(sort_spill_owner("ionflow-sort-4194305-a1B2c3"), 4194305);
  EXPECT_EQ(sort_spill_owner("ionflow-sort-a1B2c3"), 0);  // the old name: no process
  EXPECT_EQ(sort_spill_owner("ionflow-sorted-runs"), 0);
  // Above Linux's largest pid (2^22): no such process.
  const auto dead = dir_ / "ionflow-sort-4194305-a1B2c3";
  const auto live = dir_ / ("ionflow-sort-" + std::to_string(::getppid()) + "-d4E5f6");
  const auto other = dir_ / "ionflow-sort-notes";
  for (const auto& d : {dead, live, other}) {
    std::filesystem::create_directories(d);
    std::ofstream(d / "run-000000.zst") << "x";
  }
  {
    RunQueue queue(dir_.string(), 4096);
    for (const Query& q : make_queries(200)) queue.add(q, nullptr);
    EXPECT_GT(queue.stats().runs_spilled, 0u);
    EXPECT_EQ(queue.spill_directory().rfind(
                  (dir_ / ("ionflow-sort-" + std::to_string(::getpid()) + "-")).string(), 0),
              0u)
        << queue.spill_directory();
  }
  EXPECT_FALSE(std::filesystem::exists(dead));
  EXPECT_TRUE(std::filesystem::exists(live / "run-000000.zst"));
  EXPECT_TRUE(std::filesystem::exists(other / "run-000000.zst"));
}

TEST_F(RunQueueTest, LargeBudgetNeverSpills) {
  std::vector<Query> input = make_queries(1000);
  RunQueue queue(dir_.string(), 1ull << 30);
  for (const Query& q : input) EXPECT_FALSE(queue.add(q, nullptr));
  EXPECT_TRUE(queue.cut(nullptr));
  EXPECT_EQ(queue.stats().runs_spilled, 0u);
  EXPECT_EQ(queue.spill_directory(), "");
  std::vector<Query> got;
  EXPECT_EQ(queue.take(5000, got), 1000u);
  std::sort(input.begin(), input.end(), query_order_less);
  EXPECT_EQ(keys(got), keys(input));
  EXPECT_EQ(queue.runs(), 0u);
}

TEST_F(RunQueueTest, TieBreakByFileSpectrumCharge) {
  Query a, b, c;
  a.neutral_mass = b.neutral_mass = c.neutral_mass = 1000.0;
  a.file_index = 1;
  b.file_index = 0, b.spectrum_index = 5, b.charge = 3;
  c.file_index = 0, c.spectrum_index = 5, c.charge = 2;
  EXPECT_TRUE(query_order_less(c, b));
  EXPECT_TRUE(query_order_less(b, a));
  EXPECT_FALSE(query_order_less(a, a));
}

}  // namespace
}  // namespace ionflow
