#include "service/scheduler.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>

#include <unistd.h>

#include "io/job_results.hpp"
#include "io/result_common.hpp"
#include "service/progress_reporter.hpp"
#include "service/summary_report.hpp"

namespace ionflow {

Scheduler::Scheduler(JobStore& store, SearchRuntime& runtime, const Unimod& unimod,
                     Metrics& metrics, Options options)
    : store_(store),
      runtime_(runtime),
      unimod_(unimod),
      metrics_(metrics),
      options_(std::move(options)) {}

Scheduler::~Scheduler() {
  stop(std::chrono::milliseconds(0));
}

std::string Scheduler::output_directory(const std::string& id) const {
  return (std::filesystem::path(options_.jobs_directory) / id).string();
}

// The search makes the output directory before reading any input, so a job that failed on its
// first spectrum (or was cancelled before it wrote anything) left an empty DIR/jobs/<id>/; one
// killed while writing its results left their .tmp files in it too.
void Scheduler::remove_partial_output(const std::string& id) const {
  const std::string directory = output_directory(id);
  remove_temporary_results(directory);
  ::rmdir(directory.c_str());
}

void Scheduler::start() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (int i = 0; i < std::max(1, options_.concurrent_jobs); ++i) {
    workers_.emplace_back([this] { worker(); });
  }
}

void Scheduler::wake() {
  wake_.notify_all();
}

bool Scheduler::stopping() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stopping_;
}

int Scheduler::running_jobs() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(running_.size());
}

uint64_t chunks_not_scored(const JobProgress& p, uint32_t chunk_size) {
  const uint64_t waiting = p.queries > p.queries_scored ? p.queries - p.queries_scored : 0;
  const uint64_t per = std::max<uint32_t>(1, chunk_size);
  return (waiting + per - 1) / per;
}

uint64_t Scheduler::backlog_chunks() const {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t chunks = 0;
  for (const auto& [id, job] : running_)
    chunks += chunks_not_scored(job->progress, job->chunk_size);
  return chunks;
}

std::optional<JobProgress> Scheduler::progress(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = running_.find(id);
  if (it == running_.end()) return std::nullopt;
  const std::chrono::duration<double> running =
      std::chrono::steady_clock::now() - it->second->started;
  return progress_as_of(it->second->progress, running.count());
}

std::optional<JobState> Scheduler::cancel(const std::string& id, const std::string& reason) {
  bool cancelled_now = false;
  auto state = store_.request_cancel(id, reason, &cancelled_now);
  // A queued job ends here (a running one ends in run_job, which counts it).
  if (cancelled_now) metrics_.count_finished("cancelled", nullptr);
  if (state == JobState::kRunning) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = running_.find(id);
    if (it != running_.end()) it->second->control.cancel.store(true);
  }
  return state;
}

void Scheduler::stop_claiming() {
  std::lock_guard<std::mutex> lock(mutex_);
  stopping_ = true;
  wake_.notify_all();
}

void Scheduler::stop(std::chrono::milliseconds grace) {
  std::vector<std::thread> workers;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (workers_.empty()) return;
    stopping_ = true;
    wake_.notify_all();
    // Running jobs may finish within the grace period...
    wake_.wait_for(lock, grace, [this] { return running_.empty(); });
    // ...the others stop now and go back to the queue.
    for (auto& [id, job] : running_) {
      job->requeue_on_cancel = true;
      job->control.cancel.store(true);
    }
    workers.swap(workers_);
  }
  for (auto& t : workers) t.join();
}

void Scheduler::worker() {
  while (true) {
    std::optional<JobRecord> record;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (stopping_) return;
    }
    try {
      record = store_.claim_next();
      if (record && stopping()) {
        store_.requeue(record->id);  // stop began between the check above and the claim
        return;
      }
    } catch (const std::exception& e) {
      spdlog::error("scheduler: {}", e.what());
    }
    if (!record) {
      std::unique_lock<std::mutex> lock(mutex_);
      if (stopping_) return;
      wake_.wait_for(lock, std::chrono::seconds(1));
      continue;
    }
    run_job(*record);
  }
}

void Scheduler::run_job(const JobRecord& record) {
  const std::string& id = record.id;
  auto job = std::make_shared<Running>();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    running_[id] = job;
    if (stopping_) job->requeue_on_cancel = true, job->control.cancel.store(true);
  }
  auto finish = [&] {
    std::lock_guard<std::mutex> lock(mutex_);
    running_.erase(id);
    wake_.notify_all();
  };
  // A cancel that arrived between claim and registration.
  if (auto now = store_.get(id); now && now->cancel_requested) job->control.cancel.store(true);

  ParsedJob parsed;
  try {
    JobMessageOptions options;
    options.data_roots = options_.data_roots;
    options.stored_job = true;
    options.forced_output_directory = output_directory(id);
    options.forced_index_cache_directory = options_.index_cache_directory;
    parsed = parse_job_message(record.effective_json, unimod_, options);
  } catch (const std::exception& e) {
    // A requeued job whose input went away while the service was down: what its killed run left.
    remove_partial_output(id);
    store_.finish_failed(id, e.what());
    metrics_.count_finished("failed", nullptr);
    spdlog::warn("job {}: failed: {}", id, e.what());
    finish();
    return;
  }
  parsed.spec.id = id;
  parsed.spec.max_memory_bytes = options_.max_memory_bytes;
  parsed.spec.creation_time =
      result_format::utc_timestamp(record.submitted_at);  // the same after a restart
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job->chunk_size = parsed.spec.chunk_size;
  }
  job->control.on_progress = [this, id, job_ptr = job.get()](const JobProgress& p) {
    auto now = std::chrono::steady_clock::now();
    bool write = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ptr->progress = p;
      if (now - job_ptr->last_store_update > std::chrono::seconds(1) || p.stage == "done") {
        job_ptr->last_store_update = now;
        write = true;
      }
    }
    if (write) {
      try {
        store_.set_progress(id, to_json(job_progress_json(p)));
      } catch (const std::exception& e) {
        spdlog::warn("job {}: progress not stored: {}", id, e.what());
      }
    }
  };

  spdlog::info("job {}: running ({} spectra file(s))", id, parsed.spec.spectra_paths.size());
  try {
    if (job->control.cancel.load()) throw JobCancelled("cancelled before start");
    JobSummary summary = runtime_.run(parsed.spec, &job->control);
    store_.finish_done(id, to_json(job_summary_json(summary)), summary.output_files);
    metrics_.count_finished("done", &summary);
    spdlog::info("job {}: done, {} PSMs at 1% FDR in {:.2f} s", id, summary.psms_at_1pct,
                 summary.wall_seconds);
  } catch (const JobCancelled& e) {
    if (job->requeue_on_cancel) {
      store_.requeue(id);
      spdlog::info("job {}: stopped by shutdown, requeued", id);
    } else {
      auto now = store_.get(id);
      remove_partial_output(id);
      store_.finish_cancelled(id, now && !now->error.empty() ? now->error : e.what());
      metrics_.count_finished("cancelled", nullptr);
      spdlog::info("job {}: cancelled", id);
    }
  } catch (const std::exception& e) {
    // Before the state: a client that sees "failed" sees no partial output.
    remove_partial_output(id);
    store_.finish_failed(id, e.what());
    metrics_.count_finished("failed", nullptr);
    spdlog::warn("job {}: failed: {}", id, e.what());
  }
  finish();
}

}  // namespace ionflow
