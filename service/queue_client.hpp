// Queue client: `ionflow submit`, `status` and `cancel` with `--server redis://HOST:PORT[/STREAM]`
// talk to the Redis job queue that `ionflow serve --queue` nodes consume (queue_state.hpp has
// the keys). submit adds a stream entry (fields `id`, `job`) and the job's "queued" state, and
// prints the job id as its first line; --wait then follows the state until the job ends.
// status prints one job's state as JSON (id, state, node, error, field, results, result_files,
// progress, summary, timestamps) or lists the newest jobs; cancel stops a job wherever it runs.
// Each returns the process exit code as the HTTP client does: 0 success, 1 job failed (submit
// --wait), 130 job cancelled (--wait), 2 rejected request (unknown job, job already ended),
// 3 the queue cannot be reached.
#pragma once

#include <string>

namespace ionflow {

int queue_submit(const std::string& server, const std::string& job_path, bool wait);
int queue_status(const std::string& server, const std::string& job_id);  // "" = list
int queue_cancel(const std::string& server, const std::string& job_id);

}  // namespace ionflow
