// Survival-function fit on synthetic score distributions with a known log-linear tail.
#include "scoring/evalue.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace ionflow {
namespace {

// N scores whose survival count is exactly S(x) = N · 10^(−x / scale): s_i = scale·log10(N/(i+1)),
// so #{s >= s_i} = i + 1. log10 S is linear in x with slope −1/scale and intercept log10 N.
std::vector<double> exponential_tail(int n, double scale) {
  std::vector<double> s;
  for (int i = 0; i < n; ++i) s.push_back(scale * std::log10(double(n) / (i + 1)));
  return s;
}

TEST(Evalue, RecoversKnownSlope) {
  SurvivalFitter fitter(0.1);
  SurvivalFit fit = fitter.fit(exponential_tail(1000, 1.0));
  ASSERT_TRUE(fit.valid);
  EXPECT_EQ(fit.null_count, 1000u);
  EXPECT_NEAR(fit.slope, -1.0, 0.05);
  EXPECT_NEAR(fit.intercept, 3.0, 0.1);
  // Expected count of scores >= 2: 1000 · 10^-2 = 10.
  EXPECT_NEAR(fit.expected_count(2.0), 10.0, 2.0);
  EXPECT_NEAR(fit.log10_p_value(2.0), -2.0, 0.1);
  // Extrapolation beyond the data: p(5) = 1e-5.
  EXPECT_NEAR(fit.log10_p_value(5.0), -5.0, 0.3);
  // p-values are capped at 1.
  EXPECT_EQ(fit.log10_p_value(-10.0), 0.0);
}

TEST(Evalue, RecoversSteeperSlope) {
  SurvivalFitter fitter(0.05);
  SurvivalFit fit = fitter.fit(exponential_tail(2000, 0.5));
  ASSERT_TRUE(fit.valid);
  EXPECT_NEAR(fit.slope, -2.0, 0.1);
  EXPECT_NEAR(fit.intercept, std::log10(2000.0), 0.1);
}

TEST(Evalue, DegenerateDistributionsAreInvalid) {
  SurvivalFitter fitter(0.1);
  EXPECT_FALSE(fitter.fit({}).valid);
  EXPECT_FALSE(fitter.fit(std::vector<double>(50, 3.0)).valid);  // one bin only
  EXPECT_FALSE(fitter.fit({1.0, 2.0}).valid);
}

}  // namespace
}  // namespace ionflow
