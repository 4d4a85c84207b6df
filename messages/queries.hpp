// Query messages of the hops parser -> sorter -> splitter.
//   QueryBatch   parser -> sorter: the prepared queries of one block (request; empty reply).
//                sorter -> splitter: the next queries in sorted order (reply to NextQueries).
//   InputDone    reader -> parser (reply: StageReport of that parser) and reader -> sorter:
//                no more queries will arrive.
//   SortedReady  sorter -> splitter: all queries are sorted; `chunk_queries` holds the query
//                counts of the chunks to cut, in order
//                (scoring/chunk_plan.hpp: plan_chunks).
//   QueryMasses  sorter -> database, with SortedReady: every query's neutral mass (Da), for a
//                peptide index of only the peptides the precursor windows reach
//                (scoring/precursor_selection.hpp).
//   NextQueries  splitter -> sorter: request for the next `max_count` queries in order; the
//                reply holds fewer only at the end (an empty batch means exhausted).
// Plain value types; CAF inspectors in messages/registration.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "scoring/query.hpp"

namespace ionflow {

struct QueryBatch {
  uint64_t job = 0;
  std::vector<Query> queries;
};

struct InputDone {
  uint64_t job = 0;
};

struct SortedReady {
  uint64_t job = 0;
  std::vector<uint32_t> chunk_queries;  // sums to the number of queries
};

struct QueryMasses {
  uint64_t job = 0;
  std::vector<double> neutral_masses_da;  // one per query, in arrival order
};

struct NextQueries {
  uint64_t job = 0;
  uint32_t max_count = 0;
};

}  // namespace ionflow
