// ScorerControl: who decides the size of `ionflow serve`'s scorer pool — the Autoscaler
// (service/autoscaler.hpp) following the scheduler's chunk backlog, or an operator through
// PUT /v1/scorers.
//
// Autoscaling is on when 1 <= min_scorers < max_scorers (max capped by the runtime's licensed
// cores): a thread wakes every interval_seconds, reads the backlog and resizes the pool to the
// Autoscaler's target. A manual count (pin()) PINS the pool: the autoscaler stops resizing
// until resume() (PUT /v1/scorers {"autoscale": true}); an operator's explicit number is never
// silently undone a moment later. Without autoscaling, pin() is a plain resize.
// Thread-safety: every public method may be called from any thread. stop() (also run by the
// destructor) joins the thread; the runtime and the backlog function must outlive it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "actors/search_runtime.hpp"
#include "service/autoscaler.hpp"

namespace ionflow {

class ScorerControl {
 public:
  struct Options {
    int min_scorers = 0;            // 0 = no autoscaling (with max_scorers 0)
    int max_scorers = 0;            // capped by the runtime's licensed cores
    double interval_seconds = 0.5;  // how often the backlog is read
    int chunks_per_scorer = 2;      // see AutoscalerPolicy
    double idle_seconds = 5.0;      // see AutoscalerPolicy
  };
  struct Status {
    int scorers = 0;         // the pool's size now
    int licensed_cores = 0;  // cap on scorers
    int min_scorers = 0;     // the autoscaler's bounds (both = scorers when it is off)
    int max_scorers = 0;
    int target = 0;               // the autoscaler's last target; the pinned count when pinned
    bool autoscaling = false;     // configured with min < max
    bool pinned = false;          // a manual count holds (autoscaling paused)
    uint64_t backlog_chunks = 0;  // read now from the backlog function (0 without one)
  };

  // Throws std::invalid_argument for bounds that make no sense (min > max, min < 0, only one
  // of them given). Does not start the thread.
  ScorerControl(SearchRuntime& runtime, std::function<uint64_t()> backlog_chunks, Options options);
  ~ScorerControl();
  ScorerControl(const ScorerControl&) = delete;
  ScorerControl& operator=(const ScorerControl&) = delete;

  // Starts the autoscaling thread (no-op when autoscaling is off).
  void start();
  void stop();
  // Sets the pool to `count` (clamped to [1, licensed cores]) and pins it; returns the new size.
  int pin(int count);
  // Releases a pin: the autoscaler decides again from its next tick.
  void resume();
  Status status() const;
  // One autoscaler step now (what the thread does every interval); for tests.
  void tick();

 private:
  void loop();

  SearchRuntime& runtime_;
  std::function<uint64_t()> backlog_chunks_;
  Options options_;
  std::optional<Autoscaler> autoscaler_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool pinned_ = false;
  int pinned_count_ = 0;
  std::thread thread_;
};

}  // namespace ionflow
