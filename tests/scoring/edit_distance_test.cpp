// Levenshtein distances worked by hand.
#include "scoring/edit_distance.hpp"

#include <gtest/gtest.h>

namespace ionflow {
namespace {

TEST(EditDistance, HandWorkedValues) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);  // k->s, e->i, +g
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("fragment_tl", "fragment_tol"), 1u);
  EXPECT_EQ(edit_distance("Oxidation", "Oxidation"), 0u);
  EXPECT_EQ(edit_distance("Oxidation", "oxidation"), 1u);  // bytes: case counts
}

}  // namespace
}  // namespace ionflow
