#include "service/serve_cli.hpp"

namespace ionflow {
namespace {

void add_http_options(CLI::App* sv, ServeOptions& serve) {
  sv->add_option("--data-dir", serve.data_dir, "Directory for the job database and job results")
      ->required();
  sv->add_option("--listen", serve.listen,
                 "Address to listen on, HOST:PORT ([::1]:PORT for IPv6; port 0 = any free port)")
      ->capture_default_str();
  sv->add_option(
      "--data-root", serve.data_roots,
      "Directory jobs may read inputs from (repeatable); default: none besides --data-dir");
  sv->add_option("--max-body-bytes", serve.max_body_bytes, "Largest accepted request body")
      ->capture_default_str();
  sv->add_option("--api-token", serve.api_token,
                 "Require 'Authorization: Bearer TOKEN' on every route but GET /v1/health and "
                 "/metrics (prefer the variable or a config file: argv is visible in ps)")
      ->envname("IONFLOW_API_TOKEN");
  sv->add_option("--max-connections-per-client", serve.max_connections_per_client,
                 "Open HTTP connections per client IP address; more are answered 503 at once")
      ->capture_default_str();
}

void add_job_options(CLI::App* sv, ServeOptions& serve) {
  sv->add_option("--concurrent-jobs", serve.concurrent_jobs, "Jobs running at once")
      ->capture_default_str();
  sv->add_option("--grace-seconds", serve.grace_seconds,
                 "On SIGTERM, how long running jobs may finish before they are requeued")
      ->capture_default_str();
  sv->add_option("--max-queued-jobs", serve.max_queued_jobs,
                 "Submissions beyond this many queued jobs are refused with 429")
      ->capture_default_str();
  sv->add_option("--max-memory", serve.max_memory,
                 "Memory budget of each job's peptide index (8G, 512M, bytes). Default: 3/4 of "
                 "MemAvailable (or of the cgroup limit) / --concurrent-jobs");
}

void add_scorer_options(CLI::App* sv, ServeOptions& serve) {
  sv->add_option("--licensed-cores", serve.licensed_cores, "Cap on scorers; 0 = usable cores")
      ->capture_default_str();
  sv->add_option("--scorers", serve.scorers, "Initial scorer count; 0 = licensed cores")
      ->capture_default_str();
  sv->add_option("--min-scorers", serve.min_scorers,
                 "Autoscaling: fewest scorers (with --max-scorers; off when both are 0)")
      ->capture_default_str();
  sv->add_option("--max-scorers", serve.max_scorers,
                 "Autoscaling: most scorers, capped by --licensed-cores; the pool grows toward "
                 "it while chunks wait and shrinks to --min-scorers when idle")
      ->capture_default_str();
  sv->add_option("--autoscale-interval", serve.autoscale_interval_seconds,
                 "Autoscaling: seconds between looks at the chunk backlog")
      ->capture_default_str();
  sv->add_option("--autoscale-idle-seconds", serve.autoscale_idle_seconds,
                 "Autoscaling: seconds without backlog before shrinking to --min-scorers")
      ->capture_default_str();
  sv->add_option("--scorer-listen", serve.scorer_listen,
                 "Accept remote scorer nodes (ionflow scorer-node) on HOST:PORT into the shared "
                 "scorer pool; beyond loopback only with --scorer-token");
  sv->add_option("--scorer-token", serve.scorer_token,
                 "Token remote scorer nodes must give (or IONFLOW_SCORER_TOKEN)")
      ->envname("IONFLOW_SCORER_TOKEN");
}

void add_queue_options(CLI::App* sv, ServeOptions& serve) {
  sv->add_option("--queue", serve.queue,
                 "Also take jobs from a Redis stream: redis://[:PASS@]HOST:PORT[/STREAM] (stream "
                 "default ionflow:jobs; password also from IONFLOW_REDIS_PASSWORD)");
  sv->add_option("--queue-group", serve.queue_group, "Redis consumer group of the queue's nodes")
      ->capture_default_str();
  sv->add_option("--node-name", serve.node_name,
                 "This node's consumer name in the queue (default HOST:PID)");
  sv->add_option("--results-root", serve.results_root,
                 "Where queue jobs' results go, DIR/<id>/ (a directory all nodes share); "
                 "default <data-dir>/jobs");
  sv->add_option("--claim-idle-seconds", serve.claim_idle_seconds,
                 "A queue entry pending this long on a silent node is claimed and run here")
      ->capture_default_str();
  sv->add_option("--max-deliveries", serve.max_deliveries,
                 "A queue entry delivered this many times without finishing is failed")
      ->capture_default_str();
}

}  // namespace

CLI::App* add_serve_command(CLI::App& app, ServeOptions& options) {
  CLI::App* sv =
      app.add_subcommand("serve", "Run the search service (HTTP JSON API, SQLite job store)");
  sv->footer(
      "Every option may also come from a TOML/INI file: ionflow serve --config FILE, with the "
      "long option names as keys in a [serve] section; the command line overrides the file.");
  add_http_options(sv, options);
  add_job_options(sv, options);
  add_scorer_options(sv, options);
  add_queue_options(sv, options);
  return sv;
}

}  // namespace ionflow
