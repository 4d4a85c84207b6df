// Query messages of the hops parser -> sorter -> database / splitter.
//   QueryBatch    parser -> sorter: the prepared queries of one block (request; reply: the
//                 queries the sorter holds so far).
//   InputDone     reader -> parser (reply: StageReport of that parser) and reader -> sorter:
//                 no more queries will arrive.
//   IndexOpen     sorter -> database, once at its start (request; reply IndexReady, part 0): the
//                 reply comes when the FASTA is loaded and says how the job's index is made
//                 (IndexReady::plan): the whole database's (part 0 is then registered), or per
//                 sorted run of queries, or once for every query.
//   IndexRequest  sorter -> database (request; reply IndexReady for `part`): the index of the
//                 peptides the precursor windows of `neutral_masses_da` (Da) reach
//                 (scoring/precursor_selection.hpp), registered as the job's part `part`.
//                 `last`: no further request follows (the database frees its digest and sends
//                 its StageReport); part kNoIndexPart with `last` only closes (no index is built
//                 unless the job has none yet).
//   NextChunk     splitter -> sorter: request for the next chunk of queries; the reply
//                 (QueryChunk, messages/chunks.hpp, `seq` left 0) comes once one is ready — the
//                 next planned slice of a sorted run whose index is registered; a chunk without
//                 queries means there are no more.
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

inline constexpr uint32_t kNoIndexPart = UINT32_MAX;

struct IndexOpen {
  uint64_t job = 0;
};

struct IndexRequest {
  uint64_t job = 0;
  uint32_t part = 0;
  std::vector<double> neutral_masses_da;  // the run's queries', any order
  bool last = false;
};

struct NextChunk {
  uint64_t job = 0;
};

}  // namespace ionflow
