// `ionflow serve`: the search service — a SQLite job store in --data-dir, a scheduler running
// queued jobs on one shared SearchRuntime, and the HTTP JSON API (service/http_api.hpp).
// Job inputs must lie under a --data-root (default: the data directory itself); results go to
// <data-dir>/jobs/<id>/. SIGINT/SIGTERM stop it gracefully (see grace_seconds).
// Returns the process exit code: 0 after a graceful stop (SIGINT/SIGTERM), 2 on bad options
// or when the address cannot be bound or the data directory cannot be opened.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ionflow {

struct ServeOptions {
  std::string data_dir;                   // jobs.sqlite3 and jobs/<id>/ results
  std::string listen = "127.0.0.1:8080";  // HOST:PORT; port 0 = any free port (printed)
  std::vector<std::string> data_roots;    // where job inputs may be read from
  int concurrent_jobs = 1;                // jobs running at once, sharing the scorer pool
  int licensed_cores = 0;                 // cap on scorers; 0 = usable cores
  int scorers = 0;      // initial scorer count; 0 = licensed cores (min_scorers when autoscaling)
  int min_scorers = 0;  // autoscaling bounds; both 0 = off; max is capped by licensed_cores
  int max_scorers = 0;
  double autoscale_interval_seconds = 0.5;  // how often the autoscaler reads the backlog
  double autoscale_idle_seconds = 5.0;      // backlog 0 this long -> shrink to min_scorers
  std::string api_token;                    // "" = no authentication
  int64_t max_queued_jobs = 1000;           // submissions beyond this many queued get 429
  int64_t max_body_bytes = 1 << 20;         // larger request bodies get 413; >= 1
  std::string max_memory;  // per job, "8G"; "" = 3/4 of available memory / concurrent_jobs
  int max_connections_per_client = 64;  // open HTTP connections per client IP; more get 503
  double grace_seconds = 10;  // on SIGTERM: running jobs may finish this long, then are requeued
  // Jobs from a Redis stream (service/queue_consumer.hpp); "" = none.
  std::string queue;                    // redis://[:PASS@]HOST:PORT[/STREAM]
  std::string queue_group = "ionflow";  // consumer group
  std::string node_name;                // consumer name; "" = HOST:PID
  std::string results_root;             // queue jobs' results: DIR/<id>/; "" = <data-dir>/jobs
  double claim_idle_seconds = 60;       // a pending entry idle this long is claimed by another node
  int max_deliveries = 3;               // an entry delivered more often is failed
  // Remote scorer nodes (service/scorer_handshake.hpp); "" = none.
  std::string scorer_listen;  // HOST:PORT; loopback unless a token is given
  std::string scorer_token;   // --scorer-token / IONFLOW_SCORER_TOKEN
};

int run_serve_command(const ServeOptions& options);

}  // namespace ionflow
