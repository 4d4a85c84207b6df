// JobStore: the service's durable job table, one SQLite database (WAL journal) in the data
// directory. Each job has an id, a state (queued, running, done, failed, cancelled), a priority,
// timestamps (Unix seconds, UTC), the submitted message and the effective parameters (itself a
// complete job message, so a job can be re-run from the store alone), its latest progress, the
// error text of a failed job, the summary and the result file paths of a finished one.
//
// Durability: every change is one committed transaction (synchronous=FULL), so after kill -9 the
// store holds every accepted job. Opening the store moves jobs left "running" by a previous
// process back to "queued" (they run again from the start; their partial outputs are never
// renamed into place), except those whose cancel was requested and those taken from the Redis
// queue, which end cancelled (the queue runs its entry again).
// Scheduling order: claim_next() takes the queued job with the highest priority, then the
// oldest (FIFO by submission sequence).
// Thread-safety: all methods may be called from any thread (one connection behind a mutex).
// Errors: std::runtime_error naming the database path and SQLite's message.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace ionflow {

enum class JobState { kQueued, kRunning, kDone, kFailed, kCancelled };
const char* job_state_name(JobState state);  // "queued", "running", ...
std::optional<JobState> job_state_from_name(const std::string& name);

struct JobRecord {
  std::string id;
  int64_t sequence = 0;  // submission order
  JobState state = JobState::kQueued;
  int priority = 0;
  double submitted_at = 0;                // Unix seconds
  double started_at = 0;                  // 0 = not yet
  double finished_at = 0;                 // 0 = not yet
  std::string submitted_json;             // the message as received
  std::string effective_json;             // effective parameters (a complete job message)
  std::string progress_json;              // latest JobProgress as JSON, "" before the first
  std::string error;                      // failed: why; cancelled: by whom
  std::string summary_json;               // done: the JobSummary as JSON
  std::vector<std::string> result_paths;  // done: absolute paths of the result files
  bool cancel_requested = false;
};

class JobStore {
 public:
  // Opens (creating if needed) `path` and requeues jobs left running (those whose cancel was
  // requested end cancelled instead). `requeued` (if given) receives the requeued ids,
  // `cancelled` (if given) the ids of this service's jobs that ended cancelled so.
  explicit JobStore(const std::string& path, std::vector<std::string>* requeued = nullptr,
                    std::vector<std::string>* cancelled = nullptr);
  ~JobStore();
  JobStore(const JobStore&) = delete;
  JobStore& operator=(const JobStore&) = delete;

  // Inserts a queued job; `record.id` must be new. Sets sequence and submitted_at.
  void insert(JobRecord& record);
  std::optional<JobRecord> get(const std::string& id) const;
  // Newest first; `state` filters when given; at most `limit` records.
  std::vector<JobRecord> list(std::optional<JobState> state = std::nullopt, int limit = 1000) const;
  std::map<JobState, int64_t> count_by_state() const;

  // Records a job this node runs for another queue (the Redis stream, service/queue_consumer.hpp)
  // as running now, replacing an earlier record of the same id (a redelivered entry). Such a job
  // is never claimed by claim_next(), and one left running by a killed process is marked
  // cancelled at the next open (the queue runs its entry again), not requeued.
  // Sets sequence and started_at (and submitted_at when 0).
  void begin_external(JobRecord& record);
  // Marks the next queued job running (priority, then FIFO) and returns it; nullopt if none.
  std::optional<JobRecord> claim_next();
  void set_progress(const std::string& id, const std::string& progress_json);
  // Done clears the error: a cancel request that came after the results were committed
  // (SearchRuntime::run returned them) leaves cancel_requested set but is no failure.
  void finish_done(const std::string& id, const std::string& summary_json,
                   const std::vector<std::string>& result_paths);
  void finish_failed(const std::string& id, const std::string& error);
  void finish_cancelled(const std::string& id, const std::string& reason);
  // Puts a running job back in the queue (graceful shutdown before it finished).
  void requeue(const std::string& id);
  // Queued: becomes cancelled at once (returns kCancelled, and sets *cancelled_now when given).
  // Running: flags cancel_requested (returns kRunning; the scheduler stops it). Finished:
  // unchanged. nullopt if no such job.
  std::optional<JobState> request_cancel(const std::string& id, const std::string& reason,
                                         bool* cancelled_now = nullptr);

  const std::string& path() const { return path_; }
  // Counts the writes above that changed which jobs are queued or running, or their inputs
  // (insert, begin_external, a claim_next that claimed, finish_*, a requeue that requeued, a
  // request_cancel that cancelled a queued job), counted after their write: a cache of the
  // unfinished jobs read after a value of changes() is current while changes() still gives that
  // value (service/job_inputs.hpp).
  uint64_t changes() const { return changes_.load(std::memory_order_acquire); }

 private:
  void exec(const char* sql) const;
  void add_origin_column();
  // REQUIRES: mutex_ held. (jobs.origin: '' for this service's queue, 'queue' for Redis.)
  int64_t next_sequence() const;
  std::string path_;
  sqlite3* db_ = nullptr;
  mutable std::mutex mutex_;
  std::atomic<uint64_t> changes_{0};
};

}  // namespace ionflow
