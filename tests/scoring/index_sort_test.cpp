// sort_records (scoring/index_sort.hpp): records of several slices come out in `less` order
// whatever the slicing and thread count, and a set cancel flag stops the sort with
// BuildCancelled (a semi-enzymatic sort ran 12-20 s past a cancel before). mass_order: the
// permutation of a stable sort on the exact masses, on any thread count, and cancellable.
#include "scoring/index_sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <numeric>
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

// Masses in runs that share their top 32 bits (~1 ppm) and exact ties, as modified forms and
// isomers give: 500-5,000 Da, every 7th a copy of an earlier one, many within 1e-7 Da.
std::vector<double> crowded_masses(size_t count) {
  std::vector<double> masses;
  uint64_t state = 88172645463325252ull;
  for (size_t i = 0; i < count; ++i) {
    const uint64_t r = scoring_test::next_random(state);
    if (i % 7 == 6) {
      masses.push_back(masses[r % masses.size()]);
    } else {
      const double base = 500.0 + static_cast<double>(r % 4500);
      masses.push_back(base + static_cast<double>((r >> 20) % 1000) * 1e-7);
    }
  }
  return masses;
}

TEST(IndexSort, MassOrderIsAStableSortOfTheExactMassesOnAnyThreadCount) {
  const std::vector<double> masses = crowded_masses(200'000);
  std::vector<uint32_t> expected(masses.size());
  std::iota(expected.begin(), expected.end(), 0u);
  std::stable_sort(expected.begin(), expected.end(),
                   [&](uint32_t a, uint32_t b) { return masses[a] < masses[b]; });
  for (int threads : {1, 2, 3, 4}) {
    EXPECT_EQ(index_build::mass_order(masses, threads), expected) << threads << " threads";
  }
  const std::atomic<bool> cancel{true};
  EXPECT_THROW(index_build::mass_order(masses, 2, &cancel), BuildCancelled);
}

}  // namespace
}  // namespace ionflow
