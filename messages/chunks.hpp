// The scorer interface, message-based so that a scorer on another machine could join:
//   QueryChunk  splitter -> scorer pool -> scorer: at most JobSpec::chunk_size queries,
//               consecutive in one of the sorter's sorted runs (ascending precursor neutral
//               mass). `seq` numbers chunks 0, 1, 2, ... per job; `part` names the run's index
//               (the job's JobRegistry entry it is scored against: IndexPlan, job_events.hpp).
//   PsmBatch    the reply: the ranked PSMs of every query of the chunk, in query order, plus the
//               scorer's busy time for the job's stage statistics.
// A scorer needs the job's PeptideIndex and SearchParameters; local scorers find them by `job`
// in the runtime's job registry. Plain value types; CAF inspectors in messages/registration.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scoring/psm.hpp"
#include "scoring/query.hpp"

namespace ionflow {

struct QueryChunk {
  uint64_t job = 0;
  uint64_t seq = 0;
  uint32_t part = 0;
  std::vector<Query> queries;
};

struct PsmBatch {
  uint64_t job = 0;
  uint64_t seq = 0;  // the QueryChunk's seq
  std::vector<Psm> psms;
  uint64_t queries_scored = 0;
  double scorer_busy_seconds = 0.0;
  // Set by the coordinator's pool: the remote scorer node that scored the chunk ("" = a scorer
  // of this process), for results.json's scorer_nodes.
  std::string scorer_node;
};

}  // namespace ionflow
