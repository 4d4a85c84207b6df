// Control messages of the shared scorer pool (one per SearchRuntime).
//   ResizePool  runtime -> pool: grow or shrink to `scorers` (already clamped to
//               [1, licensed cores]); removed scorers finish the chunks they hold.
//   ForgetJob   runtime -> pool -> scorers: the job ended; drop its SpectrumScorer.
// Plain value types; CAF inspectors in messages/registration.hpp.
#pragma once

#include <cstdint>

namespace ionflow {

struct ResizePool {
  int32_t scorers = 1;
};

struct ForgetJob {
  uint64_t job = 0;
};

}  // namespace ionflow
