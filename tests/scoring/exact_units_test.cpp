// ExactUnits (scoring/exact_units.hpp): a sum of table values as integers is the double sum of
// the same values added one by one, in any order, to the bit — whenever exact_for() says so —
// and exact_for() refuses tables whose values span too many binades for one unit.
#include "scoring/exact_units.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "scoring_test_support.hpp"

namespace ionflow {
namespace {

uint64_t next(uint64_t& state) {
  return scoring_test::next_random(state);
}

// Sums `picks` of `values` one by one as doubles, in the order given.
double ordered_sum(const std::vector<float>& values, const std::vector<size_t>& picks) {
  double sum = 0.0;
  for (size_t i : picks) sum += values[i];
  return sum;
}

TEST(ExactUnits, IntegerSumsEqualTheDoubleSumInAnyOrder) {
  uint64_t state = 99;
  for (int trial = 0; trial < 300; ++trial) {
    // XCorr-like values: 0, small, large, of both signs, with 24 significant bits.
    std::vector<float> values(1 + next(state) % 300);
    for (float& v : values) {
      const double u = double(next(state)) / double(uint64_t{1} << 53);
      v = next(state) % 5 == 0 ? 0.0f : static_cast<float>((u - 0.3) * 50.0);
      if (v != 0.0f && std::abs(v) < 1e-3f) v = 0.0f;
    }
    ExactUnits units;
    units.assign(values.data(), values.size());
    std::vector<size_t> picks(1 + next(state) % 300);
    for (size_t& p : picks) p = next(state) % (values.size() + 1);  // index n: the 0
    values.push_back(0.0f);
    ASSERT_TRUE(units.exact_for(picks.size())) << "trial " << trial;
    int64_t total = 0;
    for (size_t i : picks) total += units[i];
    const double exact = units.to_double(total);
    EXPECT_EQ(exact, ordered_sum(values, picks));  // bit-equal
    std::reverse(picks.begin(), picks.end());
    EXPECT_EQ(exact, ordered_sum(values, picks));
    std::sort(picks.begin(), picks.end());
    EXPECT_EQ(exact, ordered_sum(values, picks));
  }
}

TEST(ExactUnits, RefusesWhatOneUnitCannotHold) {
  ExactUnits units;
  const std::vector<float> wide = {100.0f, 1e-7f};  // 2^6.6 and 2^-23.3: 30 binades apart
  units.assign(wide.data(), wide.size());
  EXPECT_FALSE(units.exact_for(1));
  const std::vector<float> subnormal = {1.0f, std::numeric_limits<float>::denorm_min()};
  units.assign(subnormal.data(), subnormal.size());
  EXPECT_FALSE(units.exact_for(1));
  const std::vector<float> infinite = {1.0f, std::numeric_limits<float>::infinity()};
  units.assign(infinite.data(), infinite.size());
  EXPECT_FALSE(units.exact_for(1));
  const std::vector<float> zeros = {0.0f, -0.0f};
  units.assign(zeros.data(), zeros.size());
  EXPECT_TRUE(units.exact_for(1000000));
  EXPECT_EQ(units.to_double(units[0] + units[1] + units[2]), 0.0);
}

// 100 and 2^-16 (22.6 binades apart, within the 28 allowed): the unit is 2^-39, 100 is 100·2^39
// units, so up to 2^53 / (100·2^39 + 1) = 163 values are exact, not 164.
TEST(ExactUnits, CountBoundFollowsTheLargestValue) {
  const std::vector<float> values = {100.0f, 1.0f / 65536.0f};
  ExactUnits units;
  units.assign(values.data(), values.size());
  EXPECT_EQ(units[0], int64_t{100} << 39);
  EXPECT_EQ(units[1], int64_t{1} << 23);
  EXPECT_EQ(units[2], 0);
  EXPECT_TRUE(units.exact_for(163));
  EXPECT_FALSE(units.exact_for(164));
  EXPECT_EQ(units.to_double(units[0] + units[1]), 100.0 + 1.0 / 65536.0);
}

}  // namespace
}  // namespace ionflow
