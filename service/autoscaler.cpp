#include "service/autoscaler.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ionflow {

Autoscaler::Autoscaler(AutoscalerPolicy policy)
    : policy_(policy), last_target_(policy.min_scorers) {
  if (policy_.min_scorers < 1 || policy_.max_scorers < policy_.min_scorers) {
    throw std::invalid_argument("autoscaler: need 1 <= min scorers (" +
                                std::to_string(policy_.min_scorers) + ") <= max scorers (" +
                                std::to_string(policy_.max_scorers) + ")");
  }
  if (policy_.chunks_per_scorer < 1) {
    throw std::invalid_argument("autoscaler: chunks per scorer must be >= 1");
  }
}

int Autoscaler::next_target(uint64_t backlog_chunks, int current_scorers, double now_seconds) {
  const int lo = policy_.min_scorers, hi = policy_.max_scorers;
  int target = std::clamp(current_scorers, lo, hi);
  if (backlog_chunks == 0) {
    if (!idle_) idle_ = true, idle_since_ = now_seconds;
    if (now_seconds - idle_since_ >= policy_.idle_seconds) target = lo;
  } else {
    idle_ = false;
    const auto per = static_cast<uint64_t>(policy_.chunks_per_scorer);
    if (backlog_chunks > static_cast<uint64_t>(target) * per) {
      const uint64_t wanted = (backlog_chunks + per - 1) / per;
      target = static_cast<int>(std::min<uint64_t>(wanted, static_cast<uint64_t>(hi)));
    }
  }
  last_target_ = target;
  return target;
}

}  // namespace ionflow
