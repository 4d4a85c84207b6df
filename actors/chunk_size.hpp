// How a job's sorted queries are cut into QueryChunks (splitter -> scorer). Plain arithmetic, no
// actors.
//
// The sorter plans the chunks once every query is in (plan_chunks), from an estimate of each
// query's scoring time (estimated_scoring_cost): guided self-scheduling (Polychronopoulos & Kuck
// 1987, IEEE Trans. Comput. 36:1425) on estimated cost rather than on query count. Each chunk
// takes the next queries in sorted order until its estimated cost reaches 1/(2 × scorers) of the
// cost still unplanned, or the configured chunk size (JobSpec::chunk_size, Mascot's
// SplitNumberOfQueries), or, for the last ones, a floor of kMinAutoChunkQueries average queries.
// Chunks shrink toward the end of the job, so the scorers finish within a small chunk of each
// other even though the queries come in ascending precursor mass and a heavy query takes several
// times as long as a light one (BSA2: a 2,500 Da charge-5 query ~0.4 ms, a 1,000 Da charge-2 one
// ~0.07 ms). With 8 chunks of equal query count the last, heaviest chunk of BSA2 took 26-35 ms
// against 12-15 ms for the others, and one scorer ran it alone at the end of the job.
// Results never depend on the chunks (tests/actors/search_runtime_test.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "scoring/ion_series.hpp"

namespace ionflow {

// Smallest chunk of the plan, in average queries (a chunk costs one message round trip and one
// scorer wake-up, ~tens of microseconds; 32 queries are a few milliseconds of scoring).
inline constexpr uint32_t kMinAutoChunkQueries = 32;
// A chunk's cost target is the unplanned cost / (kGuidedShare × scorers).
inline constexpr uint64_t kGuidedShare = 2;
// Fixed part of a query's estimated cost, in the unit of the variable part (Da × fragment
// charges): the least-squares fit of the 1161 BSA2 queries' scoring times, t ≈ 36 µs +
// 0.033 µs × neutral mass (Da) × fragment charges, has 36 / 0.033 ≈ 1100.
inline constexpr double kFixedQueryCostDa = 1100.0;

// Estimated time to score one query of `neutral_mass_da` (Da) and precursor `charge`, in
// arbitrary units (only ratios matter): kFixedQueryCostDa + mass × fragment charges (charges
// per fragment_charge_limit with SearchParameters::max_fragment_charge `max_fragment_charge`).
// A peptide's fragments, and so its scoring time, grow with its mass and with the fragment
// charges scored.
inline double estimated_scoring_cost(double neutral_mass_da, int charge, int max_fragment_charge) {
  const double mass = neutral_mass_da > 0.0 ? neutral_mass_da : 0.0;
  return kFixedQueryCostDa + mass * fragment_charge_limit(charge, max_fragment_charge);
}

// The chunk plan: query counts of the chunks, in order, for queries of estimated `costs` (in
// sorted order, each >= 0), `configured` most queries per chunk (0 counts as 1) and `scorers`
// scorers (< 1 counts as 1). The counts sum to costs.size(); each is in [1, configured]. Empty
// for no queries.
inline std::vector<uint32_t> plan_chunks(const std::vector<double>& costs, uint32_t configured,
                                         int scorers) {
  std::vector<uint32_t> plan;
  if (costs.empty()) return plan;
  const uint32_t cap = std::max<uint32_t>(1, configured);
  const double share = static_cast<double>(kGuidedShare * std::max(1, scorers));
  double remaining = 0.0;
  for (double c : costs) remaining += c;
  const double floor_cost =
      remaining / static_cast<double>(costs.size()) * static_cast<double>(kMinAutoChunkQueries);
  size_t next = 0;
  while (next < costs.size()) {
    const double target = std::max(remaining / share, floor_cost);
    double cost = 0.0;
    uint32_t count = 0;
    while (next < costs.size() && count < cap && (count == 0 || cost < target)) {
      cost += costs[next++];
      ++count;
    }
    remaining -= cost;
    plan.push_back(count);
  }
  return plan;
}

}  // namespace ionflow
