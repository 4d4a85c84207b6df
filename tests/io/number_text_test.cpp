// Numbers as text (io/number_text.hpp): whole-text parsing, and the saturating parse of peak
// values beyond the double range.
#include "io/number_text.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace ionflow {
namespace {

// The value from_chars_saturating gives for all of `text`; NaN when it fails or stops early.
double saturated(const std::string& text) {
  double value = 0.0;
  const auto r = from_chars_saturating(text.data(), text.data() + text.size(), value);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nan("");
  return value;
}

TEST(NumberText, WholeTextOnly) {
  double v = 0.0;
  EXPECT_TRUE(parse_whole_double(" +445.12\t", v));
  EXPECT_DOUBLE_EQ(v, 445.12);
  EXPECT_FALSE(parse_whole_double("357.5xyz", v));
  EXPECT_FALSE(parse_whole_double("", v));
  int64_t n = 0;
  EXPECT_TRUE(parse_whole_int("2", n));
  EXPECT_EQ(n, 2);
  EXPECT_FALSE(parse_whole_int("2.0", n));
}

// A hostile check found "1e400" failing its peak line where "inf" dropped only the peak; a
// reviewer then found the first version deciding the direction by the exponent's sign alone.
TEST(NumberText, ValuesBeyondTheDoubleRangeSaturateByTheirMagnitude) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(saturated("1e400"), inf);
  EXPECT_EQ(saturated("-1e400"), -inf);
  EXPECT_EQ(saturated("1" + std::string(400, '0')), inf);
  EXPECT_EQ(saturated("1" + std::string(500, '0') + "e-10"), inf);  // 1e490
  EXPECT_EQ(saturated("1e-400"), 0.0);
  EXPECT_TRUE(std::signbit(saturated("-1e-400")));
  EXPECT_EQ(saturated("0." + std::string(400, '0') + "1"), 0.0);
  EXPECT_EQ(saturated("0.0001e-400"), 0.0);
  EXPECT_EQ(saturated("123.5e99999999999999999999"), inf);
  EXPECT_EQ(saturated("5e-99999999999999999999"), 0.0);
  // In range: from_chars' own value, denormals included.
  EXPECT_DOUBLE_EQ(saturated("1e-310"), 1e-310);
  EXPECT_DOUBLE_EQ(saturated("445.12"), 445.12);
  EXPECT_TRUE(std::isnan(saturated("abc")));
}

}  // namespace
}  // namespace ionflow
