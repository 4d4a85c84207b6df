// HttpApi: the service's HTTP JSON API (cpp-httplib), over the JobStore, the Scheduler and the
// shared SearchRuntime.
//
//   POST   /v1/jobs               job message (same JSON as `ionflow search`) -> 201, {"id",
//                                 "location", "state", "warnings"}, Location header; 429 when
//                                 max_queued_jobs jobs are already queued
//   GET    /v1/jobs[?state=S&limit=N]   {"jobs": [...]}, newest first
//   GET    /v1/jobs/{id}          the job: state, timestamps, progress, error, parameters,
//                                 summary, result files
//   GET    /v1/jobs/{id}/results  results.tsv (or results.tsv.zst) of a done job, else 409
//   GET    /v1/jobs/{id}/results.json
//   DELETE /v1/jobs/{id}          cancel a queued or running job -> {"id", "state"}; 409 if ended
//   GET    /v1/scorers            {"scorers", "licensed_cores", "min_scorers", "max_scorers",
//                                 "target", "autoscaling", "pinned", "backlog_chunks"}
//   PUT    /v1/scorers            {"count": N} (or {"scorers": N}) resizes and pins the pool;
//                                 {"autoscale": true} releases the pin (ScorerControl)
//   GET    /v1/health             {"status": "ok", "version", "jobs": {state: n}, "running_jobs",
//                                 "concurrent_jobs", "max_queued_jobs", "auth"}
//   GET    /metrics               Prometheus text format
// The web page and its endpoints (/, /jobs/{id}, /static/*, /v1/jobs/{id}/psms|plots|spectrum|
// files/{name}, /v1/files, /v1/modifications, /v1/uploads/{name}): service/web_api.hpp.
// With Options::api_token set, every request except GET/HEAD /v1/health, /metrics and the
// page's own files (WebApi::is_page_path) needs
// `Authorization: Bearer <token>`, else 401 (WWW-Authenticate: Bearer).
// Errors are JSON {"error": "...", "field": "key.path"} with a 4xx status: 400 for a bad
// message (not JSON, wrong type, unknown key — with "did you mean" —, unknown modification,
// missing file, a path outside the data roots or with ".."), 401 no or wrong token, 404 unknown
// job or route, 405 a known route with another method (Allow header lists the methods), 409
// wrong state, 413 body too large, 429 queue full (Retry-After header).
// Thread-safety: requests are served on GuardedHttpServer's workers; stop() may be called from
// any thread. A job reading uploaded files is inserted under the UploadGate that upload pieces
// are checked and written under (job_inputs.hpp). Connections beyond Options::http_limits get 503
// at once (see guarded_http_server.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "actors/search_runtime.hpp"
#include "scoring/unimod.hpp"
#include "service/guarded_http_server.hpp"
#include "service/job_inputs.hpp"
#include "service/job_store.hpp"
#include "service/metrics.hpp"
#include "service/scheduler.hpp"
#include "service/scorer_control.hpp"

namespace ionflow {

class HttpApi {
 public:
  struct Options {
    std::vector<std::string> data_roots;  // job inputs must lie inside one of these
    size_t max_body_bytes = 1 << 20;
    std::string api_token;           // "" = no authentication
    int64_t max_queued_jobs = 1000;  // submissions beyond this many queued jobs get 429
    // Sizes the scorer pool for GET/PUT /v1/scorers; nullptr = a plain one without
    // autoscaling, owned by the HttpApi. Must outlive the HttpApi.
    ScorerControl* scorer_control = nullptr;
    // Timeouts and connection caps against slow or stalled clients (GuardedHttpServer).
    HttpConnectionLimits http_limits;
    // Where PUT /v1/uploads/NAME writes (inside a data root, so jobs may read it); "" = none.
    std::string uploads_directory;
    // The gate over uploads_directory, shared with whatever else records jobs in the store (the
    // Redis queue's consumer); nullptr = one of its own. Must outlive the HttpApi.
    UploadGate* upload_gate = nullptr;
  };
  HttpApi(JobStore& store, Scheduler& scheduler, SearchRuntime& runtime, const Unimod& unimod,
          Metrics& metrics, Options options);
  ~HttpApi();
  HttpApi(const HttpApi&) = delete;
  HttpApi& operator=(const HttpApi&) = delete;

  // Binds host:port (port 0 = any free port) and returns the bound port. Throws
  // std::runtime_error if the address cannot be bound.
  int bind(const std::string& host, int port);
  // Serves requests until stop(); returns true then. Returns false if accepting connections
  // failed (cpp-httplib 0.11 then closes the listening socket and serves no more): the caller
  // must stop or restart the service, the API is gone. The HTTP threads (accept loop, gate,
  // workers) block every signal, so that a signal handled elsewhere in the process never
  // interrupts accept() (EINTR is such a failure for cpp-httplib). REQUIRES: bind() succeeded.
  bool serve();
  void stop();
  // Blocks until serve() is accepting connections (for tests starting serve() on a thread).
  void wait_until_ready() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ionflow
