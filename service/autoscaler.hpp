// Autoscaler: the scorer-pool sizing policy of `ionflow serve` (--min-scorers/--max-scorers),
// as plain C++ with no threads, no clock and no CAF, so that it can be tested with exact numbers.
// ScorerControl (service/scorer_control.hpp) calls next_target() periodically with the chunk
// backlog and resizes the SearchRuntime's pool to the answer.
//
// Policy (per call, `now` in seconds on any monotonic clock):
//   - capacity = scorers × chunks_per_scorer: a scorer scores one chunk at a time and has at most
//     one more waiting for it, so a backlog above that means chunks wait for a scorer.
//   - grow: backlog > capacity  ->  ceil(backlog / chunks_per_scorer), at most max_scorers
//     (in one step: a large job wants every core at once).
//   - shrink: the backlog has been 0 (no chunk of any running job waits or is being scored) for
//     idle_seconds without interruption  ->  min_scorers (in one step).
//   - otherwise the current size is kept (a pool that is busy but keeping up is not shrunk while
//     a job runs, so a job does not see its scorers come and go).
//   - a current size outside [min, max] is clamped into it.
// Thread-safety: none; one owner calls next_target().
#pragma once

#include <cstdint>

namespace ionflow {

struct AutoscalerPolicy {
  int min_scorers = 1;        // >= 1
  int max_scorers = 1;        // >= min_scorers (already capped by the licensed cores)
  int chunks_per_scorer = 2;  // backlog chunks one scorer absorbs (one scoring, one waiting)
  double idle_seconds = 5.0;  // backlog 0 this long -> shrink to min_scorers
};

class Autoscaler {
 public:
  // REQUIRES: 1 <= policy.min_scorers <= policy.max_scorers, policy.chunks_per_scorer >= 1.
  // Throws std::invalid_argument otherwise.
  explicit Autoscaler(AutoscalerPolicy policy);

  // The scorer count to run now. backlog_chunks: chunks of running jobs not scored yet
  // (queued, waiting or being scored); current_scorers: the pool's size now; now_seconds: a
  // monotonic time in seconds (only differences matter).
  int next_target(uint64_t backlog_chunks, int current_scorers, double now_seconds);

  const AutoscalerPolicy& policy() const { return policy_; }
  // The last answer of next_target() (min_scorers before the first call).
  int last_target() const { return last_target_; }

 private:
  AutoscalerPolicy policy_;
  bool idle_ = false;        // the backlog was 0 at the last call
  double idle_since_ = 0.0;  // when it became 0
  int last_target_;
};

}  // namespace ionflow
