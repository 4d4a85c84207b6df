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
#include <utility>
#include <vector>

#include "in_process_api.hpp"
#include "service/client.hpp"
#include "service/json_value.hpp"

namespace ionflow {
namespace {

class ClientTest : public InProcessApiTest {
 protected:
  // A small job file in the test's directory (its inputs inside the data root).
  std::string write_job() {
    const std::string job = (dir_ / "job.json").string();
    std::ofstream(job) << R"({"database": {"fasta": ")" << kTestData
                       << R"(/bsa_target_decoy_excerpt.fasta"}, "mzml_paths": [")" << kTestData
                       << R"(/BSA1_excerpt.mzML"]})";
    return job;
  }
  ClientOptions options() const {
    ClientOptions o;
    o.server = "http://127.0.0.1:" + std::to_string(port_);
    return o;
  }
  // The id of the first job the server lists, once there is one ("" after ~5 s).
  std::string first_job_id() {
    for (int i = 0; i < 500; ++i) {
      auto list = client_->Get("/v1/jobs");
      if (list && list->status == 200) {
        const JsonValue body = parse_json(list->body);
        const JsonValue* jobs = body.find("jobs");
        if (jobs && !jobs->as_array().empty()) {
          return jobs->as_array().front().find("id")->as_string();
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return "";
  }
};

TEST(ClientServer, AddressIsCheckedAndNormalisedForTheHttpClient) {
  // cpp-httplib parses only a lower-case scheme and no trailing '/': both read as unreachable.
  for (auto [given, normalised] : std::vector<std::pair<std::string, std::string>>{
           {"HTTP://127.0.0.1:18080/", "http://127.0.0.1:18080"},
           {" http://h:80 ", "http://h:80"},
           {"https://h:443", "https://h:443"},  // the OpenSSL build of cpp-httplib
           {"127.0.0.1:8080", "127.0.0.1:8080"},
           {"http://[::1]:8080", "http://[::1]:8080"},
           {"[::1]", "[::1]"},
           {"localhost", "localhost"}}) {
    EXPECT_EQ(http_server_problem(given), std::nullopt) << given;
    EXPECT_EQ(given, normalised);
  }
  // Each bad address and the start of what is said about it.
  for (auto [server, said] : std::vector<std::pair<std::string, std::string>>{
           {"ftp://x", "'ftp' scheme is not supported (http://HOST:PORT"},
           {"REDIS://h:6379/s", "write the scheme in lower case: redis://"},
           {"http://host:99999", "port '99999' is not a number from 1"},
           {"http://host:0", "port '0' is not"},
           {"http://host:8080/v1/jobs", "a path, query or fragment"},
           {"http://:8080", "no host name"},
           {"", "empty"},
           {"http://user@h:80", "user@ is not part"},
           {"::1", "an IPv6 address needs brackets"},
           {"http://[::1", "an IPv6 address needs its closing ']'"},
           {"http://[::ffff:127.0.0.1]:80", "only IPv6 addresses of digits"},
           {"http://[::1]x", "unexpected text after the host: x"}}) {
    const std::string given = server;
    EXPECT_EQ(http_server_problem(server).value_or("").rfind(said, 0), 0u) << given;
  }
}

TEST_F(ClientTest, SubmitWaitExitsWith130WhenTheJobIsCancelled) {
  start_api({});  // the scheduler is not started: the job stays queued until cancelled
  const std::string job = write_job();
  int rc = -1;
  std::thread waiting([&] { rc = client_submit(options(), job, true); });
  const std::string id = first_job_id();
  ASSERT_FALSE(id.empty());
  EXPECT_EQ(client_cancel(options(), id), 0);
  waiting.join();
  EXPECT_EQ(rc, 130);
}

// Ctrl-C while waiting stops the waiting (exit 130, as `ionflow search`), not the job, and says
// how to stop the job (a new-user test saw the client die silently).
TEST_F(ClientTest, InterruptStopsWaitingAndLeavesTheJobQueued) {
  start_api({});
  const std::string job = write_job();
  int rc = -1;
  std::thread waiting([&] { rc = client_submit(options(), job, true); });
  const std::string id = first_job_id();
  ASSERT_FALSE(id.empty());
  ::kill(::getpid(), SIGINT);  // caught: the client installs its handler before submitting
  waiting.join();
  EXPECT_EQ(rc, 130);
  auto state = client_->Get(("/v1/jobs/" + id).c_str());
  ASSERT_TRUE(state);
  EXPECT_EQ(parse_json(state->body).find("state")->as_string(), "queued");
}

}  // namespace
}  // namespace ionflow
