// Shared by the per-stage actor tests (reader_test, parser_test, ...): an actor system with the
// message types registered, a scoped_actor that stands in for a stage's neighbours, and the
// JobContext of a job. Header-only.
#pragma once

#include <gtest/gtest.h>
#include <caf/all.hpp>

#include <atomic>
#include <chrono>
#include <memory>

#include "actors/pipeline.hpp"
#include "messages/registration.hpp"

namespace ionflow::actors_test {

struct StageConfig : caf::actor_system_config {
  StageConfig() {
    register_message_types(*this);
    set("scheduler.max-threads", 2);
  }
};

// A test of one stage: `self` plays every neighbour; spawned actors are stopped in TearDown.
class StageTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (const caf::actor& a : spawned_) self->send_exit(a, caf::exit_reason::user_shutdown);
    spawned_.clear();
  }
  std::shared_ptr<JobContext> context(const JobSpec& spec) {
    return std::make_shared<JobContext>(kJob, spec, nullptr, &scorers_);
  }
  caf::actor keep(caf::actor a) {
    spawned_.push_back(a);
    return a;
  }
  caf::actor me() { return caf::actor_cast<caf::actor>(self); }

  static constexpr uint64_t kJob = 7;
  static constexpr auto kWait = std::chrono::seconds(60);
  StageConfig cfg_;
  caf::actor_system sys{cfg_};
  caf::scoped_actor self{sys};
  std::atomic<int> scorers_{1};
  std::vector<caf::actor> spawned_;
};

}  // namespace ionflow::actors_test
