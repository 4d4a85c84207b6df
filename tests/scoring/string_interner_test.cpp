// StringInterner: dense ids in first-seen order, equal strings share an id, the table grows.
#include "scoring/string_interner.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ionflow {
namespace {

TEST(StringInterner, DenseIdsInFirstSeenOrder) {
  StringInterner strings;
  EXPECT_EQ(strings.intern("PEPTIDEK"), 0u);
  EXPECT_EQ(strings.intern("M[UNIMOD:35]PEPTIDEK"), 1u);
  EXPECT_EQ(strings.intern("PEPTIDEK"), 0u);
  EXPECT_EQ(strings.intern(""), 2u);  // the empty string is a string too
  EXPECT_EQ(strings.intern(""), 2u);
  EXPECT_EQ(strings.size(), 3u);
  EXPECT_EQ(strings[0], "PEPTIDEK");
  EXPECT_EQ(strings[1], "M[UNIMOD:35]PEPTIDEK");
  EXPECT_EQ(strings[2], "");
}

// "P<i>K" (GCC 12 warns, wrongly, on "P" + std::to_string(i) + "K").
std::string name(int i) {
  std::string s = "P";
  s += std::to_string(i);
  s += 'K';
  return s;
}

TEST(StringInterner, GrowsPastItsFirstTableAndKeepsEveryId) {
  StringInterner strings;
  const int n = 100000;  // the table starts at 1,024 slots and doubles at half full
  for (int i = 0; i < n; ++i) EXPECT_EQ(strings.intern(name(i)), static_cast<uint32_t>(i));
  for (int i = n - 1; i >= 0; i -= 997) {
    EXPECT_EQ(strings.intern(name(i)), static_cast<uint32_t>(i));
    EXPECT_EQ(strings[static_cast<uint32_t>(i)], name(i));
  }
  EXPECT_EQ(strings.size(), static_cast<uint32_t>(n));
  // At most ~50 bytes a string here (characters, an 8-byte offset, two to four 4-byte slots, and
  // vectors' spare capacity), where a std::unordered_map<std::string, uint32_t> took ~100.
  EXPECT_LT(strings.memory_bytes(), 50u * n);
}

}  // namespace
}  // namespace ionflow
