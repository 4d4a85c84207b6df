#include "service/metrics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <string_view>

namespace ionflow {

void Metrics::count_request(const std::string& method, int status) {
  // cpp-httplib names a request it rejects by its first word, whatever it is: one series per
  // distinct word grew the map without bound, and a '"' in it broke the exposition format.
  static constexpr std::string_view kMethods[] = {"GET",     "HEAD",    "POST",  "PUT",  "DELETE",
                                                  "OPTIONS", "CONNECT", "TRACE", "PATCH"};
  const bool known =
      std::find(std::begin(kMethods), std::end(kMethods), method) != std::end(kMethods);
  std::lock_guard<std::mutex> lock(mutex_);
  ++requests_[{known ? method : "other", status}];
}

void Metrics::count_finished(const std::string& state, const JobSummary* summary) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++finished_[state];
  if (summary) {
    spectra_searched_ += summary->spectra_searched;
    psms_ += summary->psms;
    search_seconds_ += summary->wall_seconds;
  }
}

std::string Metrics::render(const MetricGauges& g) const {
  std::string out;
  auto head = [&out](const char* name, const char* type, const char* help) {
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
  };
  head("ionflow_jobs", "gauge", "Jobs in the store by state.");
  for (const auto& [state, n] : g.jobs_by_state) {
    out += fmt::format("ionflow_jobs{{state=\"{}\"}} {}\n", state, n);
  }
  head("ionflow_running_jobs", "gauge", "Jobs running in this process.");
  out += fmt::format("ionflow_running_jobs {}\n", g.running_jobs);
  head("ionflow_scorers", "gauge", "Scorer actors in the shared pool.");
  out += fmt::format("ionflow_scorers {}\n", g.scorers);
  head("ionflow_licensed_cores", "gauge", "Cap on scorers.");
  out += fmt::format("ionflow_licensed_cores {}\n", g.licensed_cores);
  head("ionflow_scorers_min", "gauge", "Autoscaler lower bound on scorers (= scorers when off).");
  out += fmt::format("ionflow_scorers_min {}\n", g.scorers_min);
  head("ionflow_scorers_max", "gauge", "Autoscaler upper bound on scorers (= scorers when off).");
  out += fmt::format("ionflow_scorers_max {}\n", g.scorers_max);
  head("ionflow_scorers_target", "gauge", "Scorer count the autoscaler (or a pin) asks for.");
  out += fmt::format("ionflow_scorers_target {}\n", g.scorers_target);
  head("ionflow_autoscaling", "gauge", "1 if the autoscaler sizes the pool now (on, not pinned).");
  out += fmt::format("ionflow_autoscaling {}\n", g.autoscaling && !g.scorers_pinned ? 1 : 0);
  head("ionflow_scorer_backlog_chunks", "gauge", "Chunks of running jobs not scored yet.");
  out += fmt::format("ionflow_scorer_backlog_chunks {}\n", g.backlog_chunks);
  head("ionflow_jobs_submitted_total", "counter", "Jobs accepted by POST /v1/jobs.");
  out += fmt::format("ionflow_jobs_submitted_total {}\n", jobs_submitted_.load());
  head("ionflow_jobs_rejected_total", "counter", "Job messages rejected with a 4xx.");
  out += fmt::format("ionflow_jobs_rejected_total {}\n", jobs_rejected_.load());
  std::lock_guard<std::mutex> lock(mutex_);
  head("ionflow_jobs_queue_full_total", "counter",
       "Submissions refused with 429 because the queue was full.");
  out += fmt::format("ionflow_jobs_queue_full_total {}\n", jobs_queue_full_.load());
  head("ionflow_jobs_finished_total", "counter", "Jobs that ended, by final state.");
  for (const char* state : {"done", "failed", "cancelled"}) {
    auto it = finished_.find(state);
    out += fmt::format("ionflow_jobs_finished_total{{state=\"{}\"}} {}\n", state,
                       it == finished_.end() ? 0 : it->second);
  }
  head("ionflow_spectra_searched_total", "counter", "Spectra searched by finished jobs.");
  out += fmt::format("ionflow_spectra_searched_total {}\n", spectra_searched_);
  head("ionflow_psms_total", "counter", "PSMs written by finished jobs.");
  out += fmt::format("ionflow_psms_total {}\n", psms_);
  head("ionflow_job_seconds_total", "counter", "Wall seconds of finished jobs.");
  out += fmt::format("ionflow_job_seconds_total {}\n", search_seconds_);
  head("ionflow_http_requests_total", "counter", "HTTP requests by method and status.");
  for (const auto& [key, n] : requests_) {
    out += fmt::format("ionflow_http_requests_total{{method=\"{}\",code=\"{}\"}} {}\n", key.first,
                       key.second, n);
  }
  return out;
}

}  // namespace ionflow
