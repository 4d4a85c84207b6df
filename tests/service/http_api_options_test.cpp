// HttpApi's guards over real HTTP on loopback (a real server on port 0, a real job store, the
// scheduler not started so that jobs stay queued): the API token (401 / open routes), the queue
// limit (429), 405 with Allow for a known route, PUT /v1/scorers {"count": N}, and "did you mean"
// for unknown keys.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "service/http_api.hpp"

#include "in_process_api.hpp"

#include <httplib.h>

namespace ionflow {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kData = IONFLOW_TEST_DATA_DIR;

std::string small_job(const std::string& extra = "") {
  std::string j = R"({"database": {"fasta": ")" + kData + R"(/bsa_target_decoy_excerpt.fasta"},
                      "mzml_paths": [")" +
                  kData + R"(/BSA1_excerpt.mzML"])";
  if (!extra.empty()) j += ", " + extra;
  return j + "}";
}

class HttpApiOptionsTest : public InProcessApiTest {
 protected:
  // Starts the API with `token` and `max_queued`, a ScorerControl and 4 licensed cores.
  void start(const std::string& token, int64_t max_queued) {
    InProcessApiOptions o;
    o.directory_prefix = "ionflow_http_opts";
    o.licensed_cores = 4;
    o.concurrent_jobs = 2;
    o.api_token = token;
    o.max_queued_jobs = max_queued;
    o.scorer_control = true;
    start_api(o);
  }
  static std::string error_of(const httplib::Result& res) {
    return parse_json(res->body).find("error")->as_string();
  }
};

TEST_F(HttpApiOptionsTest, TokenGuardsEveryRouteButHealthAndMetrics) {
  start("s3cret-token", 1000);
  auto health = client_->Get("/v1/health");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  EXPECT_TRUE(parse_json(health->body).find("auth")->as_bool());
  EXPECT_EQ(client_->Get("/metrics")->status, 200);

  auto jobs = client_->Get("/v1/jobs");
  ASSERT_TRUE(jobs);
  EXPECT_EQ(jobs->status, 401);
  EXPECT_EQ(jobs->get_header_value("WWW-Authenticate"), "Bearer realm=\"ionflow\"");
  EXPECT_THAT(error_of(jobs), HasSubstr("Authorization: Bearer"));
  auto post = client_->Post("/v1/jobs", small_job(), "application/json");
  EXPECT_EQ(post->status, 401);
  EXPECT_EQ(client_->Put("/v1/scorers", R"({"count": 2})", "application/json")->status, 401);
  EXPECT_EQ(client_->Get("/v1/scorers")->status, 401);
  EXPECT_EQ(client_->Post("/v1/health", "", "application/json")->status, 401);

  client_->set_bearer_token_auth("s3cret-tokeN");
  auto wrong = client_->Get("/v1/jobs");
  EXPECT_EQ(wrong->status, 401);
  EXPECT_EQ(error_of(wrong), "wrong API token");
  EXPECT_EQ(store_->list(std::nullopt, 10).size(), 0u);  // nothing was submitted

  client_->set_bearer_token_auth("s3cret-token");
  EXPECT_EQ(client_->Get("/v1/jobs")->status, 200);
  EXPECT_EQ(client_->Post("/v1/jobs", small_job(), "application/json")->status, 201);
  EXPECT_EQ(store_->list(std::nullopt, 10).size(), 1u);
  auto metrics = client_->Get("/metrics");
  EXPECT_THAT(metrics->body,
              HasSubstr("ionflow_http_requests_total{method=\"GET\",code=\"401\"} 3\n"));
}

TEST_F(HttpApiOptionsTest, SubmissionsBeyondTheQueueLimitGet429AndNothingElseChanges) {
  start("", 2);
  EXPECT_EQ(client_->Post("/v1/jobs", small_job(), "application/json")->status, 201);
  EXPECT_EQ(client_->Post("/v1/jobs", small_job(), "application/json")->status, 201);
  auto full = client_->Post("/v1/jobs", small_job(), "application/json");
  ASSERT_TRUE(full);
  EXPECT_EQ(full->status, 429);
  EXPECT_EQ(full->get_header_value("Retry-After"), "30");
  JsonValue body = parse_json(full->body);
  EXPECT_EQ(body.find("error")->as_string(),
            "queue is full: 2 jobs queued (limit 2, --max-queued-jobs); retry later");
  EXPECT_EQ(body.find("max_queued_jobs")->as_integer(), 2);
  EXPECT_EQ(body.find("queued_jobs")->as_integer(), 2);
  // A bad message is still told what is wrong with it (400, not 429).
  EXPECT_EQ(client_->Post("/v1/jobs", "{", "application/json")->status, 400);
  // Reads and cancels work; a cancel frees a place in the queue.
  JsonValue list = parse_json(client_->Get("/v1/jobs")->body);
  ASSERT_EQ(list.find("jobs")->as_array().size(), 2u);
  std::string first = list.find("jobs")->as_array()[1].find("id")->as_string();
  EXPECT_EQ(client_->Delete(("/v1/jobs/" + first).c_str())->status, 200);
  EXPECT_EQ(client_->Post("/v1/jobs", small_job(), "application/json")->status, 201);
  EXPECT_EQ(client_->Post("/v1/jobs", small_job(), "application/json")->status, 429);

  JsonValue health = parse_json(client_->Get("/v1/health")->body);
  EXPECT_EQ(health.find("max_queued_jobs")->as_integer(), 2);
  EXPECT_EQ(health.find("max_body_bytes")->as_integer(), 1 << 20);  // InProcessApiOptions'
  EXPECT_EQ(health.find("concurrent_jobs")->as_integer(), 2);
  EXPECT_FALSE(health.find("auth")->as_bool());
  EXPECT_EQ(health.find("jobs")->find("queued")->as_integer(), 2);
  auto metrics = client_->Get("/metrics");
  EXPECT_THAT(metrics->body, HasSubstr("ionflow_jobs_queue_full_total 2\n"));
  EXPECT_THAT(metrics->body, HasSubstr("ionflow_jobs_submitted_total 3\n"));
}

TEST_F(HttpApiOptionsTest, KnownRouteWithAnotherMethodIs405WithAllow) {
  start("", 1000);
  auto patch = client_->Patch("/v1/jobs/jabc123", "{}", "application/json");
  ASSERT_TRUE(patch);
  EXPECT_EQ(patch->status, 405);
  EXPECT_EQ(patch->get_header_value("Allow"), "GET, HEAD, DELETE, OPTIONS");
  EXPECT_EQ(error_of(patch),
            "method PATCH not allowed on /v1/jobs/jabc123 (allowed: GET, HEAD, DELETE, OPTIONS)");
  auto put = client_->Put("/v1/jobs", "{}", "application/json");
  EXPECT_EQ(put->status, 405);
  EXPECT_EQ(put->get_header_value("Allow"), "GET, HEAD, POST, OPTIONS");
  auto del = client_->Delete("/v1/scorers");
  EXPECT_EQ(del->status, 405);
  EXPECT_EQ(del->get_header_value("Allow"), "GET, HEAD, PUT, OPTIONS");
  EXPECT_EQ(client_->Post("/metrics", "", "text/plain")->status, 405);
  auto options = client_->Options("/v1/jobs/jabc123/results.json");
  ASSERT_TRUE(options);
  EXPECT_EQ(options->status, 204);
  EXPECT_EQ(options->get_header_value("Allow"), "GET, HEAD, OPTIONS");
  // Unknown paths stay 404; a known route with its own method is unaffected.
  EXPECT_EQ(client_->Patch("/v1/nothing", "{}", "application/json")->status, 404);
  EXPECT_EQ(client_->Get("/v1/jobs/jabc123")->status, 404);
  EXPECT_EQ(client_->Get("/v1/jobs")->status, 200);
}

TEST_F(HttpApiOptionsTest, PutScorersTakesCountPinsAndResumes) {
  start("", 1000);
  JsonValue s = parse_json(client_->Get("/v1/scorers")->body);
  EXPECT_EQ(s.find("scorers")->as_integer(), 1);
  EXPECT_EQ(s.find("min_scorers")->as_integer(), 1);
  EXPECT_EQ(s.find("max_scorers")->as_integer(), 3);
  EXPECT_TRUE(s.find("autoscaling")->as_bool());
  EXPECT_FALSE(s.find("pinned")->as_bool());

  auto put = client_->Put("/v1/scorers", R"({"count": 3})", "application/json");
  ASSERT_EQ(put->status, 200) << put->body;
  s = parse_json(put->body);
  EXPECT_EQ(s.find("scorers")->as_integer(), 3);
  EXPECT_EQ(s.find("target")->as_integer(), 3);
  EXPECT_TRUE(s.find("pinned")->as_bool());
  EXPECT_EQ(runtime_->scorer_count(), 3);
  put = client_->Put("/v1/scorers", R"({"scorers": 2})", "application/json");  // the old spelling
  EXPECT_EQ(parse_json(put->body).find("scorers")->as_integer(), 2);
  auto metrics = client_->Get("/metrics");
  EXPECT_THAT(metrics->body, HasSubstr("ionflow_scorers 2\n"));
  EXPECT_THAT(metrics->body, HasSubstr("ionflow_scorers_target 2\n"));
  EXPECT_THAT(metrics->body, HasSubstr("ionflow_scorers_min 1\n"));
  EXPECT_THAT(metrics->body, HasSubstr("ionflow_scorers_max 3\n"));
  EXPECT_THAT(metrics->body, HasSubstr("ionflow_autoscaling 0\n"));  // pinned

  put = client_->Put("/v1/scorers", R"({"autoscale": true})", "application/json");
  ASSERT_EQ(put->status, 200) << put->body;
  EXPECT_FALSE(parse_json(put->body).find("pinned")->as_bool());
  EXPECT_THAT(client_->Get("/metrics")->body, HasSubstr("ionflow_autoscaling 1\n"));

  put = client_->Put("/v1/scorers", R"({"cont": 2})", "application/json");
  EXPECT_EQ(put->status, 400);
  EXPECT_EQ(error_of(put), "cont: unknown key; did you mean \"count\"?");
  put = client_->Put("/v1/scorers", R"({"count": 2, "scorers": 2})", "application/json");
  EXPECT_EQ(put->status, 400);
  put = client_->Put("/v1/scorers", R"({"count": 0})", "application/json");
  EXPECT_EQ(put->status, 400);
  EXPECT_EQ(parse_json(put->body).find("field")->as_string(), "count");
  put = client_->Put("/v1/scorers", R"({"count": 2, "autoscale": true})", "application/json");
  EXPECT_EQ(put->status, 400);
  EXPECT_EQ(client_->Put("/v1/scorers", "{}", "application/json")->status, 400);
}

TEST_F(HttpApiOptionsTest, UnknownJobKeyGetsTheCliSuggestion) {
  start("", 1000);
  auto res = client_->Post("/v1/jobs", small_job(R"("chunk_sise": 10)"), "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 400);
  JsonValue e = parse_json(res->body);
  EXPECT_EQ(e.find("field")->as_string(), "chunk_sise");
  EXPECT_EQ(e.find("error")->as_string(), "chunk_sise: unknown key; did you mean \"chunk_size\"?");
  res = client_->Post("/v1/jobs", small_job(R"("precursor_tolerance": {"ppm": [-5, 5]})"),
                      "application/json");
  EXPECT_EQ(parse_json(res->body).find("error")->as_string(),
            "precursor_tolerance: unknown key; did you mean \"precursor_tol\"?");
}

}  // namespace
}  // namespace ionflow
