// progress_fraction: reading is the first tenth, scoring the rest, so the figure a user watches
// never goes back at the stage change (a new-user test saw 50% while reading, then 12%).
#include <gtest/gtest.h>

#include "service/progress_reporter.hpp"

namespace ionflow {
namespace {

TEST(ProgressFraction, ReadingThenScoringNeverGoesBack) {
  JobProgress p;
  p.stage = "reading";
  p.bytes_total = 1000;
  p.bytes_read = 500;
  EXPECT_DOUBLE_EQ(progress_fraction(p), 0.05);
  p.bytes_read = 1000;
  EXPECT_DOUBLE_EQ(progress_fraction(p), 0.1);
  p.stage = "scoring";
  p.chunks_total = 8;
  p.chunks_done = 0;
  EXPECT_DOUBLE_EQ(progress_fraction(p), 0.1);
  p.chunks_done = 4;
  EXPECT_DOUBLE_EQ(progress_fraction(p), 0.55);
  p.chunks_done = 8;
  EXPECT_DOUBLE_EQ(progress_fraction(p), 1.0);
  p.stage = "done";
  EXPECT_DOUBLE_EQ(progress_fraction(p), 1.0);
}

}  // namespace
}  // namespace ionflow
