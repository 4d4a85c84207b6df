#include "service/queue_consumer.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "service/job_message.hpp"
#include "service/queue_state.hpp"
#include "service/scheduler.hpp"
#include "service/summary_report.hpp"

namespace ionflow {

namespace fs = std::filesystem;

namespace {

std::string default_node_name() {
  char host[256] = {};
  if (::gethostname(host, sizeof(host) - 1) != 0) host[0] = '\0';
  return fmt::format("{}:{}", host[0] ? host : "localhost", ::getpid());
}

// A node name as part of a directory name.
std::string file_safe(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok) c = '_';
  }
  return out;
}

std::string string_list_json(const std::vector<std::string>& items) {
  JsonValue a = JsonValue::array();
  for (const auto& s : items) a.push_back(s);
  return to_json(a);
}

}  // namespace

QueueConsumer::QueueConsumer(JobStore& store, SearchRuntime& runtime, const Unimod& unimod,
                             Metrics& metrics, Options options)
    : store_(store),
      runtime_(runtime),
      unimod_(unimod),
      metrics_(metrics),
      options_(std::move(options)) {
  if (options_.node_name.empty()) options_.node_name = default_node_name();
  options_.concurrent_jobs = std::max(1, options_.concurrent_jobs);
  group_ = {options_.url.stream, options_.group, options_.node_name};
  std::error_code ec;
  fs::create_directories(options_.results_root, ec);
  if (ec) {
    throw std::runtime_error("--results-root " + options_.results_root + ": " + ec.message());
  }
}

QueueConsumer::~QueueConsumer() {
  stop(std::chrono::milliseconds(0));
}

void QueueConsumer::start() {
  std::lock_guard<std::mutex> lock(mutex_);
  reader_ = std::thread([this] { reader_loop(); });
}

void QueueConsumer::stop_taking() {
  std::lock_guard<std::mutex> lock(mutex_);
  taking_ = false;
  changed_.notify_all();
}

int QueueConsumer::running_jobs() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(running_.size());
}

int QueueConsumer::free_slots() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!taking_) return 0;
  return options_.concurrent_jobs - static_cast<int>(running_.size());
}

uint64_t QueueConsumer::backlog_chunks() const {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t chunks = 0;
  for (const auto& [id, job] : running_)
    chunks += chunks_not_scored(job->progress, job->chunk_size);
  return chunks;
}

void QueueConsumer::stop(std::chrono::milliseconds grace) {
  std::vector<std::thread> threads;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!reader_.joinable()) return;
    taking_ = false;
    changed_.notify_all();
    changed_.wait_for(lock, grace, [this] {
      return std::all_of(running_.begin(), running_.end(),
                         [](const auto& r) { return r.second->finished; });
    });
    for (auto& [id, job] : running_) {
      if (job->finished) continue;
      job->requeue_on_cancel = true;
      job->control.cancel.store(true);
    }
  }
  // Jobs stopped now publish "queued" once; a finished job still waiting for Redis gives up.
  abandon_.store(true);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [id, job] : running_) threads.push_back(std::move(job->thread));
    running_.clear();
  }
  for (auto& t : threads) {
    if (t.joinable()) t.join();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    changed_.notify_all();
  }
  reader_.join();
}

void QueueConsumer::reap_finished() {
  std::vector<std::thread> done;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = running_.begin(); it != running_.end();) {
      if (it->second->finished) {
        done.push_back(std::move(it->second->thread));
        it = running_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& t : done) {
    if (t.joinable()) t.join();
  }
}

void QueueConsumer::reader_loop() {
  // Heartbeats, progress and cancel checks run every period_ms: a quarter of the claim idle
  // time (so a live node's entries never look idle), at most 1 s.
  const int64_t claim_idle_ms = static_cast<int64_t>(options_.claim_idle_seconds * 1000);
  const int period_ms = static_cast<int>(std::clamp<int64_t>(claim_idle_ms / 4, 50, 1000));
  RedisConnection redis(options_.url, 2000, period_ms + 5000);
  RedisBackoff backoff;
  bool group_ready = false;
  std::string cursor = "0-0";
  auto last_heartbeat = std::chrono::steady_clock::time_point{};
  spdlog::info("queue: node {} joins group {} of {} (claim idle {} s, max deliveries {})",
               options_.node_name, options_.group, options_.url.display(),
               options_.claim_idle_seconds, options_.max_deliveries);
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) break;
    }
    reap_finished();
    try {
      if (!group_ready) {
        ensure_consumer_group(redis, group_);
        group_ready = true;
        if (backoff.failures() > 0) {
          spdlog::info("queue: reconnected to {} after {} attempt(s)", options_.url.display(),
                       backoff.failures());
        }
        backoff.reset();
      }
      auto now = std::chrono::steady_clock::now();
      if (now - last_heartbeat >= std::chrono::milliseconds(period_ms)) {
        heartbeat(redis);
        last_heartbeat = now;
      }
      bool took = false;
      if (free_slots() > 0) {
        std::optional<StreamEntry> entry = claim_idle_entry(redis, group_, claim_idle_ms, cursor);
        int64_t deliveries = 1;
        if (entry) {
          deliveries = delivery_count(redis, group_, entry->entry_id);
          spdlog::info("queue: entry {} claimed after {} s idle (delivery {})", entry->entry_id,
                       options_.claim_idle_seconds, deliveries);
        } else {
          entry = read_new_entry(redis, group_, period_ms);
        }
        if (entry) take(redis, *entry, deliveries), took = true;
      } else {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait_for(lock, std::chrono::milliseconds(period_ms));
      }
      (void)took;
    } catch (const RedisIoError& e) {
      group_ready = false;
      last_heartbeat = {};
      const auto delay = backoff.next();
      if (backoff.failures() == 1) {
        spdlog::warn("queue: {}; reconnecting with backoff (running jobs go on)", e.what());
      } else {
        spdlog::debug("queue: attempt {}: {}", backoff.failures(), e.what());
      }
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait_for(lock, delay, [this] { return stopping_; });
    } catch (const RedisReplyError& e) {
      if (std::string(e.what()).rfind("NOGROUP", 0) == 0) {
        spdlog::warn("queue: consumer group {} is gone (Redis lost its data?): creating it again",
                     options_.group);
        group_ready = false;
      } else {
        spdlog::error("queue: Redis answered: {}", e.what());
        std::this_thread::sleep_for(std::chrono::milliseconds(period_ms));
      }
    }
  }
}

void QueueConsumer::fail_entry(RedisConnection& redis, const StreamEntry& entry,
                               const std::string& id, const std::string& field,
                               const std::string& error) {
  const std::string now = format_unix_seconds(unix_now_seconds());
  StateFields fields = {
      {"entry", entry.entry_id}, {"error", error}, {"field", field}, {"finished_at", now}};
  const auto existing = read_job_state(redis, QueueKeys{group_.stream}, id);
  if (existing.count("submitted_at") == 0) {
    fields.emplace_back("submitted_at",
                        format_unix_seconds(entry_time_ms(entry.entry_id) / 1000.0));
  }
  publish_state(redis, QueueKeys{group_.stream}, id, "failed", options_.node_name,
                StateChange::kAny, fields);
  ack_entry(redis, group_, entry.entry_id);
  metrics_.count_finished("failed", nullptr);
  spdlog::warn("job {}: entry {} failed: {}", id, entry.entry_id, error);
}

void QueueConsumer::take(RedisConnection& redis, const StreamEntry& entry, int64_t deliveries) {
  const QueueKeys keys{group_.stream};
  std::string fallback = "q" + entry.entry_id;
  std::replace(fallback.begin(), fallback.end(), '-', '_');
  std::string id = fallback;
  if (auto it = entry.fields.find("id"); it != entry.fields.end()) {
    if (!is_valid_job_id(it->second)) {
      return fail_entry(redis, entry, fallback, "id",
                        fmt::format("id: expected 1-64 letters, digits, '_' or '-', got \"{}\"",
                                    it->second.substr(0, 80)));
    }
    id = it->second;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (running_.count(id) != 0) {
      spdlog::info("job {}: entry {} came back while this node runs it; the run goes on", id,
                   entry.entry_id);
      return;
    }
  }
  const auto state = read_job_state(redis, keys, id);
  const auto field = [&state](const char* key) {
    auto it = state.find(key);
    return it == state.end() ? std::string() : it->second;
  };
  if (is_final_state(field("state"))) {
    ack_entry(redis, group_, entry.entry_id);
    spdlog::info("job {}: already {}; entry {} acknowledged without running it", id, field("state"),
                 entry.entry_id);
    return;
  }
  if (deliveries > options_.max_deliveries) {
    const std::string last = field("node").empty() ? "unknown" : field("node");
    return fail_entry(
        redis, entry, id, "",
        fmt::format("delivered {} times; last node {}", options_.max_deliveries, last));
  }
  if (field("cancel_requested") == "1") {
    publish_state(redis, keys, id, "cancelled", options_.node_name, StateChange::kAny,
                  {{"finished_at", format_unix_seconds(unix_now_seconds())}});
    ack_entry(redis, group_, entry.entry_id);
    spdlog::info("job {}: cancelled before it ran", id);
    return;
  }
  auto job_field = entry.fields.find("job");
  if (job_field == entry.fields.end()) {
    return fail_entry(redis, entry, id, "job",
                      "job: the entry has no field \"job\" (the job message)");
  }
  std::string staging;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    staging = (fs::path(options_.results_root) /
               fmt::format("{}.partial-{}-{}", id, file_safe(options_.node_name), ++runs_))
                  .string();
  }
  ParsedJob parsed;
  try {
    JobMessageOptions message_options;
    message_options.data_roots = options_.data_roots;
    message_options.uploads_directory = options_.uploads_directory;
    message_options.forced_output_directory = staging;
    message_options.forced_index_cache_directory = options_.index_cache_directory;
    parsed = parse_job_message(job_field->second, unimod_, message_options);
  } catch (const JobMessageError& e) {
    const bool whole = e.key_path().empty();
    return fail_entry(redis, entry, id, whole ? "job" : e.key_path(),
                      whole ? std::string("job: ") + e.what() : e.what());
  } catch (const std::exception& e) {
    return fail_entry(redis, entry, id, "job", std::string("job: ") + e.what());
  }
  parsed.spec.id = id;
  for (const auto& w : parsed.warnings) spdlog::warn("job {}: {}", id, w);

  const double now = unix_now_seconds();
  StateFields fields = {{"entry", entry.entry_id},
                        {"deliveries", std::to_string(deliveries)},
                        {"started_at", format_unix_seconds(now)},
                        {"error", ""},
                        {"field", ""},
                        {"progress", ""}};
  double submitted_at = entry_time_ms(entry.entry_id) / 1000.0;
  if (!field("submitted_at").empty()) {
    submitted_at = std::atof(field("submitted_at").c_str());
  } else {
    fields.emplace_back("submitted_at", format_unix_seconds(submitted_at));
  }
  if (!publish_state(redis, keys, id, "running", options_.node_name, StateChange::kAny, fields)
           .applied) {
    ack_entry(redis, group_, entry.entry_id);  // it became final meanwhile
    return;
  }
  JobRecord record;
  record.id = id;
  record.submitted_at = submitted_at;
  record.submitted_json = job_field->second;
  record.effective_json = parsed.spec.effective_parameters_json;
  {
    std::unique_lock<std::mutex> uploads;
    if (options_.upload_gate) uploads = options_.upload_gate->hold_for_job(job_input_paths(record));
    store_.begin_external(record);
  }

  auto job = std::make_shared<Running>();
  job->id = id;
  job->entry_id = entry.entry_id;
  job->chunk_size = parsed.spec.chunk_size;
  job->control.on_progress = [this, j = job.get()](const JobProgress& p) {
    std::lock_guard<std::mutex> lock(mutex_);
    j->progress = p;
    j->progress_dirty = true;
  };
  spdlog::info("job {}: running entry {} (delivery {}, {} spectra file(s))", id, entry.entry_id,
               deliveries, parsed.spec.spectra_paths.size());
  std::lock_guard<std::mutex> lock(mutex_);
  running_[id] = job;
  job->thread = std::thread(
      [this, job, spec = std::move(parsed.spec), staging]() mutable { run(job, spec, staging); });
}

template <class Fn>
void QueueConsumer::with_retry(RedisConnection& redis, const char* what, const std::string& id,
                               Fn fn) {
  (void)redis;
  RedisBackoff backoff;
  while (true) {
    try {
      fn();
      if (backoff.failures() > 0) {
        spdlog::info("job {}: {} done after {} attempt(s)", id, what, backoff.failures() + 1);
      }
      return;
    } catch (const RedisIoError& e) {
      if (abandon_.load()) {
        spdlog::warn("job {}: {} not done ({}); its entry stays pending", id, what, e.what());
        return;
      }
      if (backoff.failures() == 0) {
        spdlog::warn("job {}: {}: {}; retrying with backoff", id, what, e.what());
      }
      std::this_thread::sleep_for(backoff.next());
    } catch (const RedisReplyError& e) {
      spdlog::error("job {}: {}: Redis answered: {}", id, what, e.what());
      return;
    }
  }
}

void QueueConsumer::run(std::shared_ptr<Running> job, JobSpec spec, std::string staging) {
  const std::string& id = job->id;
  const std::string final_dir = (fs::path(options_.results_root) / id).string();
  std::string state;
  std::string error;
  JobSummary summary;
  try {
    if (job->control.cancel.load()) throw JobCancelled("cancelled before start");
    summary = runtime_.run(spec, &job->control);
    std::error_code ec;
    fs::rename(staging, final_dir, ec);
    if (ec) {
      if (!fs::exists(final_dir)) {
        throw JobError("cannot rename " + staging + " to " + final_dir + ": " + ec.message());
      }
      spdlog::info(
          "job {}: results already in {} (an earlier run of the entry finished first); "
          "this run's copy is dropped",
          id, final_dir);
    }
    for (auto& f : summary.output_files) {
      f = (fs::path(final_dir) / fs::path(f).filename()).string();
    }
    state = "done";
  } catch (const JobCancelled& e) {
    std::lock_guard<std::mutex> lock(mutex_);
    state = job->requeue_on_cancel ? "queued" : "cancelled";
    error = job->cancel_reason.empty() ? e.what() : job->cancel_reason;
  } catch (const std::exception& e) {
    state = "failed";
    error = e.what();
  }
  std::error_code ec;
  fs::remove_all(staging, ec);

  try {
    if (state == "done") {
      store_.finish_done(id, to_json(job_summary_json(summary)), summary.output_files);
    } else if (state == "failed") {
      store_.finish_failed(id, error);
    } else if (state == "cancelled") {
      store_.finish_cancelled(id, error);
    } else {
      store_.finish_cancelled(id, "stopped on this node; the queue runs its entry again");
    }
  } catch (const std::exception& e) {
    spdlog::warn("job {}: local store: {}", id, e.what());
  }
  if (state != "queued") metrics_.count_finished(state, state == "done" ? &summary : nullptr);

  RedisConnection redis(options_.url);
  const QueueKeys keys{group_.stream};
  const std::string now = format_unix_seconds(unix_now_seconds());
  if (state == "queued") {
    // Not acknowledged: the entry is run again (here after a restart, or on another node).
    try {
      publish_state(redis, keys, id, "queued", options_.node_name, StateChange::kOwner,
                    {{"progress", ""}});
    } catch (const std::exception& e) {
      spdlog::debug("job {}: requeue not published: {}", id, e.what());
    }
    spdlog::info("job {}: stopped on this node; entry {} stays pending", id, job->entry_id);
  } else {
    StateFields fields = {{"error", error}, {"finished_at", now}};
    if (state == "done") {
      fields.emplace_back("results", final_dir);
      fields.emplace_back("result_files", string_list_json(summary.output_files));
      fields.emplace_back("summary", to_json(job_summary_json(summary)));
      std::lock_guard<std::mutex> lock(mutex_);
      fields.emplace_back("progress", to_json(job_progress_json(job->progress)));
    }
    with_retry(redis, "final state and acknowledgement", id, [&] {
      const StateChangeResult r =
          publish_state(redis, keys, id, state, options_.node_name, StateChange::kAny, fields);
      if (!r.applied) {
        spdlog::info("job {}: already {} (published by another run); not changed", id, r.previous);
      }
      ack_entry(redis, group_, job->entry_id);
    });
    if (state == "done") {
      spdlog::info("job {}: done, {} PSMs at 1% FDR in {:.2f} s; results in {}", id,
                   summary.psms_at_1pct, summary.wall_seconds, final_dir);
    } else {
      spdlog::info("job {}: {}: {}", id, state, error);
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  job->finished = true;
  changed_.notify_all();
}

void QueueConsumer::heartbeat(RedisConnection& redis) {
  const QueueKeys keys{group_.stream};
  std::vector<std::shared_ptr<Running>> jobs;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [id, job] : running_) {
      if (!job->finished) jobs.push_back(job);
    }
  }
  for (const auto& job : jobs) {
    if (job->control.cancel.load()) continue;
    const HeartbeatResult hb = heartbeat_entry(redis, group_, job->entry_id);
    if (hb.kind != HeartbeatResult::Kind::kOwned) {
      spdlog::warn("job {}: entry {} {}; stopping this node's run", job->id, job->entry_id,
                   hb.kind == HeartbeatResult::Kind::kLost
                       ? "was claimed by node " + hb.owner +
                             " (this node was cut off longer than --claim-idle-seconds)"
                       : std::string("was acknowledged elsewhere"));
      std::lock_guard<std::mutex> lock(mutex_);
      job->requeue_on_cancel = true;
      job->control.cancel.store(true);
      continue;
    }
    std::string reason;
    RedisReply r = redis.command({"HMGET", keys.job(job->id), "cancel_requested", "error"});
    if (r.elements.size() == 2 && r.elements[0].str == "1") {
      reason = r.elements[1].str.empty() ? "cancelled by client" : r.elements[1].str;
    } else if (auto local = store_.get(job->id); local && local->cancel_requested) {
      reason = local->error.empty() ? "cancelled by client" : local->error;
    }
    if (!reason.empty()) {
      spdlog::info("job {}: cancel requested ({})", job->id, reason);
      std::lock_guard<std::mutex> lock(mutex_);
      job->cancel_reason = reason;
      job->control.cancel.store(true);
      continue;
    }
    std::optional<JobProgress> progress;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (job->progress_dirty) progress = job->progress, job->progress_dirty = false;
    }
    if (progress) {
      const std::string json = to_json(job_progress_json(*progress));
      publish_state(redis, keys, job->id, "running", options_.node_name, StateChange::kProgress,
                    {{"progress", json}});
      try {
        store_.set_progress(job->id, json);
      } catch (const std::exception& e) {
        spdlog::warn("job {}: progress not stored: {}", job->id, e.what());
      }
    }
  }
}

}  // namespace ionflow
