// The command-line client against a real API on loopback (in this process): `ionflow submit
// --wait` exits as `ionflow search` would — here, 130 for a job cancelled while it waits (a new
// user found it exiting 1, as for a failure).
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "in_process_api.hpp"
#include "service/client.hpp"
#include "service/json_value.hpp"

namespace ionflow {
namespace {

class ClientTest : public InProcessApiTest {};

TEST_F(ClientTest, SubmitWaitExitsWith130WhenTheJobIsCancelled) {
  start_api({});  // the scheduler is not started: the job stays queued until cancelled
  const std::string job = (dir_ / "job.json").string();
  std::ofstream(job) << R"({"database": {"fasta": ")" << kTestData
                     << R"(/bsa_target_decoy_excerpt.fasta"}, "mzml_paths": [")" << kTestData
                     << R"(/BSA1_excerpt.mzML"]})";
  ClientOptions options;
  options.server = "http://127.0.0.1:" + std::to_string(port_);
  int rc = -1;
  std::thread waiting([&] { rc = client_submit(options, job, true); });
  std::string id;
  for (int i = 0; i < 500 && id.empty(); ++i) {
    auto list = client_->Get("/v1/jobs");
    if (list && list->status == 200) {
      const JsonValue body = parse_json(list->body);
      const JsonValue* jobs = body.find("jobs");
      if (jobs && !jobs->as_array().empty()) id = jobs->as_array().front().find("id")->as_string();
    }
    if (id.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_FALSE(id.empty());
  EXPECT_EQ(client_cancel(options, id), 0);
  waiting.join();
  EXPECT_EQ(rc, 130);
}

// Ctrl-C while waiting stops the waiting (exit 130, as `ionflow search`), not the job, and says
// how to stop the job (a new-user test saw the client die silently).
TEST_F(ClientTest, InterruptStopsWaitingAndLeavesTheJobQueued) {
  start_api({});
  const std::string job = (dir_ / "job.json").string();
  std::ofstream(job) << R"({"database": {"fasta": ")" << kTestData
                     << R"(/bsa_target_decoy_excerpt.fasta"}, "mzml_paths": [")" << kTestData
                     << R"(/BSA1_excerpt.mzML"]})";
  ClientOptions options;
  options.server = "http://127.0.0.1:" + std::to_string(port_);
  int rc = -1;
  std::thread waiting([&] { rc = client_submit(options, job, true); });
  std::string id;
  for (int i = 0; i < 500 && id.empty(); ++i) {
    auto list = client_->Get("/v1/jobs");
    if (list && list->status == 200) {
      const JsonValue body = parse_json(list->body);
      const JsonValue* jobs = body.find("jobs");
      if (jobs && !jobs->as_array().empty()) id = jobs->as_array().front().find("id")->as_string();
    }
    if (id.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_FALSE(id.empty());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the client now waits
  ::kill(::getpid(), SIGINT);
  waiting.join();
  EXPECT_EQ(rc, 130);
  auto state = client_->Get(("/v1/jobs/" + id).c_str());
  ASSERT_TRUE(state);
  EXPECT_EQ(parse_json(state->body).find("state")->as_string(), "queued");
}

}  // namespace
}  // namespace ionflow
