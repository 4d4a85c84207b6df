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
#include <optional>
#include <stdexcept>
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
#include "service/upload_file.hpp"

namespace ionflow {

namespace {

namespace fs = std::filesystem;

// What the checked options resolve to.
struct ServeSetup {
  std::string host;
  int port = 0;
  uint64_t max_memory_bytes = 0;
  fs::path data_dir;               // absolute
  std::vector<std::string> roots;  // absolute data roots, with the uploads directory
  std::string uploads;             // <data-dir>/uploads
};

// Thrown for a bad option; run_serve_command prints "ionflow serve: " + what() and exits 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// HOST:PORT; an IPv6 address may be bracketed as in a URL ("[::1]:8080", RFC 3986 3.2.2), and
// is given to the socket layer without its brackets.
void split_listen(const std::string& listen, std::string& host, int& port) {
  const auto colon = listen.rfind(':');
  bool ok = colon != std::string::npos && colon != 0;
  if (ok) {
    host = listen.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
      host = host.substr(1, host.size() - 2);
    }
    try {
      size_t used = 0;
      port = std::stoi(listen.substr(colon + 1), &used);
      ok = used == listen.size() - colon - 1 && port >= 0 && port <= 65535;
    } catch (const std::exception&) {
      ok = false;
    }
  }
  if (!ok) throw UsageError("--listen: expected HOST:PORT, got " + listen);
}

// Numbers that cannot mean anything (a new-user test found them all accepted silently).
void check_numbers(const ServeOptions& o) {
  auto require = [](bool ok, const std::string& message) {
    if (!ok) throw UsageError(message);
  };
  require(o.max_queued_jobs >= 0, "--max-queued-jobs must be >= 0");
  require(o.concurrent_jobs >= 1,
          fmt::format("--concurrent-jobs must be >= 1, got {}", o.concurrent_jobs));
  require(o.scorers >= 0 && o.licensed_cores >= 0,
          fmt::format("--scorers and --licensed-cores must be >= 0 (0 = usable cores), got {} "
                      "and {}",
                      o.scorers, o.licensed_cores));
  require(o.max_connections_per_client >= 1,
          fmt::format("--max-connections-per-client must be >= 1, got {}",
                      o.max_connections_per_client));
  require(o.grace_seconds >= 0,
          fmt::format("--grace-seconds must be >= 0, got {}", o.grace_seconds));
  // -1 used to wrap to an unlimited body (a new user's 2 MB piece then went through).
  require(o.max_body_bytes >= 1,
          fmt::format("--max-body-bytes must be >= 1, got {}", o.max_body_bytes));
  require(o.queue.empty() || (o.claim_idle_seconds > 0 && o.max_deliveries >= 1),
          fmt::format("--claim-idle-seconds must be > 0 and --max-deliveries >= 1, got {} and {}",
                      o.claim_idle_seconds, o.max_deliveries));
  if (!o.scorer_listen.empty()) {
    const std::string why = check_scorer_listen(o.scorer_listen, o.scorer_token);
    require(why.empty(), why);
  }
}

uint64_t max_memory_bytes(const ServeOptions& o) {
  try {
    return o.max_memory.empty() ? default_max_memory_bytes(o.concurrent_jobs)
                                : parse_memory_size(o.max_memory);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--max-memory: ") + e.what());
  }
}

// One service per data directory: a second one would requeue and run the first one's jobs.
// The lock is held until the process exits (the kernel drops it even after kill -9).
void lock_data_dir(const fs::path& data_dir) {
  const std::string lock_path = (data_dir / "serve.lock").string();
  const int lock_fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd < 0 || ::flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
    const std::string reason = std::strerror(errno);
    if (lock_fd >= 0) ::close(lock_fd);
    throw UsageError(fmt::format("--data-dir {}: in use by another ionflow serve (lock {}: {})",
                                 data_dir.string(), lock_path, reason));
  }
}

// Creates <data-dir>/jobs and /uploads, takes the lock, and resolves the data roots: the
// given ones (default the data directory) plus the web page's uploads, readable by jobs.
void prepare_directories(const ServeOptions& o, ServeSetup& setup) {
  for (const auto& root : o.data_roots) {
    std::error_code ec;
    if (!fs::is_directory(root, ec)) throw UsageError("--data-root " + root + ": not a directory");
  }
  setup.data_dir = fs::absolute(o.data_dir).lexically_normal();
  std::error_code ec;
  fs::create_directories(setup.data_dir / "jobs", ec);
  if (ec) throw UsageError("--data-dir " + setup.data_dir.string() + ": " + ec.message());
  lock_data_dir(setup.data_dir);
  for (const auto& r : o.data_roots) {
    setup.roots.push_back(fs::absolute(r).lexically_normal().string());
  }
  if (setup.roots.empty()) setup.roots.push_back(setup.data_dir.string());
  setup.uploads = (setup.data_dir / "uploads").string();
  fs::create_directories(setup.uploads, ec);
  auto& roots = setup.roots;
  if (std::find(roots.begin(), roots.end(), setup.data_dir.string()) == roots.end()) {
    roots.push_back(setup.uploads);
  }
}

ServeSetup check_options(const ServeOptions& o) {
  ServeSetup setup;
  split_listen(o.listen, setup.host, setup.port);
  check_numbers(o);
  setup.max_memory_bytes = max_memory_bytes(o);
  prepare_directories(o, setup);
  return setup;
}

// SIGINT/SIGTERM are taken by one thread (sigwait); every thread started after this call,
// including the actor system's, inherits the blocked mask.
sigset_t block_stop_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

SearchRuntime::Options runtime_options(const ServeOptions& o) {
  SearchRuntime::Options r;
  r.licensed_cores = o.licensed_cores;
  r.scorers = o.scorers;
  const bool autoscaling = o.min_scorers >= 1 && o.min_scorers < o.max_scorers;
  if (autoscaling && o.scorers == 0) r.scorers = o.min_scorers;
  accept_scorer_nodes(r, o.scorer_listen, o.scorer_token);
  return r;
}

Scheduler::Options scheduler_options(const ServeOptions& o, const ServeSetup& setup) {
  Scheduler::Options s;
  s.concurrent_jobs = o.concurrent_jobs;
  s.jobs_directory = (setup.data_dir / "jobs").string();
  // Jobs over the same FASTA and digestion settings share one cached peptide index.
  s.index_cache_directory = (setup.data_dir / "index-cache").string();
  s.data_roots = setup.roots;
  s.max_memory_bytes = setup.max_memory_bytes;
  return s;
}

// The Redis queue's options; throws std::invalid_argument for a bad --queue URL.
QueueConsumer::Options queue_options(const ServeOptions& o, const ServeSetup& setup,
                                     UploadGate* upload_gate) {
  QueueConsumer::Options q;
  q.url = parse_redis_url(o.queue, "--queue");
  q.group = o.queue_group;
  q.node_name = o.node_name;
  q.results_root = o.results_root.empty()
                       ? (setup.data_dir / "jobs").string()
                       : fs::absolute(o.results_root).lexically_normal().string();
  q.index_cache_directory = (setup.data_dir / "index-cache").string();
  q.data_roots = setup.roots;
  q.uploads_directory = setup.uploads;
  q.claim_idle_seconds = o.claim_idle_seconds;
  q.max_deliveries = o.max_deliveries;
  q.concurrent_jobs = o.concurrent_jobs;
  q.upload_gate = upload_gate;
  return q;
}

ScorerControl::Options control_options(const ServeOptions& o) {
  ScorerControl::Options c;
  c.min_scorers = o.min_scorers;
  c.max_scorers = o.max_scorers;
  c.interval_seconds = o.autoscale_interval_seconds;
  c.idle_seconds = o.autoscale_idle_seconds;
  return c;
}

HttpApi::Options api_options(const ServeOptions& o, const ServeSetup& setup, ScorerControl* control,
                             UploadGate* upload_gate) {
  HttpApi::Options a;
  a.data_roots = setup.roots;
  a.max_body_bytes = static_cast<size_t>(o.max_body_bytes);
  a.api_token = o.api_token;
  a.max_queued_jobs = o.max_queued_jobs;
  a.http_limits.max_connections_per_address = o.max_connections_per_client;
  a.scorer_control = control;
  a.uploads_directory = setup.uploads;
  a.upload_gate = upload_gate;
  return a;
}

void print_listening(const ServeOptions& o, const ServeSetup& setup, int bound_port,
                     const ScorerControl::Status& scorers) {
  const std::string scaling =
      scorers.autoscaling
          ? fmt::format(", autoscaling {}-{}", scorers.min_scorers, scorers.max_scorers)
          : "";
  fmt::print(stderr,
             "ionflow serve: listening on http://{}:{} (data {}, {} scorer(s){}, {} concurrent "
             "job(s), at most {} queued{})\n",
             setup.host, bound_port, setup.data_dir.string(), scorers.scorers, scaling,
             o.concurrent_jobs, o.max_queued_jobs,
             o.api_token.empty() ? "" : ", API token required");
  std::fflush(stderr);
}

// The uploads a killed or stopped server left unfinished: no piece can reach them any more (the
// upload ids were the old process's), so their staged and temporary files go, each logged.
// Runs under the data directory's lock, before the API takes a piece.
void remove_unfinished_uploads_of(const ServeSetup& setup) {
  for (const UnfinishedUpload& u : remove_unfinished_uploads(setup.uploads)) {
    const std::string arrived = u.size ? fmt::format("{} of its {} bytes", u.bytes, *u.size)
                                       : fmt::format("{} bytes", u.bytes);
    if (u.error.empty()) {
      spdlog::warn(
          "upload {}: unfinished when the service stopped ({}), cannot be resumed; "
          "removed {} (send it again from offset 0)",
          u.name, arrived, u.file);
    } else {
      spdlog::warn(
          "upload {}: unfinished when the service stopped ({}), cannot be resumed; "
          "cannot remove {}: {}",
          u.name, arrived, u.file, u.error);
    }
  }
}

// The running service: its parts in the order they start; they stop in reverse (run()).
int run_service(const ServeOptions& o, const ServeSetup& setup, const sigset_t& signals) {
  std::vector<std::string> requeued, cancelled;
  JobStore store((setup.data_dir / "jobs.sqlite3").string(), &requeued, &cancelled);
  for (const auto& id : requeued)
    spdlog::warn("job {}: was running when the service stopped; requeued", id);
  remove_unfinished_uploads_of(setup);
  // Upload pieces are written under it, and jobs reading uploads recorded: by the HTTP API and
  // by the Redis queue's consumer alike (job_inputs.hpp).
  UploadGate upload_gate(store, setup.uploads);
  Unimod unimod;
  // A long-running service checks the whole file at its start (~15 ms, once) rather than at
  // the first job naming a modification the lazy title index cannot answer.
  unimod.parse_whole_file();
  SearchRuntime runtime(runtime_options(o));
  Metrics metrics;
  Scheduler scheduler(store, runtime, unimod, metrics, scheduler_options(o, setup));
  // A job cancelled while running, the service killed before it ended: as after a cancel here.
  for (const auto& id : cancelled) {
    spdlog::info("job {}: was running with a cancel requested when the service stopped; cancelled",
                 id);
    scheduler.remove_partial_output(id);
  }
  std::unique_ptr<QueueConsumer> queue;
  if (!o.queue.empty()) {
    queue = std::make_unique<QueueConsumer>(store, runtime, unimod, metrics,
                                            queue_options(o, setup, &upload_gate));
  }
  auto backlog = [&scheduler, &queue] {
    return scheduler.backlog_chunks() + (queue ? queue->backlog_chunks() : 0);
  };
  ScorerControl control(runtime, backlog, control_options(o));
  HttpApi api(store, scheduler, runtime, unimod, metrics,
              api_options(o, setup, &control, &upload_gate));
  const int bound_port = api.bind(setup.host, setup.port);
  scheduler.start();
  if (queue) queue->start();
  control.start();
  print_listening(o, setup, bound_port, control.status());

  std::thread signal_thread([&] {
    int sig = 0;
    sigwait(&signals, &sig);
    spdlog::info("signal {}: stopping (running jobs get {} s, then are requeued)", sig,
                 o.grace_seconds);
    scheduler.stop_claiming();
    if (queue) queue->stop_taking();
    api.stop();
  });
  // An API that failed (see HttpApi::serve) stops the service as SIGTERM would, and the exit
  // status says so: a supervisor (systemd) then restarts it, instead of jobs running unreachable.
  const bool api_failed = !api.serve();
  if (api_failed) ::kill(::getpid(), SIGTERM);
  signal_thread.join();
  control.stop();
  const auto grace = std::chrono::milliseconds(static_cast<int64_t>(o.grace_seconds * 1000));
  // Both stop within one grace period (the queue's in a thread of its own).
  std::thread queue_stop([&] {
    if (queue) queue->stop(grace);
  });
  scheduler.stop(grace);
  queue_stop.join();
  spdlog::info("stopped");
  return api_failed ? 1 : 0;
}

}  // namespace

int run_serve_command(const ServeOptions& options) {
  limit_malloc_arenas();
  try {
    const ServeSetup setup = check_options(options);
    const sigset_t signals = block_stop_signals();
    return run_service(options, setup, signals);
  } catch (const std::exception& e) {
    fmt::print(stderr, "ionflow serve: {}\n", e.what());
    return 2;
  }
}

}  // namespace ionflow
