// `ionflow serve --queue` nodes and the redis:// clients as processes, each test with its own
// redis-server on a free loopback port: two nodes share 20 jobs (each done exactly once, results
// identical to `ionflow search`), a node killed mid-job (another claims and finishes it,
// identical), Redis killed and restarted mid-run (nothing lost), each class of bad entry (failed
// with the field named, acknowledged), too many deliveries, cancel over the queue.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>

#include "redis_support.hpp"
#include "serve_support.hpp"
#include "service/queue_state.hpp"
#include "service/queue_stream.hpp"

namespace ionflow::serve_test {
namespace {

using redis_test::RedisServer;
using ::testing::HasSubstr;

constexpr char kStream[] = "test:jobs";

// Two runs of each BSA file: a few seconds with one scorer, long enough to kill a node in it.
std::string medium_job() {
  return long_job(2);
}

class QueueNodesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(kIonflow)) << kIonflow << " not built";
    if (!redis_test::redis_server_installed()) GTEST_SKIP() << "redis-server not installed";
    dir_ = std::make_unique<ServeTestDir>("queue_nodes");
    redis_ = std::make_unique<RedisServer>(dir_->path() / "redis");
    results_ = dir_->path() / "results";
    url_ = redis_->url_text(kStream);
  }
  void TearDown() override {
    nodes_.clear();
    redis_.reset();
    dir_.reset();
  }

  // Starts a node; waits until it has joined the consumer group.
  ServeProcess& start_node(const std::string& name, double claim_idle_seconds,
                           std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--queue",
                                     url_,
                                     "--node-name",
                                     name,
                                     "--results-root",
                                     results_.string(),
                                     "--claim-idle-seconds",
                                     std::to_string(claim_idle_seconds),
                                     "--scorers",
                                     "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto node = std::make_unique<ServeProcess>(dir_->path() / name, args);
    fs::create_directories(dir_->path() / name);
    EXPECT_GT(node->start(), 0) << node->log();
    for (int i = 0; i < 200 && node->log().find("joins group") == std::string::npos; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_THAT(node->log(), HasSubstr("queue: node " + name + " joins group ionflow"));
    nodes_.push_back(std::move(node));
    return *nodes_.back();
  }

  fs::path write_job(const std::string& name, const std::string& message) {
    fs::path p = dir_->path() / name;
    std::ofstream(p) << message;
    return p;
  }

  // `ionflow submit FILE --server redis://...`: the job id (first line of stdout).
  std::string submit(const fs::path& job) {
    auto [rc, out] = run_command(kIonflow + " submit " + job.string() + " --server " + url_);
    EXPECT_EQ(rc, 0) << out;
    return out.substr(0, out.find('\n'));
  }

  std::map<std::string, std::string> state(const std::string& id) {
    RedisConnection redis(redis_->url(kStream));
    for (int attempt = 0; attempt < 50; ++attempt) {
      try {
        return read_job_state(redis, QueueKeys{kStream}, id);
      } catch (const RedisIoError&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
    return {};
  }

  // Polls until the job's state is final (or `want`), at most `timeout`.
  std::map<std::string, std::string> wait_state(const std::string& id,
                                                const std::set<std::string>& want,
                                                std::chrono::seconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    std::map<std::string, std::string> s;
    while (std::chrono::steady_clock::now() < deadline) {
      s = state(id);
      if (want.count(s["state"])) return s;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "job " << id << " still " << s["state"] << " after " << timeout.count()
                  << " s";
    return s;
  }
  std::map<std::string, std::string> wait_final(const std::string& id,
                                                std::chrono::seconds timeout) {
    return wait_state(id, {"done", "failed", "cancelled"}, timeout);
  }

  // How many "done" events the job has in the events stream.
  int done_events(const std::string& id) {
    RedisConnection redis(redis_->url(kStream));
    RedisReply events = redis.command({"XRANGE", QueueKeys{kStream}.events(), "-", "+"});
    int n = 0;
    for (const auto& e : events.elements) {
      const auto& f = e.elements[1].elements;
      std::map<std::string, std::string> m;
      for (size_t i = 0; i + 1 < f.size(); i += 2) m[f[i].str] = f[i + 1].str;
      n += m["id"] == id && m["state"] == "done";
    }
    return n;
  }

  // results.tsv of `ionflow search` on the same message.
  std::string reference_tsv(const fs::path& job) {
    fs::path out = dir_->path() / ("reference_" + job.stem().string());
    auto [rc, text] =
        run_command(kIonflow + " search " + job.string() + " -q -o " + out.string() + " 2>&1");
    EXPECT_EQ(rc, 0) << text;
    return read_file(out / "results.tsv");
  }

  std::vector<std::string> partial_directories() {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(results_, ec)) {
      if (e.path().filename().string().find(".partial-") != std::string::npos) {
        out.push_back(e.path().filename().string());
      }
    }
    return out;
  }

  std::unique_ptr<ServeTestDir> dir_;
  std::unique_ptr<RedisServer> redis_;
  fs::path results_;
  std::string url_;
  std::vector<std::unique_ptr<ServeProcess>> nodes_;
};

TEST_F(QueueNodesTest, TwoNodesShareTwentyJobsEachDoneOnceAndIdenticalToSearch) {
  ServeProcess& a = start_node("nodeA", 10);
  ServeProcess& b = start_node("nodeB", 10);
  const fs::path job = write_job("small.json", small_job());
  const std::string expected = reference_tsv(job);
  ASSERT_GT(line_count(expected), 1u);
  std::vector<std::string> ids;
  for (int i = 0; i < 20; ++i) ids.push_back(submit(job));
  std::map<std::string, int> by_node;
  for (const auto& id : ids) {
    auto s = wait_final(id, std::chrono::seconds(120));
    EXPECT_EQ(s["state"], "done") << id << ": " << s["error"];
    EXPECT_EQ(s["results"], (results_ / id).string());
    EXPECT_EQ(read_file(results_ / id / "results.tsv"), expected) << id;
    EXPECT_EQ(done_events(id), 1) << id;
    ++by_node[s["node"]];
  }
  EXPECT_EQ(by_node["nodeA"] + by_node["nodeB"], 20);
  EXPECT_GT(by_node["nodeA"], 0);
  EXPECT_GT(by_node["nodeB"], 0);
  EXPECT_THAT(partial_directories(), ::testing::IsEmpty());
  // Each node's own API lists the jobs it ran.
  for (auto* node : {&a, &b}) {
    auto res = node->client()->Get("/v1/jobs?state=done");
    ASSERT_TRUE(res);
    const size_t listed = parse_json(res->body).find("jobs")->as_array().size();
    EXPECT_EQ(listed, static_cast<size_t>(by_node[node == &a ? "nodeA" : "nodeB"]));
  }
  // `ionflow status ID --server redis://...` shows it from Redis alone.
  auto [rc, out] = run_command(kIonflow + " status " + ids[0] + " --server " + url_);
  EXPECT_EQ(rc, 0);
  JsonValue status = parse_json(out);
  EXPECT_EQ(status.find("state")->as_string(), "done");
  EXPECT_EQ(status.find("results")->as_string(), (results_ / ids[0]).string());
  EXPECT_TRUE(status.find("error")->is_string());
  EXPECT_EQ(status.find("summary")->find("psms_at_1pct_fdr")->as_integer(), 12);
}

TEST_F(QueueNodesTest, ANodeKilledMidJobLeavesItToAnotherWithIdenticalResults) {
  ServeProcess& a = start_node("nodeA", 2);
  const fs::path job = write_job("medium.json", medium_job());
  const std::string id = submit(job);
  wait_state(id, {"running"}, std::chrono::seconds(30));
  // The node's own API shows what it runs now (its SQLite record follows the "running" it
  // publishes in Redis by a few milliseconds).
  std::string running;
  for (int i = 0; i < 100 && running.find("\"id\": \"" + id + "\"") == std::string::npos; ++i) {
    if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    auto res = a.client()->Get("/v1/jobs?state=running");
    ASSERT_TRUE(res);
    running = res->body;
  }
  EXPECT_THAT(running, HasSubstr("\"id\": \"" + id + "\""));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  a.kill9();
  ASSERT_EQ(state(id)["state"], "running") << "the job ended before the kill";
  const std::string expected = reference_tsv(job);  // meanwhile the entry goes idle
  ServeProcess& b = start_node("nodeB", 2);
  auto s = wait_final(id, std::chrono::seconds(120));
  EXPECT_EQ(s["state"], "done") << s["error"];
  EXPECT_EQ(s["node"], "nodeB");
  EXPECT_EQ(s["deliveries"], "2");
  EXPECT_EQ(read_file(results_ / id / "results.tsv"), expected);
  EXPECT_EQ(done_events(id), 1);
  EXPECT_THAT(b.log(), HasSubstr("claimed after 2 s idle (delivery 2)"));
  // The killed run's staging directory stays until the job is done; then only results remain.
  for (const auto& p : partial_directories()) EXPECT_THAT(p, HasSubstr("nodeA")) << p;
}

TEST_F(QueueNodesTest, RedisRestartedMidRunLosesNothing) {
  // The jobs wait in the stream before the nodes start, so that Redis goes away while the
  // first ones run and the others are still queued. The first is the medium job (seconds with
  // one scorer): small jobs alone could all end (a few ms each) before the kill.
  const fs::path job = write_job("small.json", small_job());
  std::vector<std::string> ids;
  ids.push_back(submit(write_job("medium.json", medium_job())));
  for (int i = 1; i < 10; ++i) ids.push_back(submit(job));
  // An entry read by XREADGROUP just before the kill may never reach its node: it is claimed
  // after the idle time (3 s here), as a dead node's would be.
  ServeProcess& a = start_node("nodeA", 3);
  ServeProcess& b = start_node("nodeB", 3);
  wait_state(ids[0], {"running", "done"}, std::chrono::seconds(60));
  int done_before = 0;
  for (const auto& id : ids) done_before += state(id)["state"] == "done";
  redis_->kill9();
  EXPECT_LT(done_before, 10) << "every job ended before Redis went away";
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  redis_->start();
  for (const auto& id : ids) {
    auto s = wait_final(id, std::chrono::seconds(120));
    EXPECT_EQ(s["state"], "done") << id << ": " << s["error"];
    EXPECT_TRUE(fs::exists(results_ / id / "results.tsv")) << id;
    EXPECT_EQ(done_events(id), 1) << id;
  }
  // Both readers noticed (at their next command) and reconnected (after their backoff).
  for (auto* node : {&a, &b}) {
    for (int i = 0; i < 200 && node->log().find("queue: reconnected to") == std::string::npos;
         ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_THAT(node->log(), HasSubstr("reconnecting with backoff (running jobs go on)"));
    EXPECT_THAT(node->log(), HasSubstr("queue: reconnected to"));
  }
  // Every entry is acknowledged in the end. "done" is published just before the entry's XACK,
  // and an entry whose reply the kill lost is acknowledged ("already done") only when a node
  // claims it after the 3 s idle time: so wait up to 10 s for the pending list to empty.
  RedisConnection redis(redis_->url(kStream));
  int64_t pending = -1;
  for (int i = 0; i < 100 && pending != 0; ++i) {
    if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    pending = redis.command({"XPENDING", kStream, "ionflow"}).elements[0].integer;
  }
  EXPECT_EQ(pending, 0) << "entries still pending 10 s after every job ended";
}

TEST_F(QueueNodesTest, BadEntriesFailNamingTheFieldAndTooManyDeliveriesFail) {
  RedisConnection redis(redis_->url(kStream));
  // An entry a vanished node ("ghost") received three times.
  const ConsumerGroup ghost{kStream, "ionflow", "ghost"};
  ensure_consumer_group(redis, ghost);
  const std::string tired =
      redis.command({"XADD", kStream, "*", "id", "tired", "job", small_job()}).str;
  ASSERT_TRUE(read_new_entry(redis, ghost, 100));
  redis.command({"XCLAIM", kStream, "ionflow", "ghost", "0", tired});
  redis.command({"XCLAIM", kStream, "ionflow", "ghost", "0", tired});
  publish_state(redis, QueueKeys{kStream}, "tired", "running", "ghost", StateChange::kAny);
  ASSERT_EQ(delivery_count(redis, ghost, tired), 3);

  const std::string fasta = kData + "/bsa_target_decoy_excerpt.fasta";
  const std::string mzml = kData + "/BSA1_identified_excerpt.mzML";
  auto add = [&](std::vector<std::string> fields) {
    fields.insert(fields.begin(), {"XADD", kStream, "*"});
    return redis.command(fields).str;
  };
  add({"id", "notjson", "job", "{\"database\": "});
  add({"id", "unknownkey", "job",
       R"({"databse": {"fasta": ")" + fasta + R"("}, "mzml_paths": [")" + mzml + R"("]})"});
  add({"id", "missingfile", "job",
       R"({"database": {"fasta": ")" + kData + R"(/nosuch.fasta"}, "mzml_paths": [")" + mzml +
           R"("]})"});
  add({"id", "outside", "job",
       R"({"database": {"fasta": ")" + fasta + R"("}, "mzml_paths": ["/etc/hostname"]})"});
  add({"id", "nojob", "message", "{}"});
  const std::string bad_id_entry = add({"id", "../up", "job", small_job()});

  start_node("nodeA", 1);
  const std::map<std::string, std::pair<std::string, std::string>> expected = {
      {"notjson", {"job", "job: not valid JSON"}},
      {"unknownkey", {"databse", "databse: unknown key"}},
      {"missingfile", {"database.fasta", "database.fasta: file not found"}},
      {"outside", {"mzml_paths[0]", "outside the server's data roots"}},
      {"nojob", {"job", "job: the entry has no field \"job\""}},
  };
  for (const auto& [id, want] : expected) {
    auto s = wait_final(id, std::chrono::seconds(30));
    EXPECT_EQ(s["state"], "failed") << id;
    EXPECT_EQ(s["field"], want.first) << id << ": " << s["error"];
    EXPECT_THAT(s["error"], HasSubstr(want.second)) << id;
  }
  std::string bad_id = "q" + bad_id_entry;
  std::replace(bad_id.begin(), bad_id.end(), '-', '_');
  auto s = wait_final(bad_id, std::chrono::seconds(30));
  EXPECT_EQ(s["field"], "id");
  EXPECT_THAT(s["error"], HasSubstr("got \"../up\""));
  auto t = wait_final("tired", std::chrono::seconds(30));
  EXPECT_EQ(t["state"], "failed");
  EXPECT_EQ(t["error"], "delivered 3 times; last node ghost");

  // The node keeps going: a good job after the bad ones, with submit --wait.
  auto [rc, out] = run_command(kIonflow + " submit " + write_job("ok.json", small_job()).string() +
                               " --wait --server " + url_ + " 2>/dev/null");
  EXPECT_EQ(rc, 0) << out;
  const std::string id = out.substr(0, out.find('\n'));
  EXPECT_EQ(state(id)["state"], "done");
  EXPECT_THAT(out, HasSubstr("\"psms_at_1pct_fdr\": 12"));
  RedisReply pending = redis.command({"XPENDING", kStream, "ionflow"});
  EXPECT_EQ(pending.elements[0].integer, 0) << "every entry acknowledged";
}

TEST_F(QueueNodesTest, CancelOverTheQueueStopsTheJobWhereItRuns) {
  // Claim idle 2 s: the node checks for cancels every 500 ms. The job is long (ten runs of each
  // BSA file) so that it is still running when the cancel arrives, even on a fast machine.
  ServeProcess& a = start_node("nodeA", 2);
  const std::string id = submit(write_job("long.json", long_job(10)));
  wait_state(id, {"running"}, std::chrono::seconds(30));
  auto [rc, out] = run_command(kIonflow + " cancel " + id + " --server " + url_);
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(out, id + " cancelling\n");
  auto s = wait_final(id, std::chrono::seconds(30));
  EXPECT_EQ(s["state"], "cancelled");
  EXPECT_EQ(s["error"], "cancelled by client");
  EXPECT_FALSE(fs::exists(results_ / id));
  EXPECT_EQ(job_state(*a.client(), id), "cancelled");
  auto [rc2, out2] = run_command(kIonflow + " cancel " + id + " --server " + url_ + " 2>&1");
  EXPECT_EQ(rc2, 2);
  EXPECT_EQ(out2, "ionflow: job " + id + " already cancelled\n");
}

}  // namespace
}  // namespace ionflow::serve_test
