// The service over real HTTP on loopback: a real server (port 0), a real job store in a
// temporary directory, a real SearchRuntime and real search jobs on small committed inputs.
#include "service/http_api.hpp"

#include "in_process_api.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include <httplib.h>

namespace ionflow {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kData = IONFLOW_TEST_DATA_DIR;

std::string small_job(const std::string& extra = "") {
  std::string j = R"({"database": {"fasta": ")" + kData + R"(/bsa_target_decoy_excerpt.fasta",
                      "generate_decoys": false, "decoy_tag": "_rev"},
                      "decoy_tag_position": "suffix",
                      "mzml_paths": [")" +
                  kData + R"j(/BSA1_excerpt.mzML"],
                      "fixed_modifications": ["Carbamidomethyl (C)"])j";
  if (!extra.empty()) j += ", " + extra;
  return j + "}";
}

class HttpApiTest : public InProcessApiTest {
 protected:
  void SetUp() override {
    InProcessApiOptions o;
    o.max_body_bytes = 64 * 1024;
    start_api(o);
  }

  JsonValue post_job(const std::string& body, int expected_status) {
    auto res = client_->Post("/v1/jobs", body, "application/json");
    EXPECT_TRUE(res);
    if (!res) return {};
    EXPECT_EQ(res->status, expected_status) << res->body;
    EXPECT_EQ(res->get_header_value("Content-Type"), "application/json");
    return parse_json(res->body);
  }
  // The 400 error's field and message for a message.
  std::pair<std::string, std::string> rejection(const std::string& body) {
    JsonValue e = post_job(body, 400);
    const JsonValue* field = e.find("field");
    return {field ? field->as_string() : "", e.find("error")->as_string()};
  }
  JsonValue get(const std::string& path, int expected_status = 200) {
    auto res = client_->Get(path);
    EXPECT_TRUE(res);
    if (!res) return {};
    EXPECT_EQ(res->status, expected_status) << path << ": " << res->body;
    return parse_json(res->body);
  }
  // Polls the job until it has ended; returns its record.
  JsonValue wait_for_end(const std::string& id) {
    for (int i = 0; i < 1200; ++i) {
      JsonValue j = get("/v1/jobs/" + id);
      std::string state = j.find("state")->as_string();
      if (state == "done" || state == "failed" || state == "cancelled") return j;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ADD_FAILURE() << "job " << id << " did not end";
    return {};
  }
};

TEST_F(HttpApiTest, HealthScorersAndUnknownRoutes) {
  JsonValue h = get("/v1/health");
  EXPECT_EQ(h.find("status")->as_string(), "ok");
  EXPECT_EQ(h.find("version")->as_string(), IONFLOW_VERSION);
  EXPECT_EQ(h.find("jobs")->find("queued")->as_integer(), 0);

  JsonValue s = get("/v1/scorers");
  EXPECT_EQ(s.find("scorers")->as_integer(), 1);
  EXPECT_EQ(s.find("licensed_cores")->as_integer(), 2);
  auto put = client_->Put("/v1/scorers", R"({"scorers": 2})", "application/json");
  ASSERT_TRUE(put);
  EXPECT_EQ(put->status, 200);
  EXPECT_EQ(parse_json(put->body).find("scorers")->as_integer(), 2);
  put = client_->Put("/v1/scorers", R"({"scorers": 8})", "application/json");
  EXPECT_EQ(parse_json(put->body).find("scorers")->as_integer(), 2);  // clamped to licensed
  put = client_->Put("/v1/scorers", R"({"scorers": "two"})", "application/json");
  EXPECT_EQ(put->status, 400);
  EXPECT_EQ(parse_json(put->body).find("field")->as_string(), "scorers");

  JsonValue missing = get("/v1/nothing", 404);
  EXPECT_EQ(missing.find("error")->as_string(), "no such resource");
  get("/v1/jobs/jdoesnotexist", 404);
  auto del = client_->Delete("/v1/jobs/jdoesnotexist");
  EXPECT_EQ(del->status, 404);
  JsonValue bad_limit = get("/v1/jobs?limit=-1", 400);
  EXPECT_EQ(bad_limit.find("error")->as_string(),
            "limit: expected an integer from 1 to 100000, got -1");
  get("/v1/jobs?limit=5x", 400);
}

// An error answers whole whatever Range the request asks for (RFC 9110, 14.2: ranges are for
// successful GETs): cpp-httplib 0.11 sent bytes 0-10 of the JSON body, '{\n  "error"'.
TEST_F(HttpApiTest, ARangeHeaderDoesNotCutAnErrorBody) {
  auto res = client_->Get("/v1/jobs/jdoesnotexist", {{"Range", "bytes=0-10"}});
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 404);
  EXPECT_FALSE(res->has_header("Content-Range"));
  EXPECT_EQ(parse_json(res->body).find("error")->as_string(), "no such job: jdoesnotexist");
}

// Found by the HTTP fuzzer: a query value that is not UTF-8 was echoed raw into the 400 body,
// which then was not JSON. It is answered with U+FFFD in its place.
TEST_F(HttpApiTest, AQueryValueThatIsNotUtf8GetsAJsonError) {
  JsonValue e = get("/v1/jobs?state=qu%A5%8A&limit=5", 400);
  EXPECT_EQ(e.find("error")->as_string(), "unknown state qu\uFFFD\uFFFD");
  EXPECT_EQ(e.find("field")->as_string(), "state");
}

// Found by the HTTP fuzzer ("GET /v1/jobs?stat/results.jsone=qu...&limit=5\x1b...%00\x1b..."):
// a NUL byte in an echoed query value was written as \u0000, which our JSON reader (and so the
// client) refuses. It is answered with U+FFFD in its place, as a byte that is not UTF-8.
TEST_F(HttpApiTest, AQueryValueWithANulByteGetsAnErrorOurJsonReaderReads) {
  JsonValue e = get("/v1/jobs?limit=5%1B%00%1B", 400);
  EXPECT_EQ(e.find("error")->as_string(),
            "limit: expected an integer from 1 to 100000, got 5\x1b\uFFFD\x1b");
  EXPECT_EQ(e.find("field")->as_string(), "limit");
  e = get("/v1/jobs?state=q%00x", 400);
  EXPECT_EQ(e.find("error")->as_string(), "unknown state q\uFFFDx");
}

TEST_F(HttpApiTest, BadMessagesAre400NamingTheField) {
  EXPECT_THAT(rejection("{not json").second, StartsWith("not valid JSON"));
  EXPECT_EQ(rejection(small_job(R"("zstd": "yes")")).first, "zstd");
  EXPECT_EQ(rejection(small_job(R"("chunk_sise": 10)")).first, "chunk_sise");
  EXPECT_EQ(rejection(small_job(R"j("variable_modifications": ["Oxidaton (M)"])j")).first,
            "variable_modifications[0]");
  auto [field, message] =
      rejection(R"({"database": {"fasta": ")" + kData + R"(/none.fasta"}, "mzml_paths": [")" +
                kData + R"(/BSA1_excerpt.mzML"]})");
  EXPECT_EQ(field, "database.fasta");
  EXPECT_THAT(message, HasSubstr("file not found"));
  std::tie(field, message) =
      rejection(R"({"database": {"fasta": ")" + kData + R"(/bsa_target_decoy_excerpt.fasta"},
          "mzml_paths": ["/etc/passwd"]})");
  EXPECT_EQ(field, "mzml_paths[0]");
  EXPECT_THAT(message, HasSubstr("outside the server's data roots"));
  std::tie(field, message) = rejection(R"({"database": {"fasta": ")" + kData +
                                       R"(/../data/bsa_target_decoy_excerpt.fasta"},
          "mzml_paths": [")" + kData + R"(/BSA1_excerpt.mzML"]})");
  EXPECT_EQ(field, "database.fasta");
  EXPECT_THAT(message, HasSubstr("\"..\""));

  auto big = client_->Post("/v1/jobs", std::string(100 * 1024, ' '), "application/json");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
  EXPECT_THAT(parse_json(big->body).find("error")->as_string(),
              StartsWith("request body too large"));
  EXPECT_EQ(get("/v1/jobs").find("jobs")->as_array().size(), 0u);
}

TEST_F(HttpApiTest, QueuedJobsCancelAndListNewestFirst) {
  // The scheduler is not started: jobs stay queued.
  JsonValue a = post_job(small_job(), 201);
  JsonValue b = post_job(small_job(R"("priority": 3, "chimera": false, "scorers": 2)"), 201);
  ASSERT_EQ(b.find("warnings")->as_array().size(), 2u);
  EXPECT_THAT(b.find("warnings")->as_array()[0].as_string(), StartsWith("chimera:"));
  EXPECT_THAT(b.find("warnings")->as_array()[1].as_string(),
              StartsWith("scorers: ignored by the server"));
  std::string id_a = a.find("id")->as_string(), id_b = b.find("id")->as_string();
  EXPECT_EQ(a.find("location")->as_string(), "/v1/jobs/" + id_a);

  JsonValue list = get("/v1/jobs");
  ASSERT_EQ(list.find("jobs")->as_array().size(), 2u);
  EXPECT_EQ(list.find("jobs")->as_array()[0].find("id")->as_string(), id_b);
  EXPECT_EQ(list.find("jobs")->as_array()[0].find("priority")->as_integer(), 3);

  JsonValue job = get("/v1/jobs/" + id_a);
  EXPECT_EQ(job.find("state")->as_string(), "queued");
  EXPECT_EQ(job.find("parameters")->find("output_directory")->as_string(),
            (dir_ / "jobs" / id_a).string());
  get("/v1/jobs/" + id_a + "/results", 409);

  auto del = client_->Delete(("/v1/jobs/" + id_a).c_str());
  ASSERT_TRUE(del);
  EXPECT_EQ(del->status, 200);
  EXPECT_EQ(parse_json(del->body).find("state")->as_string(), "cancelled");
  EXPECT_EQ(client_->Delete(("/v1/jobs/" + id_a).c_str())->status, 409);
  EXPECT_EQ(get("/v1/jobs?state=queued").find("jobs")->as_array().size(), 1u);
  get("/v1/jobs?state=bogus", 400);

  auto metrics = client_->Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_THAT(metrics->body, HasSubstr("ionflow_jobs_submitted_total 2\n"));
  EXPECT_THAT(metrics->body, HasSubstr("ionflow_jobs{state=\"cancelled\"} 1\n"));
  // The job was cancelled while queued: it ended, so it counts as finished too (it did not).
  EXPECT_THAT(metrics->body, HasSubstr("ionflow_jobs_finished_total{state=\"cancelled\"} 1\n"));
  EXPECT_THAT(metrics->body, HasSubstr("ionflow_jobs{state=\"queued\"} 1\n"));
}

TEST_F(HttpApiTest, RunsAJobAndServesItsResults) {
  scheduler_->start();
  JsonValue created = post_job(small_job(), 201);
  std::string id = created.find("id")->as_string();
  JsonValue job = wait_for_end(id);
  ASSERT_EQ(job.find("state")->as_string(), "done") << to_json(job, 2);
  EXPECT_GT(job.find("finished_at")->as_double(), job.find("started_at")->as_double() - 1e-9);
  const JsonValue* summary = job.find("summary");
  ASSERT_TRUE(summary);
  EXPECT_GT(summary->find("spectra_read")->as_integer(), 0);

  auto tsv = client_->Get(("/v1/jobs/" + id + "/results").c_str());
  ASSERT_TRUE(tsv);
  ASSERT_EQ(tsv->status, 200) << to_json(job, 2);
  EXPECT_THAT(tsv->body, StartsWith("psm_id\tfilename\tscannr\trank\tlabel"));
  auto results_json = client_->Get(("/v1/jobs/" + id + "/results.json").c_str());
  ASSERT_TRUE(results_json);
  ASSERT_EQ(results_json->status, 200);
  JsonValue r = parse_json(results_json->body);
  EXPECT_EQ(r.find("job_id")->as_string(), id);
  EXPECT_EQ(r.find("summary")->find("spectra_read")->as_integer(),
            summary->find("spectra_read")->as_integer());
  EXPECT_TRUE(fs::exists(dir_ / "jobs" / id / "results.tsv"));
  EXPECT_EQ(client_->Delete(("/v1/jobs/" + id).c_str())->status, 409);

  auto metrics = client_->Get("/metrics");
  EXPECT_THAT(metrics->body, HasSubstr("ionflow_jobs_finished_total{state=\"done\"} 1\n"));
}

// A job that fails leaves no empty DIR/jobs/<id>/ behind (the search makes it before reading
// its inputs), and GET still reports the failure with the file and its line and byte; a job
// directory holding anything (here a file put there before the job ran) is kept.
TEST_F(HttpApiTest, AFailedJobLeavesNoEmptyDirectoryAndKeepsItsError) {
  const fs::path bad = dir_ / "uploads" / "notes.mgf";
  fs::create_directories(bad.parent_path());
  {
    std::ofstream out(bad);
    out << "hello world\n";
  }
  const std::string job = R"({"database": {"fasta": ")" + kData +
                          R"(/bsa_target_decoy_excerpt.fasta",
          "generate_decoys": false, "decoy_tag": "_rev"}, "decoy_tag_position": "suffix",
          "mzml_paths": [")" +
                          bad.string() + R"("]})";
  const std::string empty_id = post_job(job, 201).find("id")->as_string();
  const std::string kept_id = post_job(job, 201).find("id")->as_string();
  fs::create_directories(dir_ / "jobs" / kept_id);
  {
    std::ofstream out(dir_ / "jobs" / kept_id / "note.txt");
    out << "not the job's";
  }
  scheduler_->start();
  const std::string error = bad.string() +
                            ": line 1 (byte 0): neither mzML (which starts with '<') nor MGF: "
                            "expected BEGIN IONS, a KEY=value parameter or a comment, found "
                            "\"hello world\"";
  for (const std::string& id : {empty_id, kept_id}) {
    JsonValue ended = wait_for_end(id);
    ASSERT_EQ(ended.find("state")->as_string(), "failed") << to_json(ended, 2);
    EXPECT_EQ(ended.find("error")->as_string(), error) << id;
    // Asked again after the end: the same error.
    EXPECT_EQ(get("/v1/jobs/" + id).find("error")->as_string(), error) << id;
  }
  EXPECT_FALSE(fs::exists(dir_ / "jobs" / empty_id));
  EXPECT_TRUE(fs::is_regular_file(dir_ / "jobs" / kept_id / "note.txt"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ / "jobs" / kept_id), {}), 1);
}

}  // namespace
}  // namespace ionflow
