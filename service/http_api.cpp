#include "service/http_api.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <httplib.h>
#include <netdb.h>
#include <pthread.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>
#include <string_view>
#include <thread>

#include "scoring/edit_distance.hpp"
#include "service/api_token.hpp"
#include "service/guarded_http_server.hpp"
#include "service/http_head_check.hpp"
#include "service/http_reply.hpp"
#include "service/job_id.hpp"
#include "service/job_inputs.hpp"
#include "service/job_message.hpp"
#include "service/summary_report.hpp"
#include "service/web_api.hpp"

namespace ionflow {

namespace {

constexpr const char* kJson = "application/json";

JsonValue parse_or_raw(const std::string& text) {
  if (text.empty()) return JsonValue();
  try {
    return parse_json(text);
  } catch (const JsonSyntaxError&) {
    return JsonValue(text);
  }
}

// The API's routes and the methods each accepts (HEAD and OPTIONS are added to every Allow).
struct Route {
  std::regex path;
  std::vector<std::string> methods;
};

const std::vector<Route>& known_routes() {
  static const std::vector<Route> routes = {
      {std::regex(R"(/v1/jobs)"), {"GET", "POST"}},
      {std::regex(R"(/v1/jobs/[A-Za-z0-9_-]+)"), {"GET", "DELETE"}},
      {std::regex(R"(/v1/jobs/[A-Za-z0-9_-]+/results)"), {"GET"}},
      {std::regex(R"(/v1/jobs/[A-Za-z0-9_-]+/results\.json)"), {"GET"}},
      {std::regex(R"(/v1/jobs/[A-Za-z0-9_-]+/(psms|plots|spectrum))"), {"GET"}},
      {std::regex(R"(/v1/jobs/[A-Za-z0-9_-]+/files/[A-Za-z0-9._-]+)"), {"GET"}},
      {std::regex(R"(/v1/files)"), {"GET"}},
      {std::regex(R"(/v1/modifications)"), {"GET"}},
      {std::regex(R"(/v1/uploads/[^/]+)"), {"PUT"}},
      {std::regex(R"(/|/jobs/[A-Za-z0-9_-]+|/static/[A-Za-z0-9._-]+)"), {"GET"}},
      {std::regex(R"(/v1/scorers)"), {"GET", "PUT"}},
      {std::regex(R"(/v1/health)"), {"GET"}},
      {std::regex(R"(/metrics)"), {"GET"}},
  };
  return routes;
}

// The methods `path` accepts, "GET, HEAD, ..." style; "" if no route has that path.
std::string allowed_methods(const std::string& path, bool& method_ok, const std::string& method) {
  for (const auto& route : known_routes()) {
    if (!std::regex_match(path, route.path)) continue;
    std::string allow;
    method_ok = method == "OPTIONS" || (method == "HEAD" && route.methods[0] == "GET");
    for (const auto& m : route.methods) {
      allow += (allow.empty() ? "" : ", ") + m;
      if (m == "GET") allow += ", HEAD";
      method_ok = method_ok || m == method;
    }
    return allow + ", OPTIONS";
  }
  method_ok = true;
  return "";
}

std::string unknown_key_message(const std::string& key, const std::vector<std::string>& known) {
  return key + ": unknown key" + did_you_mean(closest_name(key, known));
}

// The connection limits with the API's body limit, which the gate checks in request heads.
HttpConnectionLimits with_body_limit(HttpConnectionLimits limits, size_t max_body_bytes) {
  limits.max_body_bytes = max_body_bytes;
  return limits;
}

}  // namespace

struct HttpApi::Impl {
  JobStore& store;
  Scheduler& scheduler;
  SearchRuntime& runtime;
  const Unimod& unimod;
  Metrics& metrics;
  Options options;
  GuardedHttpServer server;
  // The listening socket, captured when cpp-httplib creates it (see widen_listen_backlog).
  int listen_socket = -1;
  std::unique_ptr<ScorerControl> own_control;  // when Options::scorer_control is null
  ScorerControl* control = nullptr;
  // Makes "count the queued jobs, then insert" one step, so max_queued_jobs holds exactly.
  // Taken after the upload gate, never before (job_inputs.hpp).
  std::mutex submit_mutex;
  // Upload pieces are checked and written under it, and jobs reading uploads inserted.
  std::unique_ptr<UploadGate> own_upload_gate;  // when Options::upload_gate is null
  UploadGate& upload_gate;
  WebApi web;  // the web page and its endpoints (service/web_api.hpp)

  Impl(JobStore& s, Scheduler& sc, SearchRuntime& r, const Unimod& u, Metrics& m, Options o)
      : store(s),
        scheduler(sc),
        runtime(r),
        unimod(u),
        metrics(m),
        options(std::move(o)),
        server(with_body_limit(options.http_limits, options.max_body_bytes)),
        own_upload_gate(options.upload_gate
                            ? nullptr
                            : std::make_unique<UploadGate>(s, options.uploads_directory)),
        upload_gate(options.upload_gate ? *options.upload_gate : *own_upload_gate),
        web(s, u, upload_gate, {options.data_roots, options.uploads_directory}) {
    control = options.scorer_control;
    if (!control) {
      own_control = std::make_unique<ScorerControl>(runtime, nullptr, ScorerControl::Options{});
      control = own_control.get();
    }
    // Authentication first, then 405 for a known path with a method it does not accept.
    server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      const bool open =
          (req.method == "GET" || req.method == "HEAD") &&
          (req.path == "/v1/health" || req.path == "/metrics" || WebApi::is_page_path(req.path));
      if (!options.api_token.empty() && !open &&
          !bearer_token_matches(req.get_header_value("Authorization"), options.api_token)) {
        res.set_header("WWW-Authenticate", "Bearer realm=\"ionflow\"");
        error(res, 401,
              req.has_header("Authorization")
                  ? "wrong API token"
                  : "API token required: send the header Authorization: Bearer <token>");
        return httplib::Server::HandlerResponse::Handled;
      }
      bool method_ok = true;
      const std::string allow = allowed_methods(req.path, method_ok, req.method);
      if (!allow.empty() && req.method == "OPTIONS") {
        res.status = 204;
        res.set_header("Allow", allow);
        return httplib::Server::HandlerResponse::Handled;
      }
      if (!method_ok) {
        res.set_header("Allow", allow);
        error(res, 405,
              "method " + req.method + " not allowed on " + req.path + " (allowed: " + allow + ")");
        return httplib::Server::HandlerResponse::Handled;
      }
      return httplib::Server::HandlerResponse::Unhandled;
    });
    server.set_payload_max_length(options.max_body_bytes);
    // SO_REUSEADDR only. cpp-httplib's default also sets SO_REUSEPORT, with which a second
    // `ionflow serve` on the same port bound too and the kernel split requests between the two
    // services (jobs seemed to vanish); now the second one fails with "address in use".
    server.set_socket_options([this](socket_t sock) {
      int yes = 1;
      ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
      listen_socket = sock;
    });
    // Slow and stalled clients: timeouts, keep-alive and per-address caps in GuardedHttpServer.
    server.set_error_handler([this](const httplib::Request& req, httplib::Response& res) {
      // A Range applies to a successful GET only (RFC 9110, 14.2); cpp-httplib 0.11 slices error
      // bodies too ("Range: bytes=0-10" cut a 401's JSON to '{\n  "error"', found by the HTTP
      // fuzzer). The Request is process_request's own non-const object: clearing it is defined.
      const_cast<httplib::Request&>(req).ranges.clear();
      if (!res.body.empty()) return;
      if (res.status == 413) {
        // cpp-httplib caps form-encoded bodies at 8 KiB, whatever follows the type ("; charset=
        // UTF-8", as browsers send it): curl --data and --data-binary send that type.
        if (req.get_header_value("Content-Type").rfind("application/x-www-form-urlencoded", 0) ==
            0) {
          const bool upload = req.path.rfind("/v1/uploads/", 0) == 0;
          const char* type = upload ? "application/octet-stream" : "application/json";
          error(res, 413,
                fmt::format("request body sent as application/x-www-form-urlencoded, which is "
                            "limited to 8192 bytes: send the {} with Content-Type: {} (curl -H "
                            "'Content-Type: {}')",
                            upload ? "file" : "job", type, type));
          return;
        }
        error(res, 413, body_too_large_message(options.max_body_bytes));
      } else if (res.status == 404) {
        error(res, 404, "no such resource");
      } else {
        error(res, res.status, unparsed_request_message(res.status));
      }
    });
    server.set_exception_handler(
        [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
          std::string what = "internal error";
          try {
            std::rethrow_exception(ep);
          } catch (const std::exception& e) {
            what = e.what();
          } catch (...) {
          }
          error(res, 500, what);
        });
    server.set_logger([this](const httplib::Request& req, const httplib::Response& res) {
      metrics.count_request(req.method, res.status);
      spdlog::debug("{} {} -> {}", req.method, req.path, res.status);
    });
    routes();
  }

  JsonValue record_json(const JobRecord& r, bool full) const {
    JsonValue o = JsonValue::object();
    o.set("id", r.id);
    o.set("state", job_state_name(r.state));
    o.set("priority", r.priority);
    o.set("submitted_at", r.submitted_at);
    if (r.started_at > 0) o.set("started_at", r.started_at);
    if (r.finished_at > 0) o.set("finished_at", r.finished_at);
    if (!r.error.empty()) o.set("error", r.error);
    if (r.state == JobState::kRunning) {
      if (auto p = scheduler.progress(r.id)) {
        o.set("progress", job_progress_json(*p));
      } else if (!r.progress_json.empty()) {
        o.set("progress", parse_or_raw(r.progress_json));
      }
      if (r.cancel_requested) o.set("cancel_requested", true);
    }
    o.set("location", "/v1/jobs/" + r.id);
    if (full) {
      o.set("parameters", parse_or_raw(r.effective_json));
      o.set("submitted", parse_or_raw(r.submitted_json));
      if (!r.summary_json.empty()) o.set("summary", parse_or_raw(r.summary_json));
      JsonValue files = JsonValue::array();
      for (const auto& p : r.result_paths) files.push_back(p);
      o.set("result_files", std::move(files));
    }
    return o;
  }

  // The done job's result file whose name starts with `prefix` ("results.tsv", "results.json").
  void send_result(const httplib::Request& req, httplib::Response& res, const std::string& prefix) {
    auto r = store.get(req.matches[1]);
    if (!r) return error(res, 404, "no such job: " + std::string(req.matches[1]));
    if (r->state != JobState::kDone) {
      return error(res, 409, std::string("job is ") + job_state_name(r->state) + ", not done");
    }
    std::string path;
    for (const auto& p : r->result_paths) {
      std::string name = std::filesystem::path(p).filename().string();
      if (name == prefix || name == prefix + ".zst") path = p;
    }
    if (path.empty()) return error(res, 404, "job has no " + prefix);
    std::error_code ec;
    auto size = std::filesystem::file_size(path, ec);
    if (ec) return error(res, 410, "result file is gone: " + path);
    std::string type = path.ends_with(".zst")    ? "application/zstd"
                       : path.ends_with(".json") ? kJson
                                                 : "text/tab-separated-values";
    send_file(res, path, size, type, std::filesystem::path(path).filename().string());
  }

  void submit(const httplib::Request& req, httplib::Response& res) {
    JsonValue message;
    try {
      message = parse_json(req.body);
    } catch (const JsonSyntaxError& e) {
      metrics.count_rejected();
      return error(res, 400, std::string("not valid JSON: ") + e.what());
    }
    std::string id = new_job_id();
    JobMessageOptions opts;
    opts.data_roots = options.data_roots;
    opts.uploads_directory = options.uploads_directory;  // no upload in progress as an input
    opts.forced_output_directory = scheduler.output_directory(id);
    opts.forced_index_cache_directory = scheduler.index_cache_directory();
    ParsedJob parsed;
    try {
      parsed = read_job_message(message, unimod, opts);
    } catch (const JobMessageError& e) {
      metrics.count_rejected();
      return error(res, 400, e.what(), e.key_path());
    }
    JobRecord record;
    record.id = id;
    record.priority = parsed.spec.priority;
    record.submitted_json = req.body;
    record.effective_json = parsed.spec.effective_parameters_json;
    {
      // A job reading an uploaded file is inserted under the upload gate: no piece of that file
      // is written between its check and its write once the job is queued (job_inputs.hpp).
      const std::unique_lock<std::mutex> uploads =
          upload_gate.hold_for_job(job_input_paths(record));
      std::lock_guard<std::mutex> lock(submit_mutex);
      const auto counts = store.count_by_state();
      const auto queued = counts.find(JobState::kQueued);
      const int64_t n = queued == counts.end() ? 0 : queued->second;
      if (n >= options.max_queued_jobs) {
        metrics.count_rejected();
        metrics.count_queue_full();
        res.set_header("Retry-After", "30");
        JsonValue body = JsonValue::object();
        body.set("error", "queue is full: " + std::to_string(n) + " jobs queued (limit " +
                              std::to_string(options.max_queued_jobs) +
                              ", --max-queued-jobs); retry later");
        body.set("queued_jobs", n);
        body.set("max_queued_jobs", options.max_queued_jobs);
        return reply(res, 429, body);
      }
      store.insert(record);
    }
    metrics.count_submitted();
    scheduler.wake();
    JsonValue body = JsonValue::object();
    body.set("id", id);
    body.set("location", "/v1/jobs/" + id);
    body.set("state", "queued");
    JsonValue warnings = JsonValue::array();
    for (const auto& w : parsed.warnings) warnings.push_back(w);
    for (const char* key : {"scorers", "licensed_cores"}) {
      if (const JsonValue* v = message.find(key); v && !v->is_null()) {
        warnings.push_back(std::string(key) +
                           ": ignored by the server; jobs share its scorer pool (PUT /v1/scorers)");
      }
    }
    body.set("warnings", std::move(warnings));
    res.set_header("Location", "/v1/jobs/" + id);
    reply(res, 201, body);
    spdlog::info("job {}: queued (priority {})", id, record.priority);
  }

  JsonValue scorers_json() const {
    const ScorerControl::Status st = control->status();
    JsonValue o = JsonValue::object();
    // Local scorers plus those of the remote scorer nodes, each listed in "nodes".
    JsonValue nodes = JsonValue::array();
    int remote = 0;
    for (const ScorerNodeInfo& n : runtime.scorer_nodes()) {
      JsonValue node = JsonValue::object();
      node.set("name", n.name);
      node.set("scorers", n.scorers);
      node.set("chunks_scored", static_cast<int64_t>(n.chunks_scored));
      nodes.push_back(std::move(node));
      remote += n.scorers;
    }
    o.set("scorers", st.scorers + remote);
    o.set("local_scorers", st.scorers);
    o.set("nodes", std::move(nodes));
    o.set("licensed_cores", st.licensed_cores);
    o.set("min_scorers", st.min_scorers);
    o.set("max_scorers", st.max_scorers);
    o.set("target", st.target);
    o.set("autoscaling", st.autoscaling);
    o.set("pinned", st.pinned);
    o.set("backlog_chunks", static_cast<int64_t>(st.backlog_chunks));
    return o;
  }

  // PUT /v1/scorers: {"count": N} or {"scorers": N} pins the pool at N; {"autoscale": true}
  // hands it back to the autoscaler, {"autoscale": false} pins the current size.
  void put_scorers(const httplib::Request& req, httplib::Response& res) {
    static const char* kExpected =
        "expected {\"count\": N} (or {\"scorers\": N}) or {\"autoscale\": true}";
    JsonValue body;
    try {
      body = parse_json(req.body);
    } catch (const JsonSyntaxError& e) {
      return error(res, 400, std::string("not valid JSON: ") + e.what());
    }
    if (!body.is_object()) return error(res, 400, kExpected);
    for (const auto& [key, value] : body.as_object()) {
      if (key != "count" && key != "scorers" && key != "autoscale") {
        return error(res, 400, unknown_key_message(key, {"count", "scorers", "autoscale"}), key);
      }
    }
    const JsonValue* count = body.find("count");
    const char* count_key = "count";
    if (const JsonValue* alias = body.find("scorers")) {
      if (count) return error(res, 400, "give either count or scorers, not both", "scorers");
      count = alias, count_key = "scorers";
    }
    const JsonValue* autoscale = body.find("autoscale");
    if (autoscale && autoscale->type() != JsonValue::Type::kBool) {
      return error(res, 400, "autoscale: expected true or false", "autoscale");
    }
    if (count && autoscale && autoscale->as_bool()) {
      return error(res, 400,
                   std::string(count_key) +
                       ": a count pins the pool; it cannot go with "
                       "\"autoscale\": true",
                   count_key);
    }
    if (count) {
      if (count->type() != JsonValue::Type::kInteger || count->as_integer() < 1 ||
          count->as_integer() > 4096) {
        return error(res, 400, std::string(count_key) + ": expected an integer from 1 to 4096",
                     count_key);
      }
      int now = control->pin(static_cast<int>(count->as_integer()));
      spdlog::info("scorers: {} requested, {} now", count->as_integer(), now);
    } else if (autoscale) {
      if (autoscale->as_bool()) {
        control->resume();
        spdlog::info("scorers: autoscaling resumed");
      } else {
        control->pin(runtime.scorer_count());
      }
    } else {
      return error(res, 400, std::string("count: required; ") + kExpected, "count");
    }
    reply(res, 200, scorers_json());
  }

  void routes() {
    web.register_routes(server);
    server.Post("/v1/jobs",
                [this](const httplib::Request& req, httplib::Response& res) { submit(req, res); });
    server.Get("/v1/jobs", [this](const httplib::Request& req, httplib::Response& res) {
      std::optional<JobState> state;
      if (req.has_param("state")) {
        state = job_state_from_name(req.get_param_value("state"));
        if (!state)
          return error(res, 400, "unknown state " + req.get_param_value("state"), "state");
      }
      int limit = 1000;
      if (req.has_param("limit")) {
        size_t used = 0;
        const std::string text = req.get_param_value("limit");
        try {
          limit = std::stoi(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != text.size() || limit < 1 || limit > 100000) {
          return error(res, 400, "limit: expected an integer from 1 to 100000, got " + text,
                       "limit");
        }
      }
      JsonValue jobs = JsonValue::array();
      for (const auto& r : store.list(state, limit)) jobs.push_back(record_json(r, false));
      JsonValue body = JsonValue::object();
      body.set("jobs", std::move(jobs));
      reply(res, 200, body);
    });
    server.Get(R"(/v1/jobs/([A-Za-z0-9_-]+))",
               [this](const httplib::Request& req, httplib::Response& res) {
                 auto r = store.get(req.matches[1]);
                 if (!r) return error(res, 404, "no such job: " + std::string(req.matches[1]));
                 reply(res, 200, record_json(*r, true));
               });
    server.Get(R"(/v1/jobs/([A-Za-z0-9_-]+)/results)",
               [this](const httplib::Request& req, httplib::Response& res) {
                 send_result(req, res, "results.tsv");
               });
    server.Get(R"(/v1/jobs/([A-Za-z0-9_-]+)/results\.json)",
               [this](const httplib::Request& req, httplib::Response& res) {
                 send_result(req, res, "results.json");
               });
    server.Delete(R"(/v1/jobs/([A-Za-z0-9_-]+))", [this](const httplib::Request& req,
                                                         httplib::Response& res) {
      std::string id = req.matches[1];
      auto before = store.get(id);
      if (!before) return error(res, 404, "no such job: " + id);
      if (before->state != JobState::kQueued && before->state != JobState::kRunning) {
        return error(res, 409, std::string("job already ") + job_state_name(before->state));
      }
      auto state = scheduler.cancel(id, "cancelled by client");
      // The job may have ended between the look above and the cancel (done or failed): that is
      // "already ended", not a cancel (the soak test once counted it as a 200).
      if (state && *state != JobState::kCancelled && *state != JobState::kRunning) {
        return error(res, 409, std::string("job already ") + job_state_name(*state));
      }
      JsonValue body = JsonValue::object();
      body.set("id", id);
      body.set("state", job_state_name(state.value_or(before->state)));
      if (state == JobState::kRunning) body.set("cancel_requested", true);
      reply(res, state == JobState::kRunning ? 202 : 200, body);
    });
    server.Get("/v1/scorers", [this](const httplib::Request&, httplib::Response& res) {
      reply(res, 200, scorers_json());
    });
    server.Put("/v1/scorers", [this](const httplib::Request& req, httplib::Response& res) {
      put_scorers(req, res);
    });
    server.Get("/v1/health", [this](const httplib::Request&, httplib::Response& res) {
      JsonValue body = JsonValue::object();
      body.set("status", "ok");
      body.set("version", IONFLOW_VERSION);
      JsonValue jobs = JsonValue::object();
      for (const auto& [state, n] : store.count_by_state()) jobs.set(job_state_name(state), n);
      body.set("jobs", std::move(jobs));
      body.set("running_jobs", scheduler.running_jobs());
      body.set("concurrent_jobs", scheduler.concurrent_jobs());
      body.set("max_queued_jobs", options.max_queued_jobs);
      // The page sends uploads in pieces no larger than this (service/web/jobs.js).
      body.set("max_body_bytes", static_cast<int64_t>(options.max_body_bytes));
      body.set("auth", !options.api_token.empty());
      reply(res, 200, body);
    });
    server.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
      MetricGauges g;
      for (const auto& [state, n] : store.count_by_state())
        g.jobs_by_state[job_state_name(state)] = n;
      g.running_jobs = scheduler.running_jobs();
      const ScorerControl::Status st = control->status();
      g.scorers = st.scorers;
      g.licensed_cores = st.licensed_cores;
      g.scorers_min = st.min_scorers;
      g.scorers_max = st.max_scorers;
      g.scorers_target = st.target;
      g.autoscaling = st.autoscaling;
      g.scorers_pinned = st.pinned;
      g.backlog_chunks = st.backlog_chunks;
      res.set_content(metrics.render(g), "text/plain; version=0.0.4");
    });
  }
};

HttpApi::HttpApi(JobStore& store, Scheduler& scheduler, SearchRuntime& runtime,
                 const Unimod& unimod, Metrics& metrics, Options options)
    : impl_(
          std::make_unique<Impl>(store, scheduler, runtime, unimod, metrics, std::move(options))) {}

HttpApi::~HttpApi() {
  stop();
}

// Debian's cpp-httplib 0.11.4 is a compiled library whose listen() backlog is fixed at 5
// (CPPHTTPLIB_LISTEN_BACKLOG). Under a burst of connections the kernel's accept queue overflows and
// some clients see their request go unanswered ("Read" error) — 7 of 50 simultaneous
// submissions in our load test. Calling listen() again on a listening socket only changes its
// backlog (Linux listen(2)), so we raise it to the system maximum, capped by net.core.somaxconn.
static void widen_listen_backlog(int listen_socket) {
  if (listen_socket < 0) return;
  if (::listen(listen_socket, SOMAXCONN) != 0) {
    spdlog::warn("HTTP API: could not raise the listen backlog: {}", std::strerror(errno));
  }
}

// "cannot bind HOST:PORT", with the reason bind(2) gave when cpp-httplib left it in errno (it
// closes the socket after a failed bind; close(2) keeps errno when it succeeds). Only bind's
// own reasons are named: a failed address look-up may leave an unrelated errno, so a host that
// does not resolve is looked up again here (getaddrinfo with cpp-httplib's hints) for its own
// reason.
static std::runtime_error bind_failure(const std::string& host, int port, int error) {
  std::string what = "cannot bind " + host + ":" + std::to_string(port);
  if (error == EADDRINUSE || error == EACCES || error == EADDRNOTAVAIL) {
    return std::runtime_error(what + ": " + std::strerror(error));
  }
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  const int lookup = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
  if (lookup != 0) {
    what += ": cannot resolve host \"" + host + "\": " + ::gai_strerror(lookup);
  } else {
    ::freeaddrinfo(found);
  }
  return std::runtime_error(what);
}

int HttpApi::bind(const std::string& host, int port) {
  errno = 0;
  if (port == 0) {
    int bound = impl_->server.bind_to_any_port(host.c_str());
    if (bound <= 0) throw bind_failure(host, 0, errno);
    widen_listen_backlog(impl_->listen_socket);
    return bound;
  }
  if (!impl_->server.bind_to_port(host.c_str(), port)) throw bind_failure(host, port, errno);
  widen_listen_backlog(impl_->listen_socket);
  return port;
}

bool HttpApi::serve() {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);  // inherited by the gate and worker threads
  const bool stopped_by_us = impl_->server.listen_after_bind();
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (!stopped_by_us) spdlog::error("HTTP API: accepting connections failed; the API is closed");
  return stopped_by_us;
}
void HttpApi::stop() {
  impl_->server.stop();
}
void HttpApi::wait_until_ready() const {
  while (!impl_->server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

}  // namespace ionflow
