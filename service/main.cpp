// The `ionflow` command: `search` (one job, like Sage's CLI), `serve` (the job service),
// `scorer-node` (scorers lent to a serve or search on another machine) and the service's client
// commands (`submit`, `status`, `cancel`, `scorers`). Only the command-line
// definitions live here; each command is a function in its own file.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "service/client.hpp"
#include "service/queue_client.hpp"
#include "service/redis_connection.hpp"
#include "service/scorer_node_command.hpp"
#include "service/search_command.hpp"
#include "service/serve_command.hpp"

namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(item);  // "tsv,,mzid": "" is reported
  return out;
}

ionflow::JsonValue string_array(const std::vector<std::string>& items) {
  ionflow::JsonValue a = ionflow::JsonValue::array();
  for (const auto& s : items) a.push_back(s);
  return a;
}

ionflow::JsonValue symmetric_tolerance(const char* unit, double width) {
  ionflow::JsonValue t = ionflow::JsonValue::object();
  t.set(unit, ionflow::JsonValue::Array{ionflow::JsonValue(-width), ionflow::JsonValue(width)});
  return t;
}

// The --*-tol-* flags give the half-width x of a symmetric window [-x, x].
const CLI::Validator kHalfWidth(
    [](std::string& value) -> std::string {
      try {
        if (std::stod(value) >= 0) return "";
      } catch (const std::exception&) {
        return "expected a number, got " + value;
      }
      return "expected a half-width >= 0 (the window is [-x, x]), got " + value +
             "; for an asymmetric window give precursor_tol / fragment_tol in the job file";
    },
    "HALF_WIDTH");

// An integer option in [lo, hi]. CLI11's own conversion error for "--chunk-size -5" (an
// unsigned option) named neither the range nor what the option counts; this says both.
// `what` is e.g. "queries per chunk"; the message is printed after "--option: ".
CLI::Validator integer_in(long long lo, long long hi, const std::string& what) {
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, what, range](std::string& value) -> std::string {
        long long n = 0;
        size_t used = 0;
        try {
          n = std::stoll(value, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != value.size() || n < lo || n > hi) {
          return what + " must be an integer in " + range + ", got " + value;
        }
        return "";
      },
      "INT in " + range);
}

void set_log_level(const std::string& level) {
  auto logger = spdlog::stderr_color_mt("ionflow");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
  spdlog::set_level(spdlog::level::from_str(level));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ionflow: MS/MS peptide database search engine and search service"};
  app.set_version_flag("-V,--version", std::string("ionflow ") + IONFLOW_VERSION);
  app.require_subcommand(1);
  app.fallthrough();  // --log-level and --config may also follow the command
  // CLI11's config files (TOML or INI): `ionflow serve --config serve.toml` reads the [serve]
  // section's keys as serve's long option names; options on the command line win.
  app.set_config("--config", "",
                 "Read options from a TOML/INI file; keys in a [serve] section are serve's long "
                 "option names (data-dir = \"/srv/ionflow\"); command-line options override it");
  app.allow_config_extras(CLI::config_extras_mode::error);  // a misspelt key is named
  std::string log_level = "info";
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error, off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}))
      ->capture_default_str();

  // ---- search -------------------------------------------------------------------------------
  ionflow::SearchCommand search;
  std::vector<std::string> spectra;
  std::string fasta, output_directory, output_formats, enzyme, decoy_tag, index_cache;
  int scorers = 0, parsers = 1, licensed_cores = 0, missed_cleavages = 0, report_psms = 1;
  uint32_t chunk_size = 1000, sorter_memory_mb = 64;
  double precursor_ppm = 0, precursor_da = 0, fragment_ppm = 0, fragment_da = 0;
  auto* s = app.add_subcommand("search", "Search spectra against a FASTA database (one job)");
  s->add_option("job", search.job_path, "JSON job message (a Sage config file is one)")
      ->required()
      ->check(CLI::ExistingFile);
  s->add_option("spectra", spectra,
                "Spectra files (mzML, MGF; .gz/.zst ok); override mzml_paths/spectra in the job");
  auto* o_fasta = s->add_option("-f,--fasta", fasta, "FASTA database; overrides database.fasta");
  auto* o_out = s->add_option("-o,--output-directory,--output_directory", output_directory,
                              "Where results go; overrides output_directory");
  bool zstd = false, write_pin = false;
  auto* o_zstd = s->add_flag("--zstd", zstd, "Compress result files with zstd (zstd: true)");
  auto* o_pin =
      s->add_flag("--write-pin", write_pin, "Also write Percolator input (Sage's --write-pin)");
  auto* o_formats = s->add_option("--output-formats", output_formats,
                                  "Comma-separated: tsv,mzid,mzid1.2,pepxml,pin (output_formats)");
  auto* o_scorers =
      s->add_option("--scorers", scorers, "Scorer actors; 0 = usable cores (scorers)");
  auto* o_parsers = s->add_option("--parsers", parsers, "Parser actors, 1-4 (parsers)");
  auto* o_licensed = s->add_option("--licensed-cores", licensed_cores,
                                   "Cap on scorers; 0 = cores available (licensed_cores)");
  // The job message's chunk_size range (service/job_message.cpp).
  auto* o_chunk = s->add_option("--chunk-size", chunk_size, "Queries per chunk (chunk_size)")
                      ->check(integer_in(1, 1000000, "queries per chunk (chunk_size)"));
  auto* o_index_cache = s->add_option(
      "--index-cache", index_cache,
      "Directory caching the digested peptide index by FASTA checksum and digestion settings; "
      "a later job on the same database skips digestion (index_cache_directory)");
  auto* o_sorter = s->add_option("--sorter-memory-mb", sorter_memory_mb,
                                 "Sorter memory before spilling to disk, MiB (sorter_memory_mb)");
  auto* o_pre_ppm =
      s->add_option("--precursor-tol-ppm", precursor_ppm,
                    "Symmetric precursor tolerance, ppm (precursor_tol {ppm: [-x, x]})")
          ->check(kHalfWidth);
  auto* o_pre_da = s->add_option("--precursor-tol-da", precursor_da,
                                 "Symmetric precursor tolerance, Da (precursor_tol {da: [-x, x]})")
                       ->check(kHalfWidth);
  auto* o_frag_ppm = s->add_option("--fragment-tol-ppm", fragment_ppm,
                                   "Symmetric fragment tolerance, ppm (fragment_tol)")
                         ->check(kHalfWidth);
  auto* o_frag_da = s->add_option("--fragment-tol-da", fragment_da,
                                  "Symmetric fragment tolerance, Da (fragment_tol)")
                        ->check(kHalfWidth);
  o_pre_ppm->excludes(o_pre_da);
  o_frag_ppm->excludes(o_frag_da);
  auto* o_enzyme = s->add_option("--enzyme", enzyme, "Enzyme name, e.g. trypsin, lys-c (enzyme)");
  auto* o_missed = s->add_option("--missed-cleavages", missed_cleavages,
                                 "Missed cleavages (database.enzyme.missed_cleavages)");
  auto* o_decoy =
      s->add_option("--decoy-tag", decoy_tag, "Decoy accession tag (database.decoy_tag)");
  auto* o_report =
      s->add_option("--report-psms", report_psms, "PSMs reported per spectrum (report_psms)");
  s->add_flag("--dry-run", search.dry_run,
              "Print the effective parameters (JSON) on stdout and exit without searching");
  s->add_flag("-q,--quiet", search.quiet, "No progress output and no [info] log lines");
  s->add_option("--scorer-listen", search.scorer_listen,
                "Accept remote scorer nodes (ionflow scorer-node) on HOST:PORT during the job; "
                "beyond loopback only with --scorer-token");
  s->add_option("--scorer-token", search.scorer_token,
                "Token remote scorer nodes must give (or IONFLOW_SCORER_TOKEN)")
      ->envname("IONFLOW_SCORER_TOKEN");
  s->add_option("--max-memory", search.max_memory,
                "Memory budget of the peptide index (8G, 512M, bytes); a job estimated above it "
                "fails at once naming the settings. Default: 3/4 of MemAvailable (or of the "
                "cgroup limit)");

  // ---- serve and client commands --------------------------------------------------------------
  ionflow::ServeOptions serve;
  auto* sv =
      app.add_subcommand("serve", "Run the search service (HTTP JSON API, SQLite job store)");
  sv->footer(
      "Every option may also come from a TOML/INI file: ionflow serve --config FILE, with the "
      "long option names as keys in a [serve] section; the command line overrides the file.");
  sv->add_option("--data-dir", serve.data_dir, "Directory for the job database and job results")
      ->required();
  sv->add_option("--listen", serve.listen,
                 "Address to listen on, HOST:PORT (port 0 = any free port)")
      ->capture_default_str();
  sv->add_option(
      "--data-root", serve.data_roots,
      "Directory jobs may read inputs from (repeatable); default: none besides --data-dir");
  sv->add_option("--concurrent-jobs", serve.concurrent_jobs, "Jobs running at once")
      ->capture_default_str();
  sv->add_option("--licensed-cores", serve.licensed_cores, "Cap on scorers; 0 = usable cores")
      ->capture_default_str();
  sv->add_option("--scorers", serve.scorers, "Initial scorer count; 0 = licensed cores")
      ->capture_default_str();
  sv->add_option("--max-body-bytes", serve.max_body_bytes, "Largest accepted request body")
      ->capture_default_str();
  sv->add_option("--grace-seconds", serve.grace_seconds,
                 "On SIGTERM, how long running jobs may finish before they are requeued")
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
  sv->add_option("--api-token", serve.api_token,
                 "Require 'Authorization: Bearer TOKEN' on every route but GET /v1/health and "
                 "/metrics (prefer the variable or a config file: argv is visible in ps)")
      ->envname("IONFLOW_API_TOKEN");
  sv->add_option("--max-queued-jobs", serve.max_queued_jobs,
                 "Submissions beyond this many queued jobs are refused with 429")
      ->capture_default_str();
  sv->add_option("--max-memory", serve.max_memory,
                 "Memory budget of each job's peptide index (8G, 512M, bytes). Default: 3/4 of "
                 "MemAvailable (or of the cgroup limit) / --concurrent-jobs");
  sv->add_option("--max-connections-per-client", serve.max_connections_per_client,
                 "Open HTTP connections per client IP address; more are answered 503 at once")
      ->capture_default_str();

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

  sv->add_option("--scorer-listen", serve.scorer_listen,
                 "Accept remote scorer nodes (ionflow scorer-node) on HOST:PORT into the shared "
                 "scorer pool; beyond loopback only with --scorer-token");
  sv->add_option("--scorer-token", serve.scorer_token,
                 "Token remote scorer nodes must give (or IONFLOW_SCORER_TOKEN)")
      ->envname("IONFLOW_SCORER_TOKEN");

  // ---- scorer-node ---------------------------------------------------------------------------
  ionflow::ScorerNodeCommand node;
  auto* sn = app.add_subcommand(
      "scorer-node", "Lend this machine's scorers to an ionflow serve/search --scorer-listen");
  sn->add_option("--connect", node.connect, "The coordinator's --scorer-listen HOST:PORT")
      ->required();
  sn->add_option("--scorers", node.scorers, "Scorers lent; 0 = usable cores")
      ->capture_default_str();
  sn->add_option("--token", node.token,
                 "The coordinator's --scorer-token (or IONFLOW_SCORER_TOKEN)")
      ->envname("IONFLOW_SCORER_TOKEN");
  sn->add_option("--name", node.name, "This node's name in the coordinator (default HOST:PID)");

  ionflow::ClientOptions client;
  auto add_server = [&client](CLI::App* sub) {
    // No CLI11 envname here: these options exist once per client subcommand, all bound to the
    // same variable, and the environment of a subcommand not used could overwrite a flag given
    // to the one used. The environment is read after parsing, only for what no flag gave.
    sub->add_option("--server", client.server,
                    "Service address, http://HOST:PORT, or a Redis job queue, "
                    "redis://HOST:PORT[/STREAM] (or IONFLOW_SERVER)")
        ->capture_default_str();
    sub->add_option("--token", client.token,
                    "API token of a server started with --api-token (or IONFLOW_API_TOKEN)");
  };
  std::string submit_path;
  bool submit_wait = false;
  auto* sub = app.add_subcommand("submit", "Submit a job message to the service");
  sub->add_option("job", submit_path, "JSON job message")->required()->check(CLI::ExistingFile);
  sub->add_flag("--wait", submit_wait, "Wait until the job ends; exit code as `ionflow search`");
  add_server(sub);
  std::string status_id;
  auto* st = app.add_subcommand("status", "Show one job, or list the jobs");
  st->add_option("id", status_id, "Job id");
  add_server(st);
  std::string cancel_id;
  auto* ca = app.add_subcommand("cancel", "Cancel a queued or running job");
  ca->add_option("id", cancel_id, "Job id")->required();
  add_server(ca);
  int scorer_count = 0;
  auto* sc = app.add_subcommand("scorers", "Show, or set, the service's scorer count");
  bool resume_autoscale = false;
  auto* o_count = sc->add_option("count", scorer_count,
                                 "New scorer count (pins it when the server autoscales)");
  sc->add_flag("--autoscale", resume_autoscale,
               "Release a pin: the autoscaler sizes the pool again")
      ->excludes(o_count);
  add_server(sc);

  // Usage errors exit 2 (as bad job files do), not with CLI11's own codes; --help and --version
  // exit 0. A first word that is no command is named, rather than "A subcommand is required".
  if (argc > 1 && argv[1][0] != '-') {
    const std::string_view word = argv[1];
    bool known = false;
    for (const auto* cmd : app.get_subcommands([](CLI::App*) { return true; }))
      known = known || cmd->get_name() == word;
    if (!known) {
      fmt::print(stderr,
                 "ionflow: unknown command '{}' (expected search, serve, scorer-node, submit, "
                 "status, cancel or scorers; see ionflow --help)\n",
                 word);
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  set_log_level(log_level);
  if (app.get_subcommands().size() == 1) {
    CLI::App* used = app.get_subcommands().front();
    auto from_env = [used](const char* option, const char* variable, std::string& value) {
      if (used->get_option_no_throw(option) == nullptr || used->count(option) > 0) return;
      if (const char* v = std::getenv(variable); v != nullptr && *v != '\0') value = v;
    };
    from_env("--server", "IONFLOW_SERVER", client.server);
    from_env("--token", "IONFLOW_API_TOKEN", client.token);
  }

  if (*s) {
    // -q: no progress and no [info] lines; warnings and errors still show (unless --log-level
    // was given explicitly).
    if (search.quiet && app.count("--log-level") == 0) spdlog::set_level(spdlog::level::warn);
    auto& ov = search.overrides;
    if (!spectra.empty()) ov.emplace_back("mzml_paths", string_array(spectra));
    if (*o_fasta) ov.emplace_back("database.fasta", fasta);
    if (*o_out) ov.emplace_back("output_directory", output_directory);
    if (*o_zstd) ov.emplace_back("zstd", true);
    if (*o_pin) ov.emplace_back("write_pin", true);
    if (*o_formats) ov.emplace_back("output_formats", string_array(split_list(output_formats)));
    if (*o_scorers) ov.emplace_back("scorers", scorers);
    if (*o_parsers) ov.emplace_back("parsers", parsers);
    if (*o_licensed) ov.emplace_back("licensed_cores", licensed_cores);
    if (*o_chunk) ov.emplace_back("chunk_size", chunk_size);
    if (*o_sorter) ov.emplace_back("sorter_memory_mb", sorter_memory_mb);
    if (*o_index_cache) ov.emplace_back("index_cache_directory", index_cache);
    if (*o_pre_ppm) ov.emplace_back("precursor_tol", symmetric_tolerance("ppm", precursor_ppm));
    if (*o_pre_da) ov.emplace_back("precursor_tol", symmetric_tolerance("da", precursor_da));
    if (*o_frag_ppm) ov.emplace_back("fragment_tol", symmetric_tolerance("ppm", fragment_ppm));
    if (*o_frag_da) ov.emplace_back("fragment_tol", symmetric_tolerance("da", fragment_da));
    if (*o_enzyme) ov.emplace_back("enzyme", enzyme);
    if (*o_missed) ov.emplace_back("database.enzyme.missed_cleavages", missed_cleavages);
    if (*o_decoy) ov.emplace_back("database.decoy_tag", decoy_tag);
    if (*o_report) ov.emplace_back("report_psms", report_psms);
    return ionflow::run_search_command(search);
  }
  if (*sv) return ionflow::run_serve_command(serve);
  if (*sn) return ionflow::run_scorer_node_command(node);
  try {
    if (ionflow::is_redis_url(client.server)) {
      if (*sub) return ionflow::queue_submit(client.server, submit_path, submit_wait);
      if (*st) return ionflow::queue_status(client.server, status_id);
      if (*ca) return ionflow::queue_cancel(client.server, cancel_id);
    }
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "ionflow: {}\n", e.what());
    return 2;
  }
  if (*sub) return ionflow::client_submit(client, submit_path, submit_wait);
  if (*st) return ionflow::client_status(client, status_id);
  if (*ca) return ionflow::client_cancel(client, cancel_id);
  if (*sc)
    return ionflow::client_scorers(
        client, *o_count ? std::optional<int>(scorer_count) : std::nullopt, resume_autoscale);
  return 2;
}
