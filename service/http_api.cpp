#include "service/http_api.hpp"

#include <stdexcept>

#include <httplib.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "service/job_message.hpp"
#include "service/summary_report.hpp"

namespace ionflow {

namespace {

constexpr const char* kJson = "application/json";

std::string new_job_id() {
  static std::mutex mutex;
  static std::mt19937_64 rng{std::random_device{}()};
  std::lock_guard<std::mutex> lock(mutex);
  uint64_t x = rng();
  static const char* kHex = "0123456789abcdef";
  std::string id = "j";
  for (int i = 0; i < 12; ++i) id += kHex[(x >> (4 * i)) & 15];
  return id;
}

void reply(httplib::Response& res, int status, const JsonValue& body) {
  res.status = status;
  res.set_content(to_json(body, 2) + "\n", kJson);
}

void error(httplib::Response& res, int status, const std::string& message,
           const std::string& field = "") {
  JsonValue body = JsonValue::object();
  body.set("error", message);
  if (!field.empty()) body.set("field", field);
  reply(res, status, body);
}

JsonValue parse_or_raw(const std::string& text) {
  if (text.empty()) return JsonValue();
  try {
    return parse_json(text);
  } catch (const JsonSyntaxError&) {
    return JsonValue(text);
  }
}

}  // namespace

struct HttpApi::Impl {
  JobStore& store;
  Scheduler& scheduler;
  SearchRuntime& runtime;
  const Unimod& unimod;
  Metrics& metrics;
  Options options;
  httplib::Server server;
  // The listening socket, captured when cpp-httplib creates it (see widen_listen_backlog).
  int listen_socket = -1;

  Impl(JobStore& s, Scheduler& sc, SearchRuntime& r, const Unimod& u, Metrics& m, Options o)
      : store(s), scheduler(sc), runtime(r), unimod(u), metrics(m), options(std::move(o)) {
    server.set_payload_max_length(options.max_body_bytes);
    server.set_socket_options([this](socket_t sock) {
      httplib::default_socket_options(sock);
      listen_socket = sock;
    });
    server.set_error_handler([this](const httplib::Request&, httplib::Response& res) {
      if (!res.body.empty()) return;
      if (res.status == 413) {
        error(
            res, 413,
            "request body too large (limit " + std::to_string(options.max_body_bytes) + " bytes)");
      } else if (res.status == 404) {
        error(res, 404, "no such resource");
      } else {
        error(res, res.status, "HTTP status " + std::to_string(res.status));
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
    res.set_header(
        "Content-Disposition",
        "attachment; filename=\"" + std::filesystem::path(path).filename().string() + "\"");
    res.set_content_provider(static_cast<size_t>(size), type,
                             [path](size_t offset, size_t length, httplib::DataSink& sink) {
                               std::ifstream in(path, std::ios::binary);
                               in.seekg(static_cast<std::streamoff>(offset));
                               std::string buffer(std::min<size_t>(length, 1 << 20), '\0');
                               in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
                               auto n = static_cast<size_t>(in.gcount());
                               if (n == 0) return false;
                               return sink.write(buffer.data(), n);
                             });
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
    opts.forced_output_directory = scheduler.output_directory(id);
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
    store.insert(record);
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
    JsonValue o = JsonValue::object();
    o.set("scorers", runtime.scorer_count());
    o.set("licensed_cores", runtime.licensed_cores());
    return o;
  }

  void routes() {
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
        try {
          limit = std::clamp(std::stoi(req.get_param_value("limit")), 1, 100000);
        } catch (const std::exception&) {
          return error(res, 400, "limit: expected an integer", "limit");
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
      JsonValue body;
      try {
        body = parse_json(req.body);
      } catch (const JsonSyntaxError& e) {
        return error(res, 400, std::string("not valid JSON: ") + e.what());
      }
      if (!body.is_object()) return error(res, 400, "expected {\"scorers\": N}");
      for (const auto& [key, value] : body.as_object()) {
        if (key != "scorers") return error(res, 400, key + ": unknown key", key);
      }
      const JsonValue* n = body.find("scorers");
      if (!n) return error(res, 400, "scorers: required", "scorers");
      if (n->type() != JsonValue::Type::kInteger || n->as_integer() < 1 || n->as_integer() > 4096) {
        return error(res, 400, "scorers: expected an integer from 1 to 4096", "scorers");
      }
      runtime.set_scorer_count(static_cast<int>(n->as_integer()));
      spdlog::info("scorers: {} requested, {} now", n->as_integer(), runtime.scorer_count());
      reply(res, 200, scorers_json());
    });
    server.Get("/v1/health", [this](const httplib::Request&, httplib::Response& res) {
      JsonValue body = JsonValue::object();
      body.set("status", "ok");
      body.set("version", IONFLOW_VERSION);
      JsonValue jobs = JsonValue::object();
      for (const auto& [state, n] : store.count_by_state()) jobs.set(job_state_name(state), n);
      body.set("jobs", std::move(jobs));
      body.set("running_jobs", scheduler.running_jobs());
      reply(res, 200, body);
    });
    server.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
      MetricGauges g;
      for (const auto& [state, n] : store.count_by_state())
        g.jobs_by_state[job_state_name(state)] = n;
      g.running_jobs = scheduler.running_jobs();
      g.scorers = runtime.scorer_count();
      g.licensed_cores = runtime.licensed_cores();
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

int HttpApi::bind(const std::string& host, int port) {
  if (port == 0) {
    int bound = impl_->server.bind_to_any_port(host.c_str());
    if (bound <= 0) throw std::runtime_error("cannot bind " + host + ":0");
    widen_listen_backlog(impl_->listen_socket);
    return bound;
  }
  if (!impl_->server.bind_to_port(host.c_str(), port)) {
    throw std::runtime_error("cannot bind " + host + ":" + std::to_string(port));
  }
  widen_listen_backlog(impl_->listen_socket);
  return port;
}

void HttpApi::serve() {
  impl_->server.listen_after_bind();
}
void HttpApi::stop() {
  impl_->server.stop();
}
void HttpApi::wait_until_ready() const {
  while (!impl_->server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

}  // namespace ionflow
