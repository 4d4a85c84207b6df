// effective_chunk_size: the configured chunk size for large jobs, smaller chunks (at least 4
// per scorer, at least 32 queries) for small ones.
#include <gtest/gtest.h>

#include "actors/chunk_size.hpp"

namespace ionflow {
namespace {

TEST(ChunkSize, LargeJobKeepsTheConfiguredSize) {
  // The 683 905-query scale set on 2 scorers: ceil(683905 / 8) = 85 489 > 1000.
  EXPECT_EQ(effective_chunk_size(683905, 1000, 2), 1000u);
  EXPECT_EQ(effective_chunk_size(8000, 1000, 2), 1000u);
}

TEST(ChunkSize, SmallJobIsSpreadOverTheScorers) {
  // BSA1: 1119 queries, 2 scorers -> ceil(1119 / 8) = 140 queries, 8 chunks.
  EXPECT_EQ(effective_chunk_size(1119, 1000, 2), 140u);
  // Ecoli: 139 queries, 2 scorers -> ceil(139 / 8) = 18, raised to the floor of 32.
  EXPECT_EQ(effective_chunk_size(139, 1000, 2), 32u);
  EXPECT_EQ(effective_chunk_size(1119, 1000, 4), 70u);
  EXPECT_EQ(effective_chunk_size(1119, 1000, 0), 280u);  // scorers < 1 counts as 1
}

TEST(ChunkSize, ConfiguredSizeIsAnUpperBoundAndFloorNeverExceedsIt) {
  EXPECT_EQ(effective_chunk_size(1119, 7, 2), 7u);
  EXPECT_EQ(effective_chunk_size(10, 1, 2), 1u);
  EXPECT_EQ(effective_chunk_size(10, 0, 2), 1u);  // 0 counts as 1
  EXPECT_EQ(effective_chunk_size(0, 1000, 2), 32u);
}

}  // namespace
}  // namespace ionflow
