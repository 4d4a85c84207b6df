#include "service/queue_state.hpp"

#include <fmt/format.h>

#include <chrono>

namespace ionflow {

namespace {

// KEYS: hash, events, index. ARGV: id, state, node, now, mode, field/value pairs...
// Returns {applied (0/1), previous state}.
const char kPublishScript[] = R"lua(
local prev = redis.call('HGET', KEYS[1], 'state') or ''
if prev == 'done' or prev == 'failed' or prev == 'cancelled' then return {0, prev} end
local mode = ARGV[5]
if mode == 'new' and prev ~= '' then return {0, prev} end
if mode == 'owner' or mode == 'progress' then
  if prev ~= 'running' or redis.call('HGET', KEYS[1], 'node') ~= ARGV[3] then return {0, prev} end
end
local f = {'id', ARGV[1], 'state', ARGV[2], 'node', ARGV[3], 'updated_at', ARGV[4]}
for i = 6, #ARGV do f[#f + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(f))
if prev == '' then redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1]) end
if mode ~= 'progress' then
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', '100000', '*', 'id', ARGV[1], 'state', ARGV[2],
             'node', ARGV[3], 'at', ARGV[4], 'error', redis.call('HGET', KEYS[1], 'error') or '')
end
return {1, prev}
)lua";

// KEYS: hash, events. ARGV: id, reason, now. Returns the state before the request.
const char kCancelScript[] = R"lua(
local prev = redis.call('HGET', KEYS[1], 'state')
if not prev then return '' end
if prev == 'queued' then
  redis.call('HSET', KEYS[1], 'state', 'cancelled', 'error', ARGV[2], 'finished_at', ARGV[3],
             'updated_at', ARGV[3], 'cancel_requested', '1')
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', '100000', '*', 'id', ARGV[1], 'state', 'cancelled',
             'node', '', 'at', ARGV[3], 'error', ARGV[2])
end
if prev == 'running' then
  redis.call('HSET', KEYS[1], 'cancel_requested', '1', 'error', ARGV[2], 'updated_at', ARGV[3])
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', '100000', '*', 'id', ARGV[1], 'state',
             'cancel_requested', 'node', redis.call('HGET', KEYS[1], 'node') or '', 'at',
             ARGV[3], 'error', ARGV[2])
end
return prev
)lua";

const char* mode_name(StateChange mode) {
  switch (mode) {
    case StateChange::kNew:
      return "new";
    case StateChange::kAny:
      return "any";
    case StateChange::kOwner:
      return "owner";
    case StateChange::kProgress:
      return "progress";
  }
  return "any";
}

}  // namespace

bool is_final_state(const std::string& state) {
  return state == "done" || state == "failed" || state == "cancelled";
}

bool is_valid_job_id(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

double unix_now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string format_unix_seconds(double seconds) {
  return fmt::format("{:.3f}", seconds);
}

StateChangeResult publish_state(RedisConnection& redis, const QueueKeys& keys,
                                const std::string& id, const std::string& state,
                                const std::string& node, StateChange mode,
                                const StateFields& fields) {
  std::vector<std::string> args = {"EVAL",
                                   kPublishScript,
                                   "3",
                                   keys.job(id),
                                   keys.events(),
                                   keys.index(),
                                   id,
                                   state,
                                   node,
                                   format_unix_seconds(unix_now_seconds()),
                                   mode_name(mode)};
  for (const auto& [k, v] : fields) args.push_back(k), args.push_back(v);
  RedisReply r = redis.command(args);
  StateChangeResult out;
  if (r.elements.size() == 2) {
    out.applied = r.elements[0].integer == 1;
    out.previous = r.elements[1].str;
  }
  return out;
}

std::map<std::string, std::string> read_job_state(RedisConnection& redis, const QueueKeys& keys,
                                                  const std::string& id) {
  RedisReply r = redis.command({"HGETALL", keys.job(id)});
  std::map<std::string, std::string> out;
  for (size_t i = 0; i + 1 < r.elements.size(); i += 2) {
    out[r.elements[i].str] = r.elements[i + 1].str;
  }
  return out;
}

std::vector<std::string> list_job_ids(RedisConnection& redis, const QueueKeys& keys, int limit) {
  RedisReply r =
      redis.command({"ZREVRANGE", keys.index(), "0", std::to_string(std::max(1, limit) - 1)});
  std::vector<std::string> out;
  for (const auto& e : r.elements) out.push_back(e.str);
  return out;
}

std::string request_queue_cancel(RedisConnection& redis, const QueueKeys& keys,
                                 const std::string& id, const std::string& reason) {
  RedisReply r = redis.command({"EVAL", kCancelScript, "2", keys.job(id), keys.events(), id, reason,
                                format_unix_seconds(unix_now_seconds())});
  return r.str;
}

}  // namespace ionflow
