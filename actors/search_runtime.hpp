// SearchRuntime: the actor system, the shared scorer pool and the per-job pipelines
// (reader -> parsers -> sorter -> splitter -> scorers -> writer) behind one plain C++ interface,
// so that `ionflow search` (one job) and `ionflow serve` (many jobs) drive the same code and no
// CAF header leaks into the service or the tests.
//
// Thread-safety: run() may be called from several threads at once; each call runs one job with
// its own single, detached reader and writer, and all jobs share the scorer pool (chunks of
// running jobs interleave). set_scorer_count() may be called at any time, also during jobs
// (also from on_progress; it never blocks); results never depend on the number of scorers,
// parsers, chunk size, sorter budget or the order in which chunks complete.
//
// Threads: scorers, parsers, the database, reader, sorter and writer are detached actors (one
// thread each); the splitter and the pool run on the CAF scheduler (Options::scheduler_threads).
// Scorers are the only CPU-heavy threads that persist, so the pool size is the number of
// cores scoring. The job's database actor (detached) reads the FASTA and builds the peptide
// index while the other actors read, parse and sort the spectra; the calling thread of run()
// only coordinates: it spawns the job's actors and waits (polling JobControl::cancel every
// 100 ms).
//
// Files: results go to "<name>.tmp" in job.output_directory and are renamed when all are
// complete: results.tsv / results.mzid / results.pep.xml / results.pin (each + ".zst" with
// JobSpec::zstd) and results.json (JobSummary, input SHA-256s, effective parameters). When a job
// fails or is cancelled, those names (and their .tmp) are removed from the output directory,
// also if an earlier job left them there: give each job its own output directory. Sorter
// spills go to "<temp_directory or output_directory>/ionflow-sort-<pid>-XXXXXX/" and are removed.
//
// JobSpec fields used per job: everything except licensed_cores and scorers, which size the
// shared pool and are taken from Options (construct the runtime from them for `ionflow search`).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "messages/job.hpp"
#include "messages/scorer_node.hpp"

namespace ionflow {

struct JobProgress {
  std::string stage;  // "reading", "scoring", "writing", "done"
  uint64_t bytes_read = 0;
  uint64_t bytes_total = 0;
  uint64_t spectra_read = 0;  // MS2 spectra parsed so far
  uint64_t queries = 0;
  uint64_t queries_scored = 0;
  uint64_t chunks_done = 0;
  uint64_t chunks_total = 0;  // known once the sorter has all queries
  double elapsed_seconds = 0.0;
};

struct JobControl {
  std::atomic<bool> cancel{false};                      // set to stop the job (JobCancelled)
  std::function<void(const JobProgress&)> on_progress;  // called from a pipeline thread
};

// A job failed: bad input file, unreadable FASTA, a scorer error. what() names the file and
// the byte offset or line where known. No results file is left behind.
class JobError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
class JobCancelled : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A remote scorer node in the shared pool (`ionflow scorer-node`, messages/scorer_node.hpp).
struct ScorerNodeInfo {
  std::string name;  // as the node gave it, made unique ("beta", "beta#2")
  int scorers = 0;   // granted: what it offered, capped by an explicit licensed_cores
  uint64_t chunks_scored = 0;
};

class SearchRuntime {
 public:
  struct Options {
    int licensed_cores = 0;     // cap on scorers (remote nodes' included when given); 0 = the
                                // cores this process may use, and remote nodes uncapped
    int scorers = 0;            // initial pool size; 0 = min(licensed_cores, usable cores)
    int scheduler_threads = 0;  // CAF scheduler threads; 0 = usable cores
    // HOST:PORT where remote scorer nodes join through CAF's middleman ("" = none; port 0 =
    // any free port, see scorer_listen_port()). The caller checks the address and token rules
    // (service/scorer_handshake.hpp) and gives here the check of each node's hello: "" =
    // accept, else the reason it is refused.
    std::string scorer_listen;
    std::function<std::string(const ScorerNodeHello&)> check_scorer_node;
  };
  // Throws std::runtime_error when Options::scorer_listen cannot be bound (the message names it).
  explicit SearchRuntime(Options options);
  ~SearchRuntime();
  SearchRuntime(const SearchRuntime&) = delete;
  SearchRuntime& operator=(const SearchRuntime&) = delete;

  // Runs `job` to completion and returns its summary; result files are in
  // job.output_directory when it returns. Throws JobError (invalid spec: no inputs, parsers not
  // in 1..4, chunk_size 0, unknown output format; or a failure while running, its message naming
  // the file and byte offset / line) or JobCancelled. A cancel that comes after the writer
  // committed the results is too late: run() returns the summary and the results stay. The
  // job's actors are stopped before it returns or throws; on_progress is not called after that.
  JobSummary run(const JobSpec& job, JobControl* control = nullptr);

  // Resizes the local scorer pool, clamped to [1, licensed cores]; returns the new size.
  int set_scorer_count(int count);
  int scorer_count() const;
  int licensed_cores() const;
  // The remote scorer nodes now in the pool and the sum of their scorers (not in
  // scorer_count(), which is the local pool the autoscaler sizes).
  std::vector<ScorerNodeInfo> scorer_nodes() const;
  int remote_scorer_count() const;
  // The port remote scorer nodes connect to (0 = not listening).
  uint16_t scorer_listen_port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ionflow
