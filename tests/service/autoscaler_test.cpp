// The scorer autoscaling policy (exact targets for given backlogs and times), ScorerControl
// driving a real SearchRuntime's pool (ticks by hand, a pin and its release), and the API token
// comparison.
#include "service/autoscaler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

#include "service/api_token.hpp"
#include "service/scorer_control.hpp"

namespace ionflow {
namespace {

AutoscalerPolicy policy(int lo, int hi, int per = 2, double idle = 5.0) {
  AutoscalerPolicy p;
  p.min_scorers = lo;
  p.max_scorers = hi;
  p.chunks_per_scorer = per;
  p.idle_seconds = idle;
  return p;
}

TEST(Autoscaler, GrowsToTheBacklogOverChunksPerScorerCappedAtMax) {
  Autoscaler a(policy(1, 8));
  EXPECT_EQ(a.last_target(), 1);
  // 1 scorer takes 2 chunks: a backlog of 2 is kept up with, 3 is not.
  EXPECT_EQ(a.next_target(2, 1, 0.0), 1);
  EXPECT_EQ(a.next_target(3, 1, 0.5), 2);    // ceil(3 / 2)
  EXPECT_EQ(a.next_target(9, 2, 1.0), 5);    // ceil(9 / 2)
  EXPECT_EQ(a.next_target(12, 5, 1.5), 6);   // ceil(12 / 2)
  EXPECT_EQ(a.next_target(100, 6, 2.0), 8);  // capped at max
  EXPECT_EQ(a.last_target(), 8);
  // Busy but keeping up: no shrink while chunks remain.
  EXPECT_EQ(a.next_target(1, 8, 2.5), 8);
  EXPECT_EQ(a.next_target(16, 8, 3.0), 8);
}

TEST(Autoscaler, ShrinksToMinOnlyAfterIdleSecondsWithoutBacklog) {
  Autoscaler a(policy(2, 6, 1, 5.0));
  EXPECT_EQ(a.next_target(6, 2, 10.0), 6);
  EXPECT_EQ(a.next_target(0, 6, 11.0), 6);  // idle since 11.0
  EXPECT_EQ(a.next_target(0, 6, 15.9), 6);  // 4.9 s idle
  EXPECT_EQ(a.next_target(1, 6, 16.0), 6);  // work again: the idle period restarts
  EXPECT_EQ(a.next_target(0, 6, 17.0), 6);  // idle since 17.0
  EXPECT_EQ(a.next_target(0, 6, 21.9), 6);
  EXPECT_EQ(a.next_target(0, 6, 22.0), 2);  // 5 s idle: down to min in one step
  EXPECT_EQ(a.next_target(0, 2, 30.0), 2);
  EXPECT_EQ(a.next_target(3, 2, 31.0), 3);  // chunks_per_scorer 1: one scorer per chunk
}

TEST(Autoscaler, ClampsASizeOutsideTheBoundsAndRejectsBadPolicies) {
  Autoscaler a(policy(2, 4));
  EXPECT_EQ(a.next_target(1, 1, 0.0), 2);  // below min (e.g. a pin that was released)
  EXPECT_EQ(a.next_target(1, 7, 0.1), 4);  // above max
  EXPECT_THROW(Autoscaler(policy(0, 4)), std::invalid_argument);
  EXPECT_THROW(Autoscaler(policy(3, 2)), std::invalid_argument);
  EXPECT_THROW(Autoscaler(policy(1, 2, 0)), std::invalid_argument);
}

class ScorerControlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SearchRuntime::Options ro;
    ro.licensed_cores = 4;
    ro.scorers = 1;
    runtime_ = std::make_unique<SearchRuntime>(ro);
  }
  std::unique_ptr<ScorerControl> control(int lo, int hi) {
    ScorerControl::Options o;
    o.min_scorers = lo;
    o.max_scorers = hi;
    o.idle_seconds = 0.0;  // shrink at the first tick without backlog
    return std::make_unique<ScorerControl>(
        *runtime_, [this] { return backlog_.load(); }, o);
  }
  std::atomic<uint64_t> backlog_{0};
  std::unique_ptr<SearchRuntime> runtime_;
};

TEST_F(ScorerControlTest, TicksResizeThePoolAndAPinHoldsUntilResumed) {
  auto c = control(1, 8);  // max capped to the 4 licensed cores
  ScorerControl::Status s = c->status();
  EXPECT_TRUE(s.autoscaling);
  EXPECT_EQ(s.min_scorers, 1);
  EXPECT_EQ(s.max_scorers, 4);
  EXPECT_EQ(s.scorers, 1);

  backlog_ = 5;  // ceil(5 / 2) = 3
  c->tick();
  EXPECT_EQ(runtime_->scorer_count(), 3);
  EXPECT_EQ(c->status().target, 3);
  EXPECT_EQ(c->status().backlog_chunks, 5u);
  backlog_ = 40;
  c->tick();
  EXPECT_EQ(runtime_->scorer_count(), 4);

  EXPECT_EQ(c->pin(2), 2);
  s = c->status();
  EXPECT_TRUE(s.pinned);
  EXPECT_EQ(s.target, 2);
  c->tick();  // the backlog says 4, the pin says 2
  EXPECT_EQ(runtime_->scorer_count(), 2);
  EXPECT_EQ(c->pin(9), 4);  // clamped to the licensed cores

  c->resume();
  EXPECT_FALSE(c->status().pinned);
  backlog_ = 0;
  c->tick();
  EXPECT_EQ(runtime_->scorer_count(), 1);  // idle: back to min
  EXPECT_EQ(c->status().target, 1);
}

TEST_F(ScorerControlTest, WithoutBoundsAPinIsAPlainResizeAndBadBoundsThrow) {
  auto c = control(0, 0);
  EXPECT_FALSE(c->status().autoscaling);
  EXPECT_EQ(c->pin(3), 3);
  ScorerControl::Status s = c->status();
  EXPECT_FALSE(s.pinned);
  EXPECT_EQ(s.min_scorers, 3);
  EXPECT_EQ(s.max_scorers, 3);
  EXPECT_EQ(s.target, 3);
  backlog_ = 100;
  c->tick();
  EXPECT_EQ(runtime_->scorer_count(), 3);             // no autoscaler: ticks change nothing
  EXPECT_FALSE(control(2, 2)->status().autoscaling);  // min == max: a fixed pool
  EXPECT_THROW(control(3, 2), std::invalid_argument);
  EXPECT_THROW(control(1, 0), std::invalid_argument);
  EXPECT_THROW(control(5, 6), std::invalid_argument);  // min above the 4 licensed cores
}

TEST(ApiToken, BearerHeaderMatchesOnlyTheExactToken) {
  EXPECT_TRUE(constant_time_equal("s3cret", "s3cret"));
  EXPECT_FALSE(constant_time_equal("s3cre", "s3cret"));
  EXPECT_FALSE(constant_time_equal("s3cretX", "s3cret"));
  EXPECT_FALSE(constant_time_equal("", "s3cret"));
  EXPECT_FALSE(constant_time_equal("S3cret", "s3cret"));
  EXPECT_TRUE(bearer_token_matches("Bearer s3cret", "s3cret"));
  EXPECT_TRUE(bearer_token_matches("bearer  s3cret ", "s3cret"));  // scheme case-insensitive
  EXPECT_FALSE(bearer_token_matches("Bearer s3cre", "s3cret"));
  EXPECT_FALSE(bearer_token_matches("Basic s3cret", "s3cret"));
  EXPECT_FALSE(bearer_token_matches("Bearers3cret", "s3cret"));
  EXPECT_FALSE(bearer_token_matches("", "s3cret"));
  EXPECT_FALSE(bearer_token_matches("Bearer ", ""));
}

}  // namespace
}  // namespace ionflow
