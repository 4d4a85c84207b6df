// Scheduler: runs the service's queued jobs on one shared SearchRuntime — N worker threads, each
// claiming the next job from the JobStore (highest priority, then oldest) and running it to its
// end; the jobs running at once share the runtime's scorer pool.
//
// A job is re-read from its stored effective parameters (a complete job message) when it
// starts, so a job requeued after a crash runs exactly as submitted (its run writes over what
// the killed one left); its results go to <jobs directory>/<id>/. A job that failed or was
// cancelled (here, or found so by a restart: remove_partial_output) leaves no temporary result
// file there, and the directory is removed when nothing else is left in it (never when it holds
// anything else: rmdir). Cancel: a queued job is cancelled in the store at once, a running one
// through its JobControl. stop(): no new job is claimed; running
// jobs get `grace` to finish, then are cancelled and put back in the queue (they run again at
// the next start).
// Thread-safety: every public method may be called from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "actors/search_runtime.hpp"
#include "scoring/unimod.hpp"
#include "service/job_message.hpp"
#include "service/job_store.hpp"
#include "service/metrics.hpp"

namespace ionflow {

// Chunks of a running job not scored yet: ceil((queries - queries_scored) / chunk_size).
uint64_t chunks_not_scored(const JobProgress& progress, uint32_t chunk_size);

class Scheduler {
 public:
  struct Options {
    int concurrent_jobs = 1;
    std::string jobs_directory;           // results of job X go to jobs_directory/X
    std::string index_cache_directory;    // every job's peptide-index cache ("" = none)
    std::vector<std::string> data_roots;  // re-checked when a job starts
    uint64_t max_memory_bytes = 0;        // JobSpec::max_memory_bytes of every job (--max-memory)
  };
  Scheduler(JobStore& store, SearchRuntime& runtime, const Unimod& unimod, Metrics& metrics,
            Options options);
  ~Scheduler();  // stop(0s)
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  void start();
  // Tells the workers a job was queued.
  void wake();
  // See the class comment. Returns the job's state after the request; nullopt if unknown.
  std::optional<JobState> cancel(const std::string& id, const std::string& reason);
  // The latest progress of a running job (from the pipeline, not the store), its elapsed time
  // as of now (progress_as_of).
  std::optional<JobProgress> progress(const std::string& id) const;
  int running_jobs() const;
  // Jobs that may run at once (Options::concurrent_jobs, at least 1).
  int concurrent_jobs() const {
    return options_.concurrent_jobs < 1 ? 1 : options_.concurrent_jobs;
  }
  // The scorers' backlog: chunks of the running jobs not scored yet, from each job's latest
  // progress: ceil((queries - queries_scored) / chunk_size), summed. Queries still being read
  // count as soon as the sorter holds them; queued jobs do not count (they have no chunks yet).
  uint64_t backlog_chunks() const;
  void stop(std::chrono::milliseconds grace);
  // Claims no new job from now on (the first step of stop(); running jobs continue).
  void stop_claiming();

  // Where job `id`'s results go.
  std::string output_directory(const std::string& id) const;
  // For a job that ended without results (failed, cancelled here, or found cancelled when the
  // store was opened: JobStore's `cancelled`): removes the temporary result files in job `id`'s
  // output directory (remove_temporary_results: "results.tsv.tmp", ..., which a process killed
  // while writing leaves), then the directory when it is empty (rmdir: one holding anything
  // else, a finished result or a user's file, stays). REQUIRES: no run of job `id` is writing
  // there. Never throws.
  void remove_partial_output(const std::string& id) const;
  const std::string& index_cache_directory() const { return options_.index_cache_directory; }

 private:
  struct Running {
    JobControl control;
    JobProgress progress;
    uint32_t chunk_size = 1;  // the job's queries per chunk (for backlog_chunks)
    std::chrono::steady_clock::time_point last_store_update{};
    const std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
    bool requeue_on_cancel = false;
  };
  void worker();
  bool stopping() const;
  void run_job(const JobRecord& record);

  JobStore& store_;
  SearchRuntime& runtime_;
  const Unimod& unimod_;
  Metrics& metrics_;
  Options options_;
  std::vector<std::thread> workers_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::map<std::string, std::shared_ptr<Running>> running_;
};

}  // namespace ionflow
