// sort_records (scoring/index_sort.hpp): records of several slices come out in `less` order
// whatever the slicing and thread count, and a set cancel flag stops the sort with
// BuildCancelled (a semi-enzymatic sort ran 12-20 s past a cancel before).
#include "scoring/index_sort.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "scoring_test_support.hpp"

namespace ionflow {
namespace {

using index_build::Record;

// `count` records whose key8 spells random upper-case letters, over `parts` slices.
std::vector<std::vector<Record>> random_slices(size_t count, size_t parts) {
  std::vector<std::vector<Record>> slices(parts);
  uint64_t state = 88172645463325252ull;
  for (size_t i = 0; i < count; ++i) {
    uint64_t key = 0;
    for (int c = 0; c < 8; ++c) {
      key = (key << 8) | ('A' + scoring_test::next_random(state) % 26);
    }
    Record r;
    r.key8 = key;
    r.start = static_cast<uint32_t>(i);
    slices[i % parts].push_back(r);
  }
  return slices;
}

bool by_key_then_start(const Record& a, const Record& b) {
  return a.key8 != b.key8 ? a.key8 < b.key8 : a.start < b.start;
}

TEST(IndexSort, RecordsComeOutInOrderOnAnyThreadCount) {
  for (int threads : {1, 2, 3}) {
    auto slices = random_slices(50'000, 8);
    const std::vector<Record> sorted =
        index_build::sort_records(slices, threads, by_key_then_start);
    ASSERT_EQ(sorted.size(), 50'000u);
    EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end(), by_key_then_start)) << threads;
  }
}

TEST(IndexSort, ASetCancelFlagStopsTheSort) {
  auto slices = random_slices(10'000, 4);
  const std::atomic<bool> cancel{true};
  EXPECT_THROW(index_build::sort_records(slices, 2, by_key_then_start, &cancel), BuildCancelled);
  auto again = random_slices(10'000, 4);
  const std::atomic<bool> go{false};
  EXPECT_EQ(index_build::sort_records(again, 2, by_key_then_start, &go).size(), 10'000u);
}

}  // namespace
}  // namespace ionflow
