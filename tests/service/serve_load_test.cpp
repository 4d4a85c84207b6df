// `ionflow serve` under a burst of submissions: 50 threads POST the same small job at once to a
// real server process (one job at a time, one scorer). Every submission must be answered 201
// with its own id and be listed; the queued remainder is then cancelled, and every job must end
// done or cancelled — none lost, none failed. The submission latency (p50, p99) is printed, not
// asserted.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <map>
#include <set>

#include "serve_support.hpp"

namespace ionflow::serve_test {
namespace {

TEST(ServeLoad, FiftyConcurrentSubmissionsAreAllAcceptedListedAndEnd) {
  ASSERT_TRUE(fs::exists(kIonflow)) << kIonflow << " not built";
  ServeTestDir dir("serve_load");
  ServeProcess server(dir.path(), {"--concurrent-jobs", "1", "--scorers", "1"});
  ASSERT_GT(server.start(), 0) << server.log();

  constexpr int kJobs = 50;
  const std::string message = small_job();
  std::vector<int> status(kJobs, 0);
  std::vector<std::string> ids(kJobs);
  std::vector<double> latency_ms(kJobs, 0);
  std::vector<std::string> errors(kJobs);
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int i = 0; i < kJobs; ++i) {
    threads.emplace_back([&, i] {
      auto client = server.client();
      ++ready;
      while (!go.load()) std::this_thread::yield();
      auto t0 = std::chrono::steady_clock::now();
      auto res = client->Post("/v1/jobs", message, "application/json");
      auto t1 = std::chrono::steady_clock::now();
      latency_ms[i] = std::chrono::duration<double, std::milli>(t1 - t0).count();
      if (!res) {
        errors[i] = httplib::to_string(res.error());
        return;
      }
      status[i] = res->status;
      if (res->status == 201) ids[i] = parse_json(res->body).find("id")->as_string();
    });
  }
  while (ready.load() < kJobs) std::this_thread::yield();
  go = true;
  for (auto& t : threads) t.join();

  for (int i = 0; i < kJobs; ++i)
    EXPECT_EQ(status[i], 201) << "submission " << i << ": " << errors[i];
  std::set<std::string> distinct(ids.begin(), ids.end());
  distinct.erase("");
  ASSERT_EQ(distinct.size(), static_cast<size_t>(kJobs));

  std::sort(latency_ms.begin(), latency_ms.end());
  // Nearest-rank percentiles over the 50 samples.
  double p50 = latency_ms[kJobs * 50 / 100 - 1], p99 = latency_ms[(kJobs * 99 + 99) / 100 - 1];
  std::cout << "submission latency p50 " << p50 << " ms p99 " << p99 << " ms\n";

  auto client = server.client();
  auto list = client->Get("/v1/jobs?limit=1000");
  ASSERT_TRUE(list);
  ASSERT_EQ(list->status, 200);
  std::set<std::string> listed;
  const JsonValue listing = parse_json(list->body);  // outlives the loop below
  for (const auto& j : listing.find("jobs")->as_array()) {
    listed.insert(j.find("id")->as_string());
  }
  EXPECT_EQ(listed, distinct);

  // Cancel what has not run yet: 200 (queued -> cancelled), 202 (running, cancel requested) or
  // 409 (already done).
  for (const auto& id : distinct) {
    auto del = client->Delete(("/v1/jobs/" + id).c_str());
    ASSERT_TRUE(del);
    EXPECT_TRUE(del->status == 200 || del->status == 202 || del->status == 409)
        << id << ": " << del->status << " " << del->body;
  }
  std::map<std::string, int> ended;
  for (const auto& id : distinct) {
    std::string state = wait_for_end(*client, id);
    ++ended[state];
    if (state == "done") {
      // The 12 PSMs of the excerpt, plus the header line.
      EXPECT_EQ(line_count(read_file(server.job_directory(id) / "results.tsv")), 13u) << id;
    } else {
      EXPECT_TRUE(results_files(server.job_directory(id)).empty()) << id;
    }
  }
  EXPECT_EQ(ended["done"] + ended["cancelled"], kJobs) << "failed: " << ended["failed"] << "\n"
                                                       << server.log();
  std::cout << "jobs done " << ended["done"] << ", cancelled " << ended["cancelled"] << "\n";

  auto health = client->Get("/v1/health");
  ASSERT_TRUE(health);
  JsonValue h = parse_json(health->body);
  EXPECT_EQ(h.find("jobs")->find("queued")->as_integer(), 0);
  EXPECT_EQ(h.find("jobs")->find("running")->as_integer(), 0);
  EXPECT_EQ(h.find("jobs")->find("done")->as_integer(), ended["done"]);
  EXPECT_EQ(h.find("jobs")->find("cancelled")->as_integer(), ended["cancelled"]);
}

}  // namespace
}  // namespace ionflow::serve_test
