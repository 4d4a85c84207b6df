// Job ids: the name a new job gets, in the HTTP service (POST /v1/jobs) and in the queue
// (`ionflow submit --server`) alike: "j" and 12 lower-case hex digits (48 random bits), e.g.
// "j3f9c0a7b12de". The id names the job's output directory, so it must not repeat after a
// restart: the generator is seeded with 64 bits from std::random_device, once per process.
// Thread-safe (one generator behind a mutex); throws std::system_error only if
// std::random_device cannot be opened.
#pragma once

#include <string>

namespace ionflow {

// A new job id, "j" + 12 lower-case hex digits (see above).
std::string new_job_id();

}  // namespace ionflow
