// The queue's Redis pieces against a real redis-server on a free loopback port: URL parsing,
// the connection (errors, reconnect after a server restart), the state publisher's rules (a
// final state is never replaced, owner-only progress, cancel of queued and running jobs) and
// the consumer-group operations (claim after idle, delivery counts, heartbeat ownership).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "redis_support.hpp"
#include "service/queue_state.hpp"
#include "service/queue_stream.hpp"
#include "service/redis_connection.hpp"

namespace ionflow {
namespace {

using redis_test::RedisServer;
using ::testing::HasSubstr;

TEST(RedisUrlTest, ReadsHostPortStreamAndPassword) {
  ::unsetenv("IONFLOW_REDIS_PASSWORD");
  RedisUrl u = parse_redis_url("redis://:s3cret@10.0.0.5:6380/lab:jobs", "--queue");
  EXPECT_EQ(u.host, "10.0.0.5");
  EXPECT_EQ(u.port, 6380);
  EXPECT_EQ(u.password, "s3cret");
  EXPECT_EQ(u.stream, "lab:jobs");
  EXPECT_EQ(u.display(), "redis://10.0.0.5:6380/lab:jobs");
  RedisUrl d = parse_redis_url("redis://queuehost", "--queue");
  EXPECT_EQ(d.port, 6379);
  EXPECT_EQ(d.stream, "ionflow:jobs");
  ::setenv("IONFLOW_REDIS_PASSWORD", "fromenv", 1);
  EXPECT_EQ(parse_redis_url("redis://h:1/s", "--queue").password, "fromenv");
  ::unsetenv("IONFLOW_REDIS_PASSWORD");
}

TEST(RedisUrlTest, NamesWhatIsWrong) {
  try {
    parse_redis_url("redis://h:99999/s", "--queue");
    FAIL() << "accepted port 99999";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "--queue: expected redis://[:PASSWORD@]HOST:PORT[/STREAM], got redis://h:99999/s "
              "(bad port 99999)");
  }
  EXPECT_THROW(parse_redis_url("http://h:1", "--server"), std::invalid_argument);
  EXPECT_THROW(parse_redis_url("redis://:1/s", "--server"), std::invalid_argument);
}

class QueueRedisTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!redis_test::redis_server_installed()) GTEST_SKIP() << "redis-server not installed";
    dir_ = std::filesystem::temp_directory_path() /
           ("ionflow_queue_redis_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    server_ = std::make_unique<RedisServer>(dir_);
  }
  void TearDown() override {
    server_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::filesystem::path dir_;
  std::unique_ptr<RedisServer> server_;
};

TEST_F(QueueRedisTest, ConnectionReportsErrorsAndReconnectsAfterARestart) {
  RedisConnection redis(server_->url());
  EXPECT_EQ(redis.command({"SET", "k", "v"}).str, "OK");
  EXPECT_EQ(redis.command({"GET", "k"}).str, "v");
  EXPECT_TRUE(redis.command({"GET", "nothing"}).is_nil());
  try {
    redis.command({"NOSUCHCOMMAND"});
    FAIL() << "no error reply";
  } catch (const RedisReplyError& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown command"));
  }
  EXPECT_TRUE(redis.connected());  // an error reply keeps the connection
  server_->restart();
  // The old socket is dead: the first command fails and drops it, the next one reconnects;
  // the append-only file kept the key.
  std::string value;
  for (int attempt = 0; attempt < 3 && value.empty(); ++attempt) {
    try {
      value = redis.command({"GET", "k"}).str;
    } catch (const RedisIoError&) {
    }
  }
  EXPECT_EQ(value, "v");
  RedisUrl closed = server_->url();
  closed.port = redis_test::free_loopback_port();
  RedisConnection nowhere(closed);
  try {
    nowhere.command({"PING"});
    FAIL() << "connected to a closed port";
  } catch (const RedisIoError& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot connect"));
  }
}

TEST_F(QueueRedisTest, FinalStateIsNeverReplacedAndProgressNeedsTheOwner) {
  RedisConnection redis(server_->url());
  const QueueKeys keys{"s"};
  EXPECT_TRUE(publish_state(redis, keys, "j1", "queued", "", StateChange::kNew).applied);
  EXPECT_FALSE(publish_state(redis, keys, "j1", "queued", "", StateChange::kNew).applied);
  EXPECT_TRUE(publish_state(redis, keys, "j1", "running", "nodeA", StateChange::kAny).applied);
  EXPECT_FALSE(publish_state(redis, keys, "j1", "running", "nodeB", StateChange::kProgress,
                             {{"progress", "{}"}})
                   .applied);
  EXPECT_TRUE(publish_state(redis, keys, "j1", "running", "nodeA", StateChange::kProgress,
                            {{"progress", R"({"stage": "scoring"})"}})
                  .applied);
  auto done =
      publish_state(redis, keys, "j1", "done", "nodeA", StateChange::kAny, {{"results", "/r/j1"}});
  EXPECT_TRUE(done.applied);
  EXPECT_EQ(done.previous, "running");
  // A second finisher (another node that ran the same entry) changes nothing.
  auto again = publish_state(redis, keys, "j1", "done", "nodeB", StateChange::kAny,
                             {{"results", "/elsewhere"}});
  EXPECT_FALSE(again.applied);
  EXPECT_EQ(again.previous, "done");
  auto state = read_job_state(redis, keys, "j1");
  EXPECT_EQ(state["state"], "done");
  EXPECT_EQ(state["node"], "nodeA");
  EXPECT_EQ(state["results"], "/r/j1");
  EXPECT_EQ(state["progress"], R"({"stage": "scoring"})");
  // Events: queued, running, done (progress adds none).
  RedisReply events = redis.command({"XRANGE", keys.events(), "-", "+"});
  ASSERT_EQ(events.elements.size(), 3u);
  EXPECT_EQ(events.elements[2].elements[1].elements[3].str, "done");
  EXPECT_EQ(list_job_ids(redis, keys, 10), std::vector<std::string>{"j1"});
}

TEST_F(QueueRedisTest, CancelEndsAQueuedJobAndFlagsARunningOne) {
  RedisConnection redis(server_->url());
  const QueueKeys keys{"s"};
  publish_state(redis, keys, "q", "queued", "", StateChange::kNew);
  EXPECT_EQ(request_queue_cancel(redis, keys, "q", "cancelled by client"), "queued");
  EXPECT_EQ(request_queue_cancel(redis, keys, "q", "cancelled by client"), "cancelled");
  EXPECT_EQ(read_job_state(redis, keys, "q")["state"], "cancelled");
  EXPECT_FALSE(publish_state(redis, keys, "q", "running", "n", StateChange::kAny).applied);
  publish_state(redis, keys, "r", "running", "n", StateChange::kAny);
  EXPECT_EQ(request_queue_cancel(redis, keys, "r", "cancelled by client"), "running");
  EXPECT_EQ(read_job_state(redis, keys, "r")["cancel_requested"], "1");
  EXPECT_EQ(request_queue_cancel(redis, keys, "nosuch", "x"), "");
}

TEST_F(QueueRedisTest, IdleEntriesAreClaimedAndHeartbeatsKeepOwnership) {
  RedisConnection redis(server_->url());
  const ConsumerGroup a{"s", "g", "nodeA"};
  const ConsumerGroup b{"s", "g", "nodeB"};
  ensure_consumer_group(redis, a);
  ensure_consumer_group(redis, a);  // an existing group is fine
  const std::string id = redis.command({"XADD", "s", "*", "id", "j1", "job", "{}"}).str;
  auto got = read_new_entry(redis, a, 100);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->entry_id, id);
  EXPECT_EQ(got->fields["id"], "j1");
  EXPECT_EQ(delivery_count(redis, a, id), 1);
  EXPECT_FALSE(read_new_entry(redis, b, 50));  // nothing new
  std::string cursor = "0-0";
  EXPECT_FALSE(claim_idle_entry(redis, b, 60000, cursor));  // not idle long enough
  EXPECT_EQ(heartbeat_entry(redis, a, id).kind, HeartbeatResult::Kind::kOwned);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  cursor = "0-0";
  auto claimed = claim_idle_entry(redis, b, 200, cursor);
  ASSERT_TRUE(claimed);
  EXPECT_EQ(claimed->fields["job"], "{}");
  EXPECT_EQ(delivery_count(redis, b, id), 2);
  HeartbeatResult lost = heartbeat_entry(redis, a, id);
  EXPECT_EQ(lost.kind, HeartbeatResult::Kind::kLost);
  EXPECT_EQ(lost.owner, "nodeB");
  EXPECT_EQ(delivery_count(redis, b, id), 2);  // heartbeats do not count as deliveries
  ack_entry(redis, b, id);
  EXPECT_EQ(heartbeat_entry(redis, b, id).kind, HeartbeatResult::Kind::kGone);
  EXPECT_EQ(entry_time_ms("1712345678123-0"), 1712345678123);
}

}  // namespace
}  // namespace ionflow
