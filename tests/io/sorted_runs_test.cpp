#include "io/sorted_runs.hpp"

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

class SortedRunsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ionflow-sorted-runs-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(SortedRunsTest, TinyBudgetGivesSameOrderAsInMemorySort) {
  std::vector<Query> input = make_queries(5000);
  std::vector<Query> expected = input;
  std::sort(expected.begin(), expected.end(), query_order_less);

  std::string spill_dir;
  std::vector<Query> got;
  {
    // ~4 KB budget: about 13 queries per run -> hundreds of runs, cascade merges included.
    SortedRuns sorter(dir_.string(), 4096);
    for (const Query& q : input) sorter.add(q);
    sorter.finish();
    EXPECT_EQ(sorter.stats().queries, 5000u);
    EXPECT_GT(sorter.stats().runs_spilled, SortedRuns::kMaxFanIn);
    EXPECT_GT(sorter.stats().bytes_spilled, 0u);
    spill_dir = sorter.spill_directory();
    EXPECT_TRUE(std::filesystem::exists(spill_dir));
    while (sorter.take(7, got) > 0) {
    }
  }
  EXPECT_FALSE(std::filesystem::exists(spill_dir));  // removed by the destructor
  ASSERT_EQ(got.size(), 5000u);
  EXPECT_EQ(keys(got), keys(expected));
  EXPECT_EQ(got.front().neutral_mass, 500.0);
  EXPECT_EQ(got.back().neutral_mass, 500.0 + 1999 * 0.5);
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].peaks.size(), 20u);
    EXPECT_EQ(got[i].peaks[19].intensity, 19.0f);
  }
}

// A process killed with -9 leaves its spill folder; the next spill in that directory removes
// it, but not a live process's folder nor anything else.
TEST_F(SortedRunsTest, TheFirstSpillRemovesTheFoldersOfDeadProcesses) {
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
    SortedRuns sorter(dir_.string(), 4096);
    for (const Query& q : make_queries(200)) sorter.add(q);
    sorter.finish();
    EXPECT_GT(sorter.stats().runs_spilled, 0u);
    EXPECT_EQ(sorter.spill_directory().rfind(
                  (dir_ / ("ionflow-sort-" + std::to_string(::getpid()) + "-")).string(), 0),
              0u)
        << sorter.spill_directory();
  }
  EXPECT_FALSE(std::filesystem::exists(dead));
  EXPECT_TRUE(std::filesystem::exists(live / "run-000000.zst"));
  EXPECT_TRUE(std::filesystem::exists(other / "run-000000.zst"));
}

TEST_F(SortedRunsTest, LargeBudgetNeverSpills) {
  std::vector<Query> input = make_queries(1000);
  SortedRuns sorter(dir_.string(), 1ull << 30);
  for (const Query& q : input) sorter.add(q);
  sorter.finish();
  EXPECT_EQ(sorter.stats().runs_spilled, 0u);
  EXPECT_EQ(sorter.spill_directory(), "");
  std::vector<Query> got;
  EXPECT_EQ(sorter.take(5000, got), 1000u);
  std::sort(input.begin(), input.end(), query_order_less);
  EXPECT_EQ(keys(got), keys(input));
  Query q;
  EXPECT_FALSE(sorter.next(q));
}

TEST_F(SortedRunsTest, TieBreakByFileSpectrumCharge) {
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
