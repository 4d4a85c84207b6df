// progress_fraction: reading is the first tenth, scoring the rest, so the figure a user watches
// never goes back at the stage change (a new-user test saw 50% while reading, then 12%).
// progress_as_of: a poll's elapsed time moves while the pipeline sends no event.
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

TEST(ProgressAsOf, ElapsedTimeMovesBetweenEvents) {
  JobProgress last;
  last.stage = "indexing";
  last.spectra_read = 197;
  last.elapsed_seconds = 0.064;  // the last event, before a 10 s index build
  const JobProgress now = progress_as_of(last, 10.5);
  EXPECT_DOUBLE_EQ(now.elapsed_seconds, 10.5);
  EXPECT_EQ(now.stage, "indexing");
  EXPECT_EQ(now.spectra_read, 197u);
  // The pipeline's clock starts after the scheduler's, so it may be ahead only by rounding;
  // the larger one counts, and a poll never shows less than the last event did.
  EXPECT_DOUBLE_EQ(progress_as_of(last, 0.01).elapsed_seconds, 0.064);
}

}  // namespace
}  // namespace ionflow
