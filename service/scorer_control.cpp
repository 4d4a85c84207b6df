#include "service/scorer_control.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

namespace ionflow {

namespace {

double monotonic_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

ScorerControl::ScorerControl(SearchRuntime& runtime, std::function<uint64_t()> backlog_chunks,
                             Options options)
    : runtime_(runtime), backlog_chunks_(std::move(backlog_chunks)), options_(options) {
  const int lo = options_.min_scorers, hi = options_.max_scorers;
  if (lo < 0 || hi < 0) throw std::invalid_argument("--min-scorers/--max-scorers must be >= 0");
  if ((lo == 0) != (hi == 0)) {
    throw std::invalid_argument("--min-scorers and --max-scorers go together (got " +
                                std::to_string(lo) + " and " + std::to_string(hi) + ")");
  }
  if (lo > hi) {
    throw std::invalid_argument("--min-scorers " + std::to_string(lo) + " > --max-scorers " +
                                std::to_string(hi));
  }
  if (options_.interval_seconds <= 0) {
    throw std::invalid_argument("--autoscale-interval must be > 0 seconds");
  }
  const int cap = runtime_.licensed_cores();
  if (lo > cap) {
    throw std::invalid_argument("--min-scorers " + std::to_string(lo) +
                                " exceeds the licensed cores (" + std::to_string(cap) + ")");
  }
  const int capped_hi = std::min(hi, cap);
  if (hi > cap) {
    spdlog::warn("--max-scorers {} capped to the {} licensed core(s)", hi, cap);
  }
  if (lo >= 1 && lo < capped_hi) {
    AutoscalerPolicy policy;
    policy.min_scorers = lo;
    policy.max_scorers = capped_hi;
    policy.chunks_per_scorer = options_.chunks_per_scorer;
    policy.idle_seconds = options_.idle_seconds;
    autoscaler_.emplace(policy);
  }
}

ScorerControl::~ScorerControl() {
  stop();
}

void ScorerControl::start() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!autoscaler_ || thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { loop(); });
}

void ScorerControl::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ScorerControl::loop() {
  const auto interval = std::chrono::duration<double>(options_.interval_seconds);
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    tick();
    lock.lock();
    wake_.wait_for(lock, interval, [this] { return stopping_; });
  }
}

void ScorerControl::tick() {
  const uint64_t backlog = backlog_chunks_ ? backlog_chunks_() : 0;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!autoscaler_ || pinned_) return;
  const int current = runtime_.scorer_count();
  const int target = autoscaler_->next_target(backlog, current, monotonic_seconds());
  if (target != current) {
    const int now = runtime_.set_scorer_count(target);
    spdlog::info("autoscaler: backlog {} chunk(s): scorers {} -> {}", backlog, current, now);
  }
}

int ScorerControl::pin(int count) {
  std::lock_guard<std::mutex> lock(mutex_);
  const int now = runtime_.set_scorer_count(count);
  pinned_ = autoscaler_.has_value();
  pinned_count_ = now;
  return now;
}

void ScorerControl::resume() {
  std::lock_guard<std::mutex> lock(mutex_);
  pinned_ = false;
}

ScorerControl::Status ScorerControl::status() const {
  const uint64_t backlog = backlog_chunks_ ? backlog_chunks_() : 0;
  std::lock_guard<std::mutex> lock(mutex_);
  Status s;
  s.scorers = runtime_.scorer_count();
  s.licensed_cores = runtime_.licensed_cores();
  s.autoscaling = autoscaler_.has_value();
  s.pinned = pinned_;
  s.backlog_chunks = backlog;
  if (autoscaler_) {
    s.min_scorers = autoscaler_->policy().min_scorers;
    s.max_scorers = autoscaler_->policy().max_scorers;
    s.target = pinned_ ? pinned_count_ : autoscaler_->last_target();
  } else {
    s.min_scorers = s.max_scorers = s.target = s.scorers;
  }
  return s;
}

}  // namespace ionflow
