// Metrics: the service's counters, rendered in the Prometheus text exposition format (0.0.4) at
// GET /metrics. Counters only go up; gauges (jobs by state, scorers, running jobs) are read from
// their owners when rendering.
// Thread-safety: every method may be called from any thread (atomics and a mutex).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "messages/job.hpp"

namespace ionflow {

struct MetricGauges {
  std::map<std::string, int64_t> jobs_by_state;  // "queued" -> n, ...
  int running_jobs = 0;
  int scorers = 0;
  int licensed_cores = 0;
  int scorers_min = 0;  // the autoscaler's bounds (= scorers when it is off)
  int scorers_max = 0;
  int scorers_target = 0;  // its last target (the pinned count when pinned)
  bool autoscaling = false;
  bool scorers_pinned = false;
  uint64_t backlog_chunks = 0;  // chunks of running jobs not scored yet
};

class Metrics {
 public:
  // `method` is counted as itself when it is one of HTTP's (RFC 9110, 9.3; PATCH: RFC 5789),
  // else as "other".
  void count_request(const std::string& method, int status);
  void count_submitted() { jobs_submitted_.fetch_add(1); }
  void count_rejected() { jobs_rejected_.fetch_add(1); }
  // A submission refused because --max-queued-jobs were queued (also counted as rejected).
  void count_queue_full() { jobs_queue_full_.fetch_add(1); }
  // A job ended in `state` ("done", "failed", "cancelled"); `summary` only for done.
  void count_finished(const std::string& state, const JobSummary* summary);

  std::string render(const MetricGauges& gauges) const;

 private:
  std::atomic<uint64_t> jobs_submitted_{0};
  std::atomic<uint64_t> jobs_rejected_{0};
  std::atomic<uint64_t> jobs_queue_full_{0};
  mutable std::mutex mutex_;
  std::map<std::string, uint64_t> finished_;                  // state -> count
  std::map<std::pair<std::string, int>, uint64_t> requests_;  // (method, status) -> count
  uint64_t spectra_searched_ = 0;
  uint64_t psms_ = 0;
  double search_seconds_ = 0;
};

}  // namespace ionflow
