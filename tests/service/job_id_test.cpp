// Job ids: one form for the HTTP service's jobs and the queue's.
#include "service/job_id.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

namespace ionflow {
namespace {

TEST(JobId, IsJAndTwelveLowerCaseHexDigitsAndDoesNotRepeat) {
  const std::regex form("j[0-9a-f]{12}");
  std::set<std::string> ids;
  for (int i = 0; i < 1000; ++i) {
    const std::string id = new_job_id();
    EXPECT_TRUE(std::regex_match(id, form)) << id;
    ids.insert(id);
  }
  EXPECT_EQ(ids.size(), 1000u);  // 48 random bits: a repeat in 1000 has odds ~2e-9
}

}  // namespace
}  // namespace ionflow
