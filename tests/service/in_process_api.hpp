// A GoogleTest fixture base for the HTTP API over real HTTP on loopback, in the test process: a
// real job store in a temporary directory, a real SearchRuntime and Scheduler (not started, so
// jobs stay queued unless a test starts it) and HttpApi on 127.0.0.1:0 with a client. Derived
// fixtures call start_api() (in SetUp or per test); TearDown stops and removes everything.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "service/http_api.hpp"

#include <httplib.h>

namespace ionflow {

struct InProcessApiOptions {
  std::string directory_prefix = "ionflow_http";  // <temp>/<prefix>_<pid>_<test name>
  int licensed_cores = 2;
  int concurrent_jobs = 1;
  size_t max_body_bytes = 1 << 20;
  std::string api_token;  // "" = none
  int64_t max_queued_jobs = 1000;
  bool scorer_control = false;  // a ScorerControl (autoscaling 1..3) behind /v1/scorers
};

class InProcessApiTest : public ::testing::Test {
 protected:
  void start_api(const InProcessApiOptions& o) {
    dir_ = std::filesystem::temp_directory_path() /
           (o.directory_prefix + "_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "jobs");
    store_ = std::make_unique<JobStore>((dir_ / "jobs.sqlite3").string());
    SearchRuntime::Options ro;
    ro.licensed_cores = o.licensed_cores;
    ro.scorers = 1;
    runtime_ = std::make_unique<SearchRuntime>(ro);
    Scheduler::Options so;
    so.concurrent_jobs = o.concurrent_jobs;
    so.jobs_directory = (dir_ / "jobs").string();
    // As `ionflow serve` does: the test data, and the uploads jobs may read.
    so.data_roots = {kTestData, (dir_ / "uploads").string()};
    scheduler_ = std::make_unique<Scheduler>(*store_, *runtime_, unimod(), metrics_, so);
    if (o.scorer_control) {
      ScorerControl::Options co;
      co.min_scorers = 1;
      co.max_scorers = 3;
      control_ = std::make_unique<ScorerControl>(*runtime_, nullptr, co);
    }
    HttpApi::Options ao;
    ao.data_roots = so.data_roots;
    ao.max_body_bytes = o.max_body_bytes;
    ao.api_token = o.api_token;
    ao.max_queued_jobs = o.max_queued_jobs;
    ao.scorer_control = control_.get();
    ao.uploads_directory = (dir_ / "uploads").string();
    api_ = std::make_unique<HttpApi>(*store_, *scheduler_, *runtime_, unimod(), metrics_, ao);
    port_ = api_->bind("127.0.0.1", 0);
    server_ = std::thread([this] { api_->serve(); });
    api_->wait_until_ready();
    client_ = std::make_unique<httplib::Client>("127.0.0.1", port_);
    client_->set_read_timeout(60, 0);
  }
  void TearDown() override {
    if (!api_) return;
    api_->stop();
    server_.join();
    scheduler_->stop(std::chrono::milliseconds(0));
    api_.reset();
    control_.reset();
    scheduler_.reset();
    runtime_.reset();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  static const Unimod& unimod() {
    static Unimod u;
    return u;
  }

  inline static const std::string kTestData = IONFLOW_TEST_DATA_DIR;
  std::filesystem::path dir_;
  Metrics metrics_;
  std::unique_ptr<JobStore> store_;
  std::unique_ptr<SearchRuntime> runtime_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<ScorerControl> control_;
  std::unique_ptr<HttpApi> api_;
  std::thread server_;
  int port_ = 0;
  std::unique_ptr<httplib::Client> client_;
};

}  // namespace ionflow
