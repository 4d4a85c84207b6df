// QueueConsumer: a serve node's side of the Redis job queue (`ionflow serve --queue
// redis://HOST:PORT[/STREAM]`). The node joins the stream's consumer group as consumer
// `node_name`, takes one entry whenever one of its `concurrent_jobs` slots is free (first an
// entry another consumer left idle for `claim_idle_seconds`, XAUTOCLAIM; else a new one), and
// runs it on the shared SearchRuntime. The job is also recorded in the node's JobStore (origin
// "queue"), so the node's HTTP API lists what it runs.
//
// Delivery: at-least-once with exactly-once results. A job writes into a staging directory
// `<results_root>/<id>.partial-<node>-<n>` which is renamed to `<results_root>/<id>` when the
// job is done (if that directory exists, an earlier run finished first and this one's results
// are dropped); then the final state is published (queue_state.hpp: a final state is never
// replaced) and only then the entry is acknowledged. An entry delivered more than
// `max_deliveries` times is failed ("delivered 3 times; last node N") without running. Bad
// entries (not JSON, unknown key, missing file, path outside the data roots, bad id, no `job`
// field) are failed with the field named and acknowledged. While it runs a job the node
// heartbeats the entry (so only a dead or cut-off node's entries look idle), publishes progress
// and watches for cancel requests (Redis `cancel_requested`, or DELETE on the node's own API).
//
// Redis connection loss: running jobs go on; the reader reconnects with backoff (100 ms to 5 s)
// and says so in the log; a finished job's publish and ack are retried until Redis answers.
// Threads: one reader thread (all Redis I/O but the final publish) and one thread per running
// job. Thread-safety: the public methods may be called from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "actors/search_runtime.hpp"
#include "scoring/unimod.hpp"
#include "service/job_inputs.hpp"
#include "service/job_store.hpp"
#include "service/metrics.hpp"
#include "service/queue_stream.hpp"
#include "service/redis_connection.hpp"

namespace ionflow {

class QueueConsumer {
 public:
  struct Options {
    RedisUrl url;
    std::string group = "ionflow";
    std::string node_name;     // consumer name; "" = HOST:PID
    std::string results_root;  // results of job X go to results_root/X
    std::string index_cache_directory;
    std::vector<std::string> data_roots;
    // This node's uploads directory: a job naming an upload in progress there is refused
    // (JobMessageOptions::uploads_directory); "" = none.
    std::string uploads_directory;
    double claim_idle_seconds = 60;
    int max_deliveries = 3;
    int concurrent_jobs = 1;
    // A job reading files of the uploads directory is recorded in the store under this gate
    // (the HTTP API's: job_inputs.hpp), so that no upload piece is written between its check and
    // its write once the job runs; nullptr = none (no uploads). Must outlive the consumer.
    UploadGate* upload_gate = nullptr;
  };
  QueueConsumer(JobStore& store, SearchRuntime& runtime, const Unimod& unimod, Metrics& metrics,
                Options options);
  ~QueueConsumer();  // stop(0 s)
  QueueConsumer(const QueueConsumer&) = delete;
  QueueConsumer& operator=(const QueueConsumer&) = delete;

  void start();
  // Takes no new entry from now on (running jobs continue).
  void stop_taking();
  // Running jobs may finish within `grace`; the others are stopped and their entries left
  // pending (not acknowledged: the queue runs them again). Then the reader stops.
  void stop(std::chrono::milliseconds grace);
  int running_jobs() const;
  uint64_t backlog_chunks() const;  // as Scheduler::backlog_chunks, over this node's queue jobs
  const std::string& node_name() const { return options_.node_name; }

 private:
  struct Running {
    std::string id;
    std::string entry_id;
    JobControl control;
    JobProgress progress;
    bool progress_dirty = false;
    uint32_t chunk_size = 1;
    bool requeue_on_cancel = false;  // stopped by shutdown or lost entry: do not acknowledge
    std::string cancel_reason;
    bool finished = false;
    std::thread thread;
  };
  void reader_loop();
  bool take_one(RedisConnection& redis);
  void take(RedisConnection& redis, const StreamEntry& entry, int64_t deliveries);
  void fail_entry(RedisConnection& redis, const StreamEntry& entry, const std::string& id,
                  const std::string& field, const std::string& error);
  void run(std::shared_ptr<Running> job, JobSpec spec, std::string staging);
  void heartbeat(RedisConnection& redis);
  void reap_finished();
  int free_slots() const;
  // Retries `fn` (with its own connection) until it succeeds or the consumer is stopped hard.
  template <class Fn>
  void with_retry(RedisConnection& redis, const char* what, const std::string& id, Fn fn);

  JobStore& store_;
  SearchRuntime& runtime_;
  const Unimod& unimod_;
  Metrics& metrics_;
  Options options_;
  ConsumerGroup group_;
  std::thread reader_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool taking_ = true;
  bool stopping_ = false;
  std::atomic<bool> abandon_{false};  // stop retrying publishes (shutdown after grace)
  uint64_t runs_ = 0;
  std::map<std::string, std::shared_ptr<Running>> running_;  // by job id
};

}  // namespace ionflow
