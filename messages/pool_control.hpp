// Control messages of the shared scorer pool (one per SearchRuntime).
//   ResizePool  runtime -> pool: grow or shrink to `scorers` (already clamped to
//               [1, licensed cores]); removed scorers finish the chunks they hold.
//   ForgetJob   runtime -> pool -> scorers: the job ended (`part` kAllParts): drop its
//               SpectrumScorer; or one part of its index is no longer needed (a job indexed per
//               sorted run): drop a SpectrumScorer over that part (local scorers only).
// Plain value types; CAF inspectors in messages/registration.hpp.
#pragma once

#include <cstdint>

namespace ionflow {

struct ResizePool {
  int32_t scorers = 1;
};

inline constexpr uint32_t kAllParts = UINT32_MAX;

struct ForgetJob {
  uint64_t job = 0;
  uint32_t part = kAllParts;
};

}  // namespace ionflow
