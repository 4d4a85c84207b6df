// The actors of one job and how they are wired (internal to ionflow_actors; CAF translation units
// only). One stage per file, each with its spawn_* below:
//
//   database (detached, database.cpp): reads the FASTA, digests it or builds the whole index
//        ^ IndexOpen, IndexRequest (a sorted run's query masses) / IndexReady (part registered)
//        |
//   reader -> parsers -> sorter <-- NextChunk / QueryChunk -- splitter -> scorer pool -> scorers
//   (reader.cpp) (parser.cpp, 1..4) (sorter.cpp)               (splitter.cpp) (scorer_pool.cpp)
//   splitter -> writer (writer.cpp): PsmBatches, then results.tsv ... results.json
//   every stage -> StageReport -> writer; failures -> JobFailure -> coordinator
//   coordinator: SearchRuntime::run (search_runtime.cpp): validate, spawn, wait, clean up.
//
// Reading overlaps scoring: the sorter cuts the queries into sorted runs as they arrive
// (io/run_queue.hpp) and serves a run's chunks as soon as its peptide index is registered — the
// whole database's, or (narrow windows) one selected for the run's own queries, built while the
// run before it is scored (IndexPlan, messages/job_events.hpp). Results never depend on runs,
// chunks, scorers or parsers (the writer orders every PSM by spectrum; tests/actors).
// Every hop is one typed message (messages/*.hpp) sent with request(...).then(...) and an
// explicit in-flight bound: the reader holds at most JobSpec::max_blocks_in_flight
// unacknowledged ByteBlocks (a parser acknowledges once the sorter took the block's queries),
// the splitter one NextChunk and at most max_chunks_in_flight QueryChunks (0 = 2 * scorers), the
// sorter at most two index requests. No request waits forever: every request carries a timeout
// (see kBlockTimeout etc.).
// Memory stays flat in the number of queries: the sorter spills sorted runs beyond
// JobSpec::sorter_memory_budget_bytes, a run's index part is released once its last chunk is
// back (JobContext::release_index_part), and the writer spills each arriving PsmBatch at once
// (io/job_psms.hpp, io/psm_spill.hpp), releases the job's peptide index once the last chunk
// is in (JobContext::release_index) and finalizes on compact facts (scoring/psm_facts.hpp)
// before writing every format from a merge of the spill.
// Failures are sent as JobFailure to the job's coordinator (the thread in SearchRuntime::run),
// which stops all actors of the job; the writer's JobSummary ends a successful job.
#pragma once

#include <caf/actor.hpp>
#include <caf/atom.hpp>
#include <caf/fwd.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "actors/job_context.hpp"

namespace ionflow {

// Timeouts of the requests between stages. Generous: they only turn a hung peer into an error.
// (caf::duration in 0.17 takes seconds and finer units only.)
inline constexpr std::chrono::seconds kBlockTimeout{30 * 60};  // reader -> parser -> sorter
// splitter -> sorter: waits for the next run's queries and index (reading, an index build)
inline constexpr std::chrono::seconds kSorterTimeout{8 * 3600};
inline constexpr std::chrono::seconds kIndexTimeout{8 * 3600};   // sorter -> database, one build
inline constexpr std::chrono::seconds kScorerTimeout{2 * 3600};  // pool -> scorer, one chunk
inline constexpr std::chrono::seconds kPoolTimeout{8 * 3600};    // splitter -> pool, retries
// A chunk whose scoring raised an error this often (on different scorers) fails the job; one
// whose scorer was gone before it started (died, removed) is retried up to kMaxChunkUnreachable.
inline constexpr int kMaxChunkAttempts = 3;
inline constexpr int kMaxChunkUnreachable = 10;

using JobPtr = std::shared_ptr<JobContext>;

// Tells the coordinator that the job must end: `message` names the file and offset where known.
void report_failure(const caf::actor& coordinator, const JobContext& ctx,
                    const std::string& message);

// "job <id>: " before a log line of a job run by `ionflow serve` (its log interleaves many
// jobs); nothing for `ionflow search` (kLocalJobId), whose process runs one job.
std::string log_prefix(const JobSpec& job);

// Each spawn_* starts one stage of job `ctx`; `coordinator` receives its JobFailure.
// The reader starts reading at once; blocks of file i go to parsers[i % parsers.size()].
caf::actor spawn_reader(caf::actor_system& sys, JobPtr ctx, std::vector<caf::actor> parsers,
                        caf::actor sorter, caf::actor writer, caf::actor coordinator);
// Replies BlockAck to each ByteBlock once the sorter took its queries; StageReport to InputDone.
caf::actor spawn_parser(caf::actor_system& sys, JobPtr ctx, caf::actor sorter,
                        caf::actor coordinator);
// Takes QueryBatch (reply: queries held) and InputDone; asks `database` for each sorted run's
// index (IndexOpen, IndexRequest); answers NextChunk with the next planned chunk; its StageReport
// goes to `writer` once it is drained.
caf::actor spawn_sorter(caf::actor_system& sys, JobPtr ctx, caf::actor writer,
                        caf::actor coordinator, caf::actor database);
// Pulls chunks from `sorter` (NextChunk) and sends them to `pool`; each PsmBatch and finally its
// StageReport and ChunksDone go to `writer`.
caf::actor spawn_splitter(caf::actor_system& sys, JobPtr ctx, caf::actor sorter, caf::actor pool,
                          caf::actor writer, caf::actor coordinator);
// Spills PsmBatches; once every chunk and the StageReports of database, reader, sorter and
// splitter are in, writes the result files and sends the JobSummary to `coordinator`.
caf::actor spawn_writer(caf::actor_system& sys, JobPtr ctx, caf::actor coordinator);
// Loads the FASTA at once; answers IndexOpen and each IndexRequest once the index part is
// registered in `registry` (the scoring context: the index, an open search's fragment
// prefilter); its StageReport goes to `writer` with the last part. `build_threads` build.
caf::actor spawn_database(caf::actor_system& sys, JobPtr ctx, std::shared_ptr<JobRegistry> registry,
                          caf::actor pool, caf::actor writer, caf::actor coordinator,
                          int build_threads);

struct JobActors {
  caf::actor database;
  caf::actor reader;
  std::vector<caf::actor> parsers;
  caf::actor sorter;
  caf::actor splitter;
  caf::actor writer;
  std::vector<caf::actor> all() const;
};

// Spawns every stage of a job, wired as above.
JobActors spawn_job_pipeline(caf::actor_system& sys, JobPtr ctx,
                             std::shared_ptr<JobRegistry> registry, caf::actor pool,
                             caf::actor coordinator, int build_threads);

// The shared scorer pool with `scorers` local scorers; accepts QueryChunk (reply PsmBatch),
// ResizePool, ForgetJob, get_atom (reply: std::vector<caf::actor>, the local scorers in
// rotation) and (join_atom, node, ScorerNodeHello) from the gate (reply ScorerNodeWelcome).
// `roster` mirrors its remote nodes; `licensed` > 0 caps local + remote scorers. Stop it with
// send_exit; its local scorers are linked and stop with it.
caf::actor spawn_scorer_pool(caf::actor_system& sys, std::shared_ptr<JobRegistry> registry,
                             std::shared_ptr<ScorerRoster> roster, int scorers, int licensed);
// One scorer (detached), finding each chunk's job in `registry`: QueryChunk -> PsmBatch,
// ForgetJob drops the job's SpectrumScorer.
caf::actor spawn_scorer(caf::actor_system& sys, std::shared_ptr<JobRegistry> registry);

using join_atom = caf::atom_constant<caf::atom("join")>;
using connect_atom = caf::atom_constant<caf::atom("connect")>;

// The coordinator's gate, published for remote scorer nodes: it answers each ScorerNodeHello
// refused with `check`'s reason (logged) or passes the node to `pool` (which answers).
caf::actor spawn_scorer_gate(caf::actor_system& sys, caf::actor pool,
                             std::function<std::string(const ScorerNodeHello&)> check);

}  // namespace ionflow
