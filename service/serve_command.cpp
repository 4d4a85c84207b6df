#include "service/serve_command.hpp"

#include <fmt/format.h>
#include <pthread.h>
#include <spdlog/spdlog.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <memory>
#include <thread>

#include "actors/search_runtime.hpp"
#include "service/http_api.hpp"
#include "service/job_store.hpp"
#include "service/memory_budget.hpp"
#include "service/metrics.hpp"
#include "service/queue_consumer.hpp"
#include "service/scheduler.hpp"
#include "service/scorer_control.hpp"
#include "service/scorer_handshake.hpp"

namespace ionflow {

namespace {

bool split_listen(const std::string& listen, std::string& host, int& port) {
  auto colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  host = listen.substr(0, colon);
  try {
    size_t used = 0;
    port = std::stoi(listen.substr(colon + 1), &used);
    return used == listen.size() - colon - 1 && port >= 0 && port <= 65535;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

int run_serve_command(const ServeOptions& options) {
  std::string host;
  int port = 0;
  if (!split_listen(options.listen, host, port)) {
    fmt::print(stderr, "ionflow serve: --listen: expected HOST:PORT, got {}\n", options.listen);
    return 2;
  }
  if (options.max_queued_jobs < 0) {
    fmt::print(stderr, "ionflow serve: --max-queued-jobs must be >= 0\n");
    return 2;
  }
  // Numbers that cannot mean anything (a new-user test found them all accepted silently).
  if (options.concurrent_jobs < 1) {
    fmt::print(stderr, "ionflow serve: --concurrent-jobs must be >= 1, got {}\n",
               options.concurrent_jobs);
    return 2;
  }
  if (options.scorers < 0 || options.licensed_cores < 0) {
    fmt::print(stderr,
               "ionflow serve: --scorers and --licensed-cores must be >= 0 (0 = usable "
               "cores), got {} and {}\n",
               options.scorers, options.licensed_cores);
    return 2;
  }
  uint64_t max_memory_bytes = 0;
  try {
    max_memory_bytes = options.max_memory.empty()
                           ? default_max_memory_bytes(options.concurrent_jobs)
                           : parse_memory_size(options.max_memory);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "ionflow serve: --max-memory: {}\n", e.what());
    return 2;
  }
  if (options.max_connections_per_client < 1) {
    fmt::print(stderr, "ionflow serve: --max-connections-per-client must be >= 1, got {}\n",
               options.max_connections_per_client);
    return 2;
  }
  if (!(options.grace_seconds >= 0)) {
    fmt::print(stderr, "ionflow serve: --grace-seconds must be >= 0, got {}\n",
               options.grace_seconds);
    return 2;
  }
  if (!options.queue.empty() && (!(options.claim_idle_seconds > 0) || options.max_deliveries < 1)) {
    fmt::print(stderr,
               "ionflow serve: --claim-idle-seconds must be > 0 and --max-deliveries >= 1, got {} "
               "and {}\n",
               options.claim_idle_seconds, options.max_deliveries);
    return 2;
  }
  for (const auto& root : options.data_roots) {
    std::error_code root_ec;
    if (!std::filesystem::is_directory(root, root_ec)) {
      fmt::print(stderr, "ionflow serve: --data-root {}: not a directory\n", root);
      return 2;
    }
  }
  if (!options.scorer_listen.empty()) {
    if (std::string why = check_scorer_listen(options.scorer_listen, options.scorer_token);
        !why.empty()) {
      fmt::print(stderr, "ionflow serve: {}\n", why);
      return 2;
    }
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path data_dir = fs::absolute(options.data_dir).lexically_normal();
  fs::create_directories(data_dir / "jobs", ec);
  if (ec) {
    fmt::print(stderr, "ionflow serve: --data-dir {}: {}\n", data_dir.string(), ec.message());
    return 2;
  }
  // One service per data directory: a second one would requeue and run the first one's jobs.
  const std::string lock_path = (data_dir / "serve.lock").string();
  const int lock_fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd < 0 || ::flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
    fmt::print(stderr,
               "ionflow serve: --data-dir {}: in use by another ionflow serve (lock {}: {})\n",
               data_dir.string(), lock_path, std::strerror(errno));
    if (lock_fd >= 0) ::close(lock_fd);
    return 2;
  }
  // Held until the process exits (the kernel drops it even after kill -9).
  std::vector<std::string> roots;
  for (const auto& r : options.data_roots)
    roots.push_back(fs::absolute(r).lexically_normal().string());
  if (roots.empty()) roots.push_back(data_dir.string());
  // The web page's uploads land here, readable by jobs like any data root.
  const std::string uploads = (data_dir / "uploads").string();
  fs::create_directories(uploads, ec);
  if (std::find(roots.begin(), roots.end(), data_dir.string()) == roots.end()) {
    roots.push_back(uploads);
  }

  // SIGINT/SIGTERM are taken by one thread (sigwait); every thread started from here on,
  // including the actor system's, inherits the blocked mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  try {
    std::vector<std::string> requeued;
    JobStore store((data_dir / "jobs.sqlite3").string(), &requeued);
    for (const auto& id : requeued)
      spdlog::warn("job {}: was running when the service stopped; requeued", id);
    Unimod unimod;
    // A long-running service checks the whole file at its start (~15 ms, once) rather than at
    // the first job naming a modification the lazy title index cannot answer.
    unimod.parse_whole_file();
    SearchRuntime::Options runtime_options;
    runtime_options.licensed_cores = options.licensed_cores;
    runtime_options.scorers = options.scorers;
    const bool autoscaling = options.min_scorers >= 1 && options.min_scorers < options.max_scorers;
    if (autoscaling && options.scorers == 0) runtime_options.scorers = options.min_scorers;
    accept_scorer_nodes(runtime_options, options.scorer_listen, options.scorer_token);
    SearchRuntime runtime(runtime_options);
    Metrics metrics;
    Scheduler::Options scheduler_options;
    scheduler_options.concurrent_jobs = options.concurrent_jobs;
    scheduler_options.jobs_directory = (data_dir / "jobs").string();
    // Jobs over the same FASTA and digestion settings share one cached peptide index.
    scheduler_options.index_cache_directory = (data_dir / "index-cache").string();
    scheduler_options.data_roots = roots;
    scheduler_options.max_memory_bytes = max_memory_bytes;
    Scheduler scheduler(store, runtime, unimod, metrics, scheduler_options);
    std::unique_ptr<QueueConsumer> queue;
    if (!options.queue.empty()) {
      QueueConsumer::Options queue_options;
      try {
        queue_options.url = parse_redis_url(options.queue, "--queue");
      } catch (const std::invalid_argument& e) {
        fmt::print(stderr, "ionflow serve: {}\n", e.what());
        return 2;
      }
      queue_options.group = options.queue_group;
      queue_options.node_name = options.node_name;
      queue_options.results_root =
          options.results_root.empty()
              ? (data_dir / "jobs").string()
              : fs::absolute(options.results_root).lexically_normal().string();
      queue_options.index_cache_directory = scheduler_options.index_cache_directory;
      queue_options.data_roots = roots;
      queue_options.claim_idle_seconds = options.claim_idle_seconds;
      queue_options.max_deliveries = options.max_deliveries;
      queue_options.concurrent_jobs = options.concurrent_jobs;
      queue = std::make_unique<QueueConsumer>(store, runtime, unimod, metrics, queue_options);
    }
    ScorerControl::Options control_options;
    control_options.min_scorers = options.min_scorers;
    control_options.max_scorers = options.max_scorers;
    control_options.interval_seconds = options.autoscale_interval_seconds;
    control_options.idle_seconds = options.autoscale_idle_seconds;
    std::unique_ptr<ScorerControl> control;
    try {
      control = std::make_unique<ScorerControl>(
          runtime,
          [&scheduler, &queue] {
            return scheduler.backlog_chunks() + (queue ? queue->backlog_chunks() : 0);
          },
          control_options);
    } catch (const std::invalid_argument& e) {
      fmt::print(stderr, "ionflow serve: {}\n", e.what());
      return 2;
    }
    HttpApi::Options api_options;
    api_options.data_roots = roots;
    api_options.max_body_bytes = options.max_body_bytes;
    api_options.api_token = options.api_token;
    api_options.max_queued_jobs = options.max_queued_jobs;
    api_options.http_limits.max_connections_per_address = options.max_connections_per_client;
    api_options.scorer_control = control.get();
    api_options.uploads_directory = uploads;
    HttpApi api(store, scheduler, runtime, unimod, metrics, api_options);
    int bound = api.bind(host, port);
    scheduler.start();
    if (queue) queue->start();
    control->start();
    const ScorerControl::Status scorers = control->status();
    const std::string scaling =
        scorers.autoscaling
            ? fmt::format(", autoscaling {}-{}", scorers.min_scorers, scorers.max_scorers)
            : "";
    fmt::print(stderr,
               "ionflow serve: listening on http://{}:{} (data {}, {} scorer(s){}, {} concurrent "
               "job(s), at most {} queued{})\n",
               host, bound, data_dir.string(), scorers.scorers, scaling, options.concurrent_jobs,
               options.max_queued_jobs, options.api_token.empty() ? "" : ", API token required");
    std::fflush(stderr);

    std::thread signal_thread([&] {
      int sig = 0;
      sigwait(&signals, &sig);
      spdlog::info("signal {}: stopping (running jobs get {} s, then are requeued)", sig,
                   options.grace_seconds);
      scheduler.stop_claiming();
      if (queue) queue->stop_taking();
      api.stop();
    });
    api.serve();
    signal_thread.join();
    control->stop();
    const auto grace =
        std::chrono::milliseconds(static_cast<int64_t>(options.grace_seconds * 1000));
    // Both stop within one grace period (the queue's in a thread of its own).
    std::thread queue_stop([&] {
      if (queue) queue->stop(grace);
    });
    scheduler.stop(grace);
    queue_stop.join();
    spdlog::info("stopped");
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "ionflow serve: {}\n", e.what());
    return 2;
  }
}

}  // namespace ionflow
