// How many queries go into one QueryChunk (splitter -> scorer). Plain arithmetic, no actors.
//
// The configured chunk size (JobSpec::chunk_size, default 1000, Mascot's SplitNumberOfQueries)
// is an upper bound. A small job gets smaller chunks so that every scorer has work: with 1119
// queries and 2 scorers, chunks of 1000 left one scorer 1000 queries and the other 119 (BSA1
// scored in 0.21 s wall instead of ~0.12 s). Results never depend on the chunk size (tested
// with 1, 7 and 1000 in tests/actors/search_runtime_test.cpp).
#pragma once

#include <algorithm>
#include <cstdint>

namespace ionflow {

// Smallest chunk chosen automatically (a chunk costs one message round trip and one
// scorer wake-up, ~tens of microseconds; 32 queries are a few milliseconds of scoring).
inline constexpr uint32_t kMinAutoChunkQueries = 32;
// Chunks per scorer aimed for in a small job, so that uneven chunks still balance.
inline constexpr uint64_t kChunksPerScorer = 4;

// Queries per chunk for a job of `total_queries` sorted queries and `scorers` scorers (< 1
// counts as 1): min(configured, max(ceil(total / (4 * scorers)), min(32, configured))).
// `configured` 0 counts as 1. Returns >= 1.
inline uint32_t effective_chunk_size(uint64_t total_queries, uint32_t configured, int scorers) {
  const uint32_t cap = std::max<uint32_t>(1, configured);
  const uint64_t share = kChunksPerScorer * static_cast<uint64_t>(std::max(1, scorers));
  const uint64_t per_chunk = (total_queries + share - 1) / share;
  const uint64_t floor = std::min(kMinAutoChunkQueries, cap);
  return static_cast<uint32_t>(std::clamp<uint64_t>(per_chunk, floor, cap));
}

}  // namespace ionflow
