// The chunk plan (scoring/chunk_plan.hpp): estimated query costs, guided chunks that shrink toward
// the end of a job, heavy queries in smaller chunks, the configured size as a cap.
#include <gtest/gtest.h>

#include <numeric>

#include "scoring/chunk_plan.hpp"

namespace ionflow {
namespace {

uint64_t sum(const std::vector<uint32_t>& plan) {
  return std::accumulate(plan.begin(), plan.end(), uint64_t{0});
}

TEST(ChunkPlan, EstimatedCostGrowsWithMassAndFragmentCharges) {
  // 1100 + mass × fragment charges (charge 2 -> 1 fragment charge, charge 5 -> 4).
  EXPECT_DOUBLE_EQ(estimated_scoring_cost(1000.0, 2, 0), 2100.0);
  EXPECT_DOUBLE_EQ(estimated_scoring_cost(2500.0, 5, 0), 11100.0);
  EXPECT_DOUBLE_EQ(estimated_scoring_cost(1000.0, 2, 3), 4100.0);  // configured 3
  EXPECT_DOUBLE_EQ(estimated_scoring_cost(-5.0, 2, 0), 1100.0);    // no negative cost
}

TEST(ChunkPlan, QueryCostsAreBinnedByMassInSortedOrder) {
  QueryCosts costs;
  costs.add(2000.1, 3, 0);   // 1100 + 2000.1 x 2
  costs.add(1000.0, 2, 0);   // 1100 + 1000 x 1, bin 4000
  costs.add(1000.2, 2, 0);   // same 0.25 Da bin
  costs.add(-3.0, 2, 0);     // bin 0
  costs.add(20000.0, 2, 0);  // above 16,384 Da: the last bin
  const std::vector<CostRun> runs = costs.runs();
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[0].count, 1u);
  EXPECT_DOUBLE_EQ(runs[0].cost_each, 1100.0);
  EXPECT_EQ(runs[1].count, 2u);
  EXPECT_DOUBLE_EQ(runs[1].cost_each, 2100.1);  // (2100 + 2100.2) / 2
  EXPECT_DOUBLE_EQ(runs[2].cost_each, 5100.2);
  EXPECT_DOUBLE_EQ(runs[3].cost_each, 21100.0);
  EXPECT_TRUE(QueryCosts().runs().empty());
}

TEST(ChunkPlan, EqualQueriesGetGuidedChunksDownToTheFloor) {
  // 1000 equal queries, 2 scorers: each chunk a quarter of what is left (250, 750/4 -> 188,
  // ...) until the floor of 32 queries; the last takes the rest.
  const std::vector<uint32_t> expected = {250, 188, 141, 106, 79, 59, 45, 33, 32, 32, 32, 3};
  EXPECT_EQ(plan_chunks({{1000, 1.0}}, 1000, 2), expected);
  // 100 queries: a quarter is below the floor at once.
  EXPECT_EQ(plan_chunks({{100, 1.0}}, 1000, 2), (std::vector<uint32_t>{32, 32, 32, 4}));
}

TEST(ChunkPlan, HeavyQueriesGoInSmallerChunks) {
  // 100 queries of cost 1, then 20 of cost 10 (total 300; floor 300/120 × 32 = 80): the chunks
  // cost 80, 80, 80, 60, but hold 80, 26, 8 and 6 queries.
  EXPECT_EQ(plan_chunks({{100, 1.0}, {20, 10.0}}, 1000, 2), (std::vector<uint32_t>{80, 26, 8, 6}));
}

TEST(ChunkPlan, LargeJobKeepsTheConfiguredSizeUntilItsTail) {
  // The 683,905-query scale set on 2 scorers: chunks of 1000 until the last few thousand.
  const std::vector<uint32_t> plan = plan_chunks({{683905, 1.0}}, 1000, 2);
  EXPECT_EQ(sum(plan), 683905u);
  EXPECT_EQ(plan.size(), 696u);
  EXPECT_EQ(plan.front(), 1000u);
  EXPECT_EQ(plan[plan.size() - 12], 309u);  // the first below the cap: 1237 left / 4
  EXPECT_EQ(plan.back(), 27u);
  for (uint32_t n : plan) EXPECT_LE(n, 1000u);
}

TEST(ChunkPlan, ConfiguredSizeIsAnUpperBoundAndArgumentsAreClamped) {
  EXPECT_EQ(plan_chunks({{20, 1.0}}, 7, 2), (std::vector<uint32_t>{7, 7, 6}));
  EXPECT_EQ(plan_chunks({{3, 1.0}}, 0, 2),  // 0 counts as 1
            (std::vector<uint32_t>{1, 1, 1}));
  EXPECT_EQ(plan_chunks({{100, 1.0}}, 1000, 0),  // scorers < 1 counts as 1
            (std::vector<uint32_t>{50, 32, 18}));
  EXPECT_TRUE(plan_chunks({}, 1000, 2).empty());
  EXPECT_TRUE(plan_chunks({{0, 5.0}}, 1000, 2).empty());
}

}  // namespace
}  // namespace ionflow
