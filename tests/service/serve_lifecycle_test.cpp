// `ionflow serve` (the real process) through a job's life: cancel while running, scorer resize
// while running, kill -9 while running and restart. The long job is the full demo search
// (BSA1.mzML against the 18-protein target-decoy FASTA, several seconds); the reference results
// come from the same server running the same message undisturbed.
#include <gtest/gtest.h>

#include <set>

#include "io/result_common.hpp"
#include "serve_support.hpp"

namespace ionflow::serve_test {
namespace {

// PUT /v1/scorers {"scorers": n}; returns the scorer count the server answers (-1 on error).
int put_scorers(httplib::Client& client, int n) {
  auto res =
      client.Put("/v1/scorers", "{\"scorers\": " + std::to_string(n) + "}", "application/json");
  if (!res || res->status != 200) return -1;
  return static_cast<int>(parse_json(res->body).find("scorers")->as_integer());
}

TEST(ServeLifecycle, CancelOfARunningJobLeavesNoResultsAndTheNextJobRuns) {
  ASSERT_TRUE(fs::exists(kIonflow)) << kIonflow << " not built";
  ServeTestDir dir("serve_cancel");
  ServeProcess server(dir.path(), {"--concurrent-jobs", "1", "--scorers", "1"});
  ASSERT_GT(server.start(), 0) << server.log();
  auto client = server.client();

  std::string id = submit(*client, long_job());
  ASSERT_FALSE(id.empty());
  ASSERT_EQ(wait_for_state(*client, id, {"running", "done", "failed", "cancelled"}), "running");
  auto del = client->Delete(("/v1/jobs/" + id).c_str());
  ASSERT_TRUE(del);
  EXPECT_EQ(del->status, 202) << del->body;
  EXPECT_TRUE(parse_json(del->body).find("cancel_requested")->as_bool());
  EXPECT_EQ(wait_for_end(*client, id), "cancelled") << server.log();
  JsonValue job = parse_json(client->Get(("/v1/jobs/" + id).c_str())->body);
  EXPECT_EQ(job.find("error")->as_string(), "cancelled by client");
  EXPECT_EQ(job.find("result_files")->as_array().size(), 0u);
  EXPECT_EQ(results_files(server.job_directory(id)), std::vector<std::string>{});
  EXPECT_EQ(client->Get(("/v1/jobs/" + id + "/results").c_str())->status, 409);

  // The service goes on: the next job runs to the end, with the excerpt's 12 PSMs.
  std::string next = submit(*client, small_job());
  ASSERT_FALSE(next.empty());
  ASSERT_EQ(wait_for_end(*client, next), "done") << server.log();
  auto tsv = client->Get(("/v1/jobs/" + next + "/results").c_str());
  ASSERT_TRUE(tsv);
  EXPECT_EQ(tsv->status, 200);
  EXPECT_EQ(line_count(tsv->body), 13u);
}

TEST(ServeLifecycle, ResizingScorersWhileAJobRunsKeepsItsResultsByteIdentical) {
  ASSERT_TRUE(fs::exists(kIonflow)) << kIonflow << " not built";
  ServeTestDir dir("serve_resize");
  ServeProcess server(dir.path(),
                      {"--concurrent-jobs", "1", "--licensed-cores", "4", "--scorers", "1"});
  ASSERT_GT(server.start(), 0) << server.log();
  auto client = server.client();

  // Reference: one scorer throughout.
  std::string reference = submit(*client, long_job());
  ASSERT_FALSE(reference.empty());
  ASSERT_EQ(wait_for_end(*client, reference), "done") << server.log();
  const std::string expected = read_file(server.job_directory(reference) / "results.tsv");
  ASSERT_GT(line_count(expected), 100u);

  std::string id = submit(*client, long_job());
  ASSERT_FALSE(id.empty());
  ASSERT_EQ(wait_for_state(*client, id, {"running", "done", "failed", "cancelled"}), "running");
  std::vector<int> answered;
  for (int n : {1, 4, 2}) {
    answered.push_back(put_scorers(*client, n));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // chunks scored at each size
  }
  EXPECT_EQ(answered, (std::vector<int>{1, 4, 2}));
  // The resizes happened while the job ran (it takes seconds).
  std::string state_after_resizes = job_state(*client, id);
  EXPECT_EQ(state_after_resizes, "running");
  ASSERT_EQ(wait_for_end(*client, id), "done") << server.log();
  EXPECT_EQ(read_file(server.job_directory(id) / "results.tsv"), expected);
  auto scorers = client->Get("/v1/scorers");
  ASSERT_TRUE(scorers);
  EXPECT_EQ(parse_json(scorers->body).find("scorers")->as_integer(), 2);
}

TEST(ServeLifecycle, KillNineWhileRunningThenRestartCompletesTheJobIdentically) {
  ASSERT_TRUE(fs::exists(kIonflow)) << kIonflow << " not built";
  ServeTestDir dir("serve_kill9");
  ServeProcess server(dir.path(), {"--concurrent-jobs", "1", "--scorers", "1"});
  ASSERT_GT(server.start(), 0) << server.log();
  std::string id;
  {
    auto client = server.client();
    id = submit(*client, long_job());
    ASSERT_FALSE(id.empty());
    ASSERT_EQ(wait_for_state(*client, id, {"running", "done", "failed", "cancelled"}), "running");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // well into the search
    ASSERT_EQ(job_state(*client, id), "running");
  }
  server.kill9();
  // Killed mid-job: no results file under its final name.
  EXPECT_FALSE(fs::exists(server.job_directory(id) / "results.tsv"));
  EXPECT_FALSE(fs::exists(server.job_directory(id) / "results.json"));

  ASSERT_GT(server.start(), 0) << server.log();
  auto client = server.client();
  // Until the job is done, any results.tsv seen must already be complete (it is renamed into
  // place whole): every snapshot is compared with the final file below.
  std::set<std::string> snapshots;
  std::string state;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(180);
  while (std::chrono::steady_clock::now() < deadline) {
    bool file_before = fs::exists(server.job_directory(id) / "results.tsv");
    if (file_before) snapshots.insert(read_file(server.job_directory(id) / "results.tsv"));
    state = job_state(*client, id);
    if (state == "done" || state == "failed" || state == "cancelled") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(state, "done") << server.log();
  EXPECT_NE(server.log().find("job " + id + ": was running when the service stopped; requeued"),
            std::string::npos)
      << server.log();
  const std::string recovered = read_file(server.job_directory(id) / "results.tsv");
  for (const auto& s : snapshots) EXPECT_EQ(s, recovered) << "a partial results.tsv was visible";

  // Reference: the same message run undisturbed on the restarted server.
  std::string reference = submit(*client, long_job());
  ASSERT_FALSE(reference.empty());
  ASSERT_EQ(wait_for_end(*client, reference), "done") << server.log();
  const std::string expected = read_file(server.job_directory(reference) / "results.tsv");
  EXPECT_GT(line_count(expected), 100u);
  EXPECT_EQ(recovered, expected);
}

// The result files carry the job's submission time (JobSpec::creation_time), not the time they
// are written, so a job restarted after kill -9 rewrites them byte for byte (a new user found
// two runs' pepXML differing only in their date).
TEST(ServeLifecycle, ResultFilesAreDatedWithTheJobsSubmission) {
  ASSERT_TRUE(fs::exists(kIonflow)) << kIonflow << " not built";
  ServeTestDir dir("serve_dated");
  ServeProcess server(dir.path(), {"--concurrent-jobs", "1", "--scorers", "1"});
  ASSERT_GT(server.start(), 0) << server.log();
  auto client = server.client();
  std::string message = demo_job(kExamples + "/BSA/BSA1.mzML",
                                 kExamples +
                                     "/TOPPAS/data/BSA_Identification/"
                                     "18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta");
  message.replace(message.rfind("[\"tsv\"]"), 7, "[\"tsv\", \"pepxml\"]");
  // Queued behind a job of a few seconds, it is written seconds after its submission.
  const std::string first = submit(*client, long_job());
  const std::string id = submit(*client, message);
  ASSERT_FALSE(first.empty());
  ASSERT_FALSE(id.empty());
  ASSERT_EQ(wait_for_end(*client, id), "done") << server.log();
  auto res = client->Get(("/v1/jobs/" + id).c_str());
  ASSERT_TRUE(res && res->status == 200);
  const JsonValue job = parse_json(res->body);
  const double submitted_at = job.find("submitted_at")->as_double();
  ASSERT_GT(job.find("finished_at")->as_double() - submitted_at, 1.0);
  const std::string date = result_format::utc_timestamp(submitted_at);
  EXPECT_EQ(date.size(), 20u);  // "YYYY-MM-DDThh:mm:ssZ"
  const std::string pepxml = read_file(server.job_directory(id) / "results.pep.xml");
  EXPECT_NE(pepxml.find("date=\"" + date + "\""), std::string::npos) << pepxml.substr(0, 400);
}

}  // namespace
}  // namespace ionflow::serve_test
