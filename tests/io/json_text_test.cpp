// json_quote: escapes by RFC 8259 section 7 and always returns valid UTF-8 JSON.
#include "io/json_text.hpp"

#include <gtest/gtest.h>

namespace ionflow {
namespace {

TEST(JsonQuote, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(json_quote("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(json_quote("x\n\r\t\b\f"), R"("x\n\r\t\b\f")");
  EXPECT_EQ(json_quote(std::string("\x01\x1f", 2)), R"("\u0001\u001f")");
}

TEST(JsonQuote, WellFormedUtf8PassesThrough) {
  // é (2 bytes), € (3 bytes), U+10348 (4 bytes), U+FFFF and U+10FFFF (the largest).
  const std::string text =
      "caf\xC3\xA9 \xE2\x82\xAC \xF0\x90\x8D\x88 \xEF\xBF\xBF \xF4\x8F\xBF\xBF";
  EXPECT_EQ(json_quote(text), "\"" + text + "\"");
}

// Found by the HTTP fuzzer: "GET /v1/jobs?state=qu\xA5\x8A\x9A\x9B" was echoed raw into the 400
// answer, which no JSON parser accepts. Each byte that starts no well-formed sequence is U+FFFD.
TEST(JsonQuote, BytesThatAreNotUtf8BecomeReplacementCharacters) {
  EXPECT_EQ(json_quote("qu\xA5\x8A\x9A\x9B"), R"("qu\ufffd\ufffd\ufffd\ufffd")");
  EXPECT_EQ(json_quote("Gen\xE8ve"), R"("Gen\ufffdve")");                      // Latin-1 è
  EXPECT_EQ(json_quote("\xC0\xAF"), R"("\ufffd\ufffd")");                      // overlong '/'
  EXPECT_EQ(json_quote("\xED\xA0\x80"), R"("\ufffd\ufffd\ufffd")");            // surrogate U+D800
  EXPECT_EQ(json_quote("\xF4\x90\x80\x80"), R"("\ufffd\ufffd\ufffd\ufffd")");  // > U+10FFFF
  EXPECT_EQ(json_quote("ab\xE2\x82"), R"("ab\ufffd\ufffd")");                  // cut at the end
}

}  // namespace
}  // namespace ionflow
