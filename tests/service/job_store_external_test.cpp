// JobStore's records of jobs run for the Redis queue (begin_external): listed as running, never
// claimed by the local scheduler, replaced when the entry comes back, and after a kill -9
// marked cancelled at the next open instead of being requeued (the queue runs the entry again).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "service/job_store.hpp"

namespace ionflow {
namespace {

namespace fs = std::filesystem;

TEST(JobStoreExternal, QueueJobsAreListedNotClaimedAndNotRequeuedAfterACrash) {
  const fs::path dir =
      fs::temp_directory_path() / ("ionflow_store_ext_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string db = (dir / "jobs.sqlite3").string();
  {
    JobStore store(db);
    JobRecord http;
    http.id = "jhttp";
    http.submitted_json = http.effective_json = "{}";
    store.insert(http);
    JobRecord queue;
    queue.id = "jqueue";
    queue.submitted_json = queue.effective_json = "{}";
    queue.submitted_at = 1000.5;
    store.begin_external(queue);
    EXPECT_EQ(store.get("jqueue")->state, JobState::kRunning);
    EXPECT_EQ(store.get("jqueue")->submitted_at, 1000.5);
    EXPECT_EQ(store.claim_next()->id, "jhttp");  // the queue job is not the scheduler's
    EXPECT_FALSE(store.claim_next());
    store.finish_failed("jqueue", "first run failed");
    store.begin_external(queue);  // the entry came back: a fresh running record, same id
    auto again = store.get("jqueue");
    EXPECT_EQ(again->state, JobState::kRunning);
    EXPECT_EQ(again->error, "");
    EXPECT_EQ(store.list(JobState::kRunning).size(), 2u);
  }
  std::vector<std::string> requeued;
  JobStore reopened(db, &requeued);  // both were "running" when the process went away
  EXPECT_EQ(requeued, std::vector<std::string>{"jhttp"});
  auto queue = reopened.get("jqueue");
  EXPECT_EQ(queue->state, JobState::kCancelled);
  EXPECT_EQ(queue->error, "the node stopped while running it; the queue runs its entry again");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ionflow
