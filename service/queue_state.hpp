// Queue state: the job states the queue's nodes and clients share in Redis, next to the job
// stream, so that any client sees a job without knowing which node runs it.
//
// Keys (for the stream S, default "ionflow:jobs"; README "Jobs from a Redis stream"):
//   S                  the job stream: entries with field `job` (a job message) and optional `id`
//   S:job:<id>         a hash per job: id, state (queued/running/done/failed/cancelled), node,
//                      entry (stream entry id), deliveries, progress (JSON), error, field (the
//                      job-message key at fault), results (result directory), result_files
//                      (JSON list), summary (JSON), submitted_at, started_at, finished_at,
//                      updated_at (Unix seconds), cancel_requested ("1")
//   S:events           a stream of state changes: id, state, node, error, at (MAXLEN ~100000)
//   S:jobs             a sorted set of the job ids by submission time (for listings)
// Every change is one Lua script (atomic on the server). A final state (done, failed,
// cancelled) is never changed again: that is what makes results exactly-once even when two nodes
// ran the same entry (the second finisher's publish is refused and it discards its results).
// Thread-safety: free functions over a caller-owned RedisConnection (one per thread).
// Errors: RedisIoError / RedisReplyError from the connection.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "service/redis_connection.hpp"

namespace ionflow {

struct QueueKeys {
  std::string stream;
  std::string job(const std::string& id) const { return stream + ":job:" + id; }
  std::string events() const { return stream + ":events"; }
  std::string index() const { return stream + ":jobs"; }
};

using StateFields = std::vector<std::pair<std::string, std::string>>;

// kNew: only if the job has no state yet (submission). kAny: unless the state is final.
// kOwner: only while `node` runs it (state running, node equal). kProgress: as kOwner, no event.
enum class StateChange { kNew, kAny, kOwner, kProgress };

struct StateChangeResult {
  bool applied = false;
  std::string previous;  // the state before ("" = none)
};

bool is_final_state(const std::string& state);
// A job id usable in keys and as a directory name: 1-64 of [A-Za-z0-9_-].
bool is_valid_job_id(const std::string& id);
double unix_now_seconds();
// "1712345678.123" (milliseconds), as stored in the hash.
std::string format_unix_seconds(double seconds);

// Sets state, node and updated_at (plus `fields`) and appends an event, under `mode`'s rule.
StateChangeResult publish_state(RedisConnection& redis, const QueueKeys& keys,
                                const std::string& id, const std::string& state,
                                const std::string& node, StateChange mode,
                                const StateFields& fields = {});
// The job's hash (empty when the job is unknown).
std::map<std::string, std::string> read_job_state(RedisConnection& redis, const QueueKeys& keys,
                                                  const std::string& id);
// Newest first, at most `limit`.
std::vector<std::string> list_job_ids(RedisConnection& redis, const QueueKeys& keys, int limit);
// Queued: cancelled at once. Running: cancel_requested is set (the node running it stops it
// within a second). Returns the state before the request ("" = unknown job; a final state:
// nothing changed).
std::string request_queue_cancel(RedisConnection& redis, const QueueKeys& keys,
                                 const std::string& id, const std::string& reason);

}  // namespace ionflow
