// Spawning the actors of the pipeline (internal to ionflow_actors; CAF translation units only).
//
//   reader (detached) -> parsers (detached, 1..4) -> sorter (detached) -> splitter
//     -> scorer pool -> scorers (detached, shared by all jobs) -> splitter -> writer (detached)
//
// Every hop is one typed message (messages/*.hpp) sent with request(...).then(...) and an
// explicit in-flight bound: the reader holds at most JobSpec::max_blocks_in_flight
// unacknowledged ByteBlocks (a parser acknowledges once the sorter took the block's queries),
// the splitter at most max_chunks_in_flight QueryChunks (0 = 2 * scorers). No request waits
// forever: every request carries a timeout (see kBlockTimeout etc.).
// Memory stays flat in the number of queries: the sorter spills sorted runs beyond
// JobSpec::sorter_memory_budget_bytes, and the writer spills each arriving PsmBatch at once
// (io/job_psms.hpp, io/psm_spill.hpp), releases the job's peptide index once the last chunk
// is in (JobContext::release_index) and finalizes on compact facts (scoring/psm_facts.hpp)
// before writing every format from a merge of the spill.
// Failures are sent as JobFailure to the job's coordinator (the thread in SearchRuntime::run),
// which stops all actors of the job; the writer's JobSummary ends a successful job.
#pragma once

#include <caf/actor.hpp>
#include <caf/fwd.hpp>

#include <chrono>
#include <memory>
#include <vector>

#include "actors/job_context.hpp"

namespace ionflow {

// Timeouts of the requests between stages. Generous: they only turn a hung peer into an error.
// (caf::duration in 0.17 takes seconds and finer units only.)
inline constexpr std::chrono::seconds kBlockTimeout{30 * 60};    // reader -> parser -> sorter
inline constexpr std::chrono::seconds kSorterTimeout{30 * 60};   // splitter -> sorter (merge)
inline constexpr std::chrono::seconds kScorerTimeout{2 * 3600};  // pool -> scorer, one chunk
inline constexpr std::chrono::seconds kPoolTimeout{8 * 3600};    // splitter -> pool, retries
// A chunk whose scoring raised an error this often (on different scorers) fails the job; one
// whose scorer was gone before it started (died, removed) is retried up to kMaxChunkUnreachable.
inline constexpr int kMaxChunkAttempts = 3;
inline constexpr int kMaxChunkUnreachable = 10;

struct JobActors {
  caf::actor reader;
  std::vector<caf::actor> parsers;
  caf::actor sorter;
  caf::actor splitter;
  caf::actor writer;
  std::vector<caf::actor> all() const;
};

// Spawns the per-job actors; the reader starts reading at once. `coordinator` receives
// JobFailure and the final JobSummary. The splitter waits for IndexReady before scoring.
JobActors spawn_job_pipeline(caf::actor_system& sys, std::shared_ptr<JobContext> ctx,
                             caf::actor pool, caf::actor coordinator);

// The shared scorer pool with `scorers` scorers; accepts QueryChunk (reply PsmBatch),
// ResizePool, ForgetJob and get_atom (reply: std::vector<caf::actor>, the scorers in rotation).
// Stop it with send_exit; its scorers are linked and stop with it.
caf::actor spawn_scorer_pool(caf::actor_system& sys, std::shared_ptr<JobRegistry> registry,
                             int scorers);

}  // namespace ionflow
