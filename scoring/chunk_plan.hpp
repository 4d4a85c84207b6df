// How a job's sorted queries are cut into QueryChunks (splitter -> scorer). Plain arithmetic, no
// actors.
//
// The sorter plans the chunks once every query is in (plan_chunks), from an estimate of each
// query's scoring time (estimated_scoring_cost, summed per mass bin in QueryCosts): guided
// self-scheduling (Polychronopoulos & Kuck 1987, IEEE Trans. Comput. 36:1425) on estimated cost
// rather than on query count. Each chunk takes the next queries in sorted order until its estimated
// cost reaches 1/(2 × scorers) of the cost still unplanned, or the configured chunk size
// (JobSpec::chunk_size, Mascot's SplitNumberOfQueries), or, for the last ones, a floor of
// kMinAutoChunkQueries average queries. Chunks shrink toward the end of the job, so the scorers
// finish within a small chunk of each other even though the queries come in ascending precursor
// mass and a heavy query takes several times as long as a light one (BSA2: a 2,500 Da charge-5
// query ~0.4 ms, a 1,000 Da charge-2 one ~0.07 ms). With 8 chunks of equal query count the last,
// heaviest chunk of BSA2 took 26-35 ms against 12-15 ms for the others, and one scorer ran it alone
// at the end of the job. Results never depend on the chunks (tests/actors/search_runtime_test.cpp).
#pragma once

#include <algorithm>
#include <cmath>
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

// A run of queries next to each other in sorted order, each of estimated cost `cost_each`.
struct CostRun {
  uint64_t count = 0;
  double cost_each = 0.0;
};

// The estimated costs of a job's queries in sorted (ascending neutral mass) order, at fixed
// memory: queries binned by neutral mass (kCostBinDa bins below kCostBinsMaxDa, heavier ones in
// the last bin) with their count and summed cost; a bin's queries count at their average cost.
// 768 KiB per job instead of 8 bytes per query (5.5 MB held through parsing on the 684k scale
// set).
class QueryCosts {
 public:
  static constexpr double kCostBinDa = 0.25;
  static constexpr double kCostBinsMaxDa = 16384.0;

  void add(double neutral_mass_da, int charge, int max_fragment_charge) {
    constexpr size_t kBins = static_cast<size_t>(kCostBinsMaxDa / kCostBinDa);
    if (counts_.empty()) {
      counts_.assign(kBins, 0);
      costs_.assign(kBins, 0.0);
    }
    const double x = neutral_mass_da / kCostBinDa;
    const size_t bin = x > 0.0 ? std::min(kBins - 1, static_cast<size_t>(x)) : 0;
    ++counts_[bin];
    costs_[bin] += estimated_scoring_cost(neutral_mass_da, charge, max_fragment_charge);
  }
  // The non-empty bins in ascending mass, as runs.
  std::vector<CostRun> runs() const {
    std::vector<CostRun> out;
    for (size_t b = 0; b < counts_.size(); ++b) {
      if (counts_[b] != 0) out.push_back({counts_[b], costs_[b] / counts_[b]});
    }
    return out;
  }

 private:
  std::vector<uint32_t> counts_;
  std::vector<double> costs_;
};

// The chunk plan: query counts of the chunks, in order, for queries of estimated costs `runs`
// (in sorted order, costs >= 0), `configured` most queries per chunk (0 counts as 1) and
// `scorers` scorers (< 1 counts as 1). The counts sum to the runs' counts; each is in
// [1, configured]. Empty for no queries.
inline std::vector<uint32_t> plan_chunks(const std::vector<CostRun>& runs, uint32_t configured,
                                         int scorers) {
  std::vector<uint32_t> plan;
  const uint32_t cap = std::max<uint32_t>(1, configured);
  const double share = static_cast<double>(kGuidedShare * std::max(1, scorers));
  uint64_t queries = 0;
  double remaining = 0.0;
  for (const CostRun& r : runs) {
    queries += r.count;
    remaining += static_cast<double>(r.count) * r.cost_each;
  }
  if (queries == 0) return plan;
  const double floor_cost =
      remaining / static_cast<double>(queries) * static_cast<double>(kMinAutoChunkQueries);
  size_t run = 0;
  uint64_t used = 0;  // of runs[run], already planned
  while (run < runs.size()) {
    const double target = std::max(remaining / share, floor_cost);
    double cost = 0.0;
    uint64_t count = 0;
    // Queries are taken until the chunk's cost reaches the target (or the cap).
    while (run < runs.size() && count < cap && (count == 0 || cost < target)) {
      const uint64_t left = runs[run].count - used;
      const double each = runs[run].cost_each;
      uint64_t take = left;
      if (each > 0.0) {
        const double needed = std::ceil((target - cost) / each);
        take = needed < 1.0                         ? 1
               : needed < static_cast<double>(left) ? static_cast<uint64_t>(needed)
                                                    : left;
      }
      take = std::min<uint64_t>(take, cap - count);
      cost += static_cast<double>(take) * each;
      count += take;
      used += take;
      if (used == runs[run].count) ++run, used = 0;
    }
    remaining -= cost;
    plan.push_back(static_cast<uint32_t>(count));
  }
  return plan;
}

}  // namespace ionflow
