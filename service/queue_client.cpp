#include "service/queue_client.hpp"

#include <fmt/format.h>

#include <thread>

#include "service/client.hpp"
#include "service/job_id.hpp"
#include "service/json_value.hpp"
#include "service/queue_state.hpp"

namespace ionflow {

namespace {

// A hash field as JSON: numbers for timestamps and counts, parsed JSON for the JSON fields.
JsonValue field_json(const std::string& key, const std::string& value) {
  if (key == "progress" || key == "summary" || key == "result_files") {
    if (value.empty()) return JsonValue();
    try {
      return parse_json(value);
    } catch (const JsonSyntaxError&) {
      return JsonValue(value);
    }
  }
  if (key.ends_with("_at")) return JsonValue(std::atof(value.c_str()));
  if (key == "deliveries") return JsonValue(static_cast<int64_t>(std::atoll(value.c_str())));
  if (key == "cancel_requested") return JsonValue(value == "1");
  return JsonValue(value);
}

JsonValue state_json(const std::map<std::string, std::string>& state) {
  JsonValue o = JsonValue::object();
  for (const char* key : {"id", "state", "node", "error", "field", "results"}) {
    auto it = state.find(key);
    o.set(key, it == state.end() ? JsonValue() : field_json(key, it->second));
  }
  for (const auto& [k, v] : state) {
    if (o.find(k) == nullptr) o.set(k, field_json(k, v));
  }
  return o;
}

int unreachable(const RedisUrl& url, const std::exception& e) {
  fmt::print(stderr, "ionflow: cannot reach the queue at {}: {}\n", url.display(), e.what());
  return 3;
}

RedisUrl url_of(const std::string& server) {
  return parse_redis_url(server, "--server");
}

}  // namespace

int queue_submit(const std::string& server, const std::string& job_path, bool wait) {
  const RedisUrl url = url_of(server);
  const std::optional<std::string> job = read_job_for_submit(job_path);
  if (!job) return 2;
  const std::string& body = *job;
  const QueueKeys keys{url.stream};
  const std::string id = new_job_id();
  RedisConnection redis(url);
  try {
    // The entry first: a node may take it before the "queued" state is written, in which case
    // that state (StateChange::kNew) is simply not written.
    RedisReply entry = redis.command({"XADD", url.stream, "*", "id", id, "job", body});
    publish_state(redis, keys, id, "queued", "", StateChange::kNew,
                  {{"entry", entry.str},
                   {"submitted_at", format_unix_seconds(unix_now_seconds())},
                   {"error", ""}});
  } catch (const RedisIoError& e) {
    return unreachable(url, e);
  } catch (const RedisReplyError& e) {
    fmt::print(stderr, "ionflow: Redis answered: {}\n", e.what());
    return 2;
  }
  fmt::print("{}\n", id);
  std::fflush(stdout);
  if (!wait) return 0;
  std::string last;
  RedisBackoff backoff;
  while (true) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::map<std::string, std::string> state;
    try {
      state = read_job_state(redis, keys, id);
      backoff.reset();
    } catch (const RedisIoError& e) {
      // The queue may come back (a Redis restart): keep waiting, as the job keeps running.
      if (backoff.failures() == 0) fmt::print(stderr, "{}: {}; still waiting\n", id, e.what());
      std::this_thread::sleep_for(backoff.next());
      continue;
    }
    const std::string s = state.count("state") ? state["state"] : "queued";
    std::string line = s + (state["node"].empty() ? "" : " on " + state["node"]);
    if (!state["progress"].empty()) {
      const JsonValue p = field_json("progress", state["progress"]);
      const JsonValue* stage = p.find("stage");
      const JsonValue* fraction = p.find("fraction");
      if (stage && stage->is_string()) line += " " + stage->as_string();
      if (fraction && fraction->type() != JsonValue::Type::kNull) {
        line += fmt::format(" {}%", static_cast<int>(fraction->as_double() * 100));
      }
    }
    if (line != last) fmt::print(stderr, "{}: {}\n", id, line), last = line;
    if (s == "done") {
      fmt::print("{}\n", to_json(field_json("summary", state["summary"]), 2));
      fmt::print(stderr, "{}: results in {}\n", id, state["results"]);
      return 0;
    }
    if (s == "failed" || s == "cancelled") {
      fmt::print(stderr, "{}: {}: {}\n", id, s, state["error"]);
      return s == "cancelled" ? 130 : 1;
    }
  }
}

int queue_status(const std::string& server, const std::string& job_id) {
  const RedisUrl url = url_of(server);
  const QueueKeys keys{url.stream};
  RedisConnection redis(url);
  try {
    if (!job_id.empty()) {
      auto state = read_job_state(redis, keys, job_id);
      if (state.empty()) {
        fmt::print(stderr, "ionflow: no such job in {}: {}\n", url.display(), job_id);
        return 2;
      }
      fmt::print("{}\n", to_json(state_json(state), 2));
      return 0;
    }
    const std::vector<std::string> ids = list_job_ids(redis, keys, 1000);
    fmt::print("{:<16} {:<10} {:<24} {}\n", "ID", "STATE", "NODE", "ERROR");
    for (const auto& id : ids) {
      auto state = read_job_state(redis, keys, id);
      fmt::print("{:<16} {:<10} {:<24} {}\n", id, state["state"], state["node"], state["error"]);
    }
    return 0;
  } catch (const RedisIoError& e) {
    return unreachable(url, e);
  }
}

int queue_cancel(const std::string& server, const std::string& job_id) {
  const RedisUrl url = url_of(server);
  RedisConnection redis(url);
  try {
    const std::string state =
        request_queue_cancel(redis, QueueKeys{url.stream}, job_id, "cancelled by client");
    if (state.empty()) {
      fmt::print(stderr, "ionflow: no such job in {}: {}\n", url.display(), job_id);
      return 2;
    }
    if (state == "running") {
      fmt::print("{} cancelling\n", job_id);
      return 0;
    }
    if (state == "queued") {
      fmt::print("{} cancelled\n", job_id);
      return 0;
    }
    fmt::print(stderr, "ionflow: job {} already {}\n", job_id, state);
    return 2;
  } catch (const RedisIoError& e) {
    return unreachable(url, e);
  }
}

}  // namespace ionflow
