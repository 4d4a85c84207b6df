// `ionflow serve` as a process: a job left "running" by a killed server is run again at the next
// start (one whose cancel was requested ends cancelled, its empty output directory removed),
// SIGTERM stops the server with exit code 0. Uses the built executable (skipped when it is
// not built or the build has no HTTP support).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "service/http_api.hpp"
#include "service/job_message.hpp"
#include "service/job_store.hpp"

#include <httplib.h>

namespace ionflow {
namespace {

namespace fs = std::filesystem;

const std::string kIonflow = std::string(IONFLOW_BINARY_DIR) + "/service/ionflow";
const std::string kData = IONFLOW_TEST_DATA_DIR;

class ServeProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(kIonflow)) << kIonflow << " not built";
    dir_ = fs::temp_directory_path() / ("ionflow_serve_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // Starts `ionflow serve` on an ephemeral port; returns the port (0 on failure).
  int start_server() {
    std::string log = (dir_ / "serve.log").string();
    pid_ = ::fork();
    if (pid_ == 0) {
      FILE* f = std::freopen(log.c_str(), "w", stderr);
      (void)f;
      ::execl(kIonflow.c_str(), kIonflow.c_str(), "serve", "--data-dir", dir_.c_str(), "--listen",
              "127.0.0.1:0", "--data-root", kData.c_str(), "--grace-seconds", "5", nullptr);
      ::_exit(127);
    }
    const std::string marker = "listening on http://127.0.0.1:";
    for (int i = 0; i < 600; ++i) {
      std::ifstream in(log);
      std::string text((std::istreambuf_iterator<char>(in)), {});
      if (auto at = text.find(marker); at != std::string::npos) {
        return std::stoi(text.substr(at + marker.size()));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return 0;
  }

  fs::path dir_;
  pid_t pid_ = -1;
};

TEST_F(ServeProcessTest, RunsAJobLeftRunningByAKilledServerThenStopsOnSigterm) {
  // The state a kill -9 leaves: the store says "running", no process runs the job.
  std::string id = "jkilled";
  {
    Unimod unimod;
    JobMessageOptions options;
    options.data_roots = {kData};
    std::string message = R"({"database": {"fasta": ")" + kData +
                          R"(/bsa_target_decoy_excerpt.fasta"}, "mzml_paths": [")" + kData +
                          R"(/BSA1_excerpt.mzML"]})";
    ParsedJob parsed = parse_job_message(message, unimod, options);
    JobStore store((dir_ / "jobs.sqlite3").string());
    JobRecord record;
    record.id = id;
    record.submitted_json = message;
    record.effective_json = parsed.spec.effective_parameters_json;
    store.insert(record);
    ASSERT_EQ(store.claim_next()->id, id);
    // Two jobs cancelled while running, the server killed before they stopped: one whose
    // output directory the search had made (empty), one whose directory holds a file.
    for (const char* cancelled : {"jcancelled", "jcancelledkept"}) {
      JobRecord r = record;
      r.id = cancelled;
      store.insert(r);
      ASSERT_EQ(store.claim_next()->id, cancelled);
      ASSERT_EQ(store.request_cancel(cancelled, "cancelled by client"), JobState::kRunning);
      fs::create_directories(dir_ / "jobs" / cancelled);
    }
    std::ofstream(dir_ / "jobs" / "jcancelledkept" / "notes.txt") << "kept\n";
  }

  int port = start_server();
  ASSERT_GT(port, 0) << "server did not start";
  httplib::Client client("127.0.0.1", port);
  std::string state;
  for (int i = 0; i < 600 && state != "done" && state != "failed"; ++i) {
    auto res = client.Get(("/v1/jobs/" + id).c_str());
    ASSERT_TRUE(res);
    state = parse_json(res->body).find("state")->as_string();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(state, "done");
  EXPECT_TRUE(fs::exists(dir_ / "jobs" / id / "results.tsv"));
  // The restart ended them cancelled and removed the empty directory only.
  for (const char* cancelled : {"jcancelled", "jcancelledkept"}) {
    auto res = client.Get((std::string("/v1/jobs/") + cancelled).c_str());
    ASSERT_TRUE(res);
    EXPECT_EQ(parse_json(res->body).find("state")->as_string(), "cancelled") << cancelled;
  }
  EXPECT_FALSE(fs::exists(dir_ / "jobs" / "jcancelled"));
  EXPECT_TRUE(fs::exists(dir_ / "jobs" / "jcancelledkept" / "notes.txt"));
  std::ifstream log(dir_ / "serve.log");
  std::string text((std::istreambuf_iterator<char>(log)), {});
  EXPECT_THAT(text,
              ::testing::HasSubstr("job jkilled: was running when the service stopped; requeued"));

  ASSERT_EQ(::kill(pid_, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(pid_, &status, 0), pid_);
  pid_ = -1;
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace ionflow
