// find_invalid_utf8: the offset of the first byte that starts no well-formed UTF-8 sequence
// (RFC 3629 section 4), the byte a JSON job message's error names.
#include "io/utf8.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ionflow {
namespace {

TEST(FindInvalidUtf8, WellFormedTextHasNone) {
  EXPECT_EQ(find_invalid_utf8(""), std::string_view::npos);
  EXPECT_EQ(find_invalid_utf8("{\"a\": 1}"), std::string_view::npos);
  // 2, 3 and 4 bytes, U+FFFF and U+10FFFF (the largest).
  EXPECT_EQ(
      find_invalid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x90\x8D\x88 \xEF\xBF\xBF \xF4\x8F\xBF\xBF"),
      std::string_view::npos);
}

TEST(FindInvalidUtf8, NamesTheFirstByteOfABadSequence) {
  EXPECT_EQ(find_invalid_utf8("Gen\xE8ve"), 3u);                         // Latin-1 è
  EXPECT_EQ(find_invalid_utf8("ab\x80"), 2u);                            // stray continuation byte
  EXPECT_EQ(find_invalid_utf8("\xC3\xA9\xC0\xAF"), 2u);                  // overlong '/' after é
  EXPECT_EQ(find_invalid_utf8("x\xED\xA0\x80"), 1u);                     // surrogate U+D800
  EXPECT_EQ(find_invalid_utf8("\xF4\x90\x80\x80"), 0u);                  // above U+10FFFF
  EXPECT_EQ(find_invalid_utf8("ab\xE2\x82"), 2u);                        // cut at the end
  EXPECT_EQ(find_invalid_utf8(std::string("\0\xFF", 2)), 1u);            // NUL is ASCII
  EXPECT_EQ(find_invalid_utf8("\xE2\x82\xAC\xE2\x82\xAC\xFF\x80"), 6u);  // after two euros
}

}  // namespace
}  // namespace ionflow
