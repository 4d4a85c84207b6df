// Levenshtein distances worked by hand, the bounded distance against the full one, and the
// "did you mean" choice.
#include "scoring/edit_distance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace ionflow {
namespace {

TEST(EditDistance, HandWorkedValues) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);  // k->s, e->i, +g
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("fragment_tl", "fragment_tol"), 1u);
  EXPECT_EQ(edit_distance("Oxidation", "Oxidation"), 0u);
  EXPECT_EQ(edit_distance("Oxidation", "oxidation"), 1u);  // bytes: case counts
}

// Below the limit the bounded distance is the distance itself; at or above it, the limit.
TEST(EditDistance, BoundedDistanceIsExactBelowTheLimitAndTheLimitAbove) {
  EXPECT_EQ(edit_distance_below("kitten", "sitting", 4), 3u);
  EXPECT_EQ(edit_distance_below("kitten", "sitting", 3), 3u);
  EXPECT_EQ(edit_distance_below("kitten", "sitting", 2), 2u);
  EXPECT_EQ(edit_distance_below("", "abc", 10), 3u);
  EXPECT_EQ(edit_distance_below("Oxidation", "Oxidation", 1), 0u);
  EXPECT_EQ(edit_distance_below(std::string(20000, 'x'), "Oxidation", 7), 7u);  // length gap
  // Every pair of short strings over a 3-letter alphabet, every limit up to 6.
  const std::string letters = "abc";
  std::vector<std::string> words = {""};
  for (size_t n = 0; n < words.size() && words.size() < 121; ++n)
    for (char c : letters) words.push_back(words[n] + c);
  for (const auto& a : words)
    for (const auto& b : words)
      for (size_t limit = 0; limit <= 6; ++limit)
        ASSERT_EQ(edit_distance_below(a, b, limit), std::min(edit_distance(a, b), limit))
            << a << " " << b << " " << limit;
}

TEST(EditDistance, ClosestNameIsTheNearestWithinAThirdOfTheLength) {
  const std::vector<std::string> known = {"fragment_tolerance", "precursor_tolerance", "enzyme"};
  EXPECT_EQ(closest_name("fragment_tolerence", known), "fragment_tolerance");
  EXPECT_EQ(closest_name("enzym", known), "enzyme");
  EXPECT_EQ(closest_name("missed_cleavages", known), "");
}

}  // namespace
}  // namespace ionflow
