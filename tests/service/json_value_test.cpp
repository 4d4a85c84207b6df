#include "service/json_value.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace ionflow {
namespace {

TEST(JsonValue, ParsesEveryTypeAndKeepsKeyOrder) {
  JsonValue v = parse_json(
      R"({"b": true, "a": -3, "big": 18446744073709551615, "x": 0.5, "s": "M\"\u00e9", "n": null,
          "arr": [1, [2], {}], "o": {"k": "v"}})");
  ASSERT_TRUE(v.is_object());
  const auto& o = v.as_object();
  ASSERT_EQ(o.size(), 8u);
  EXPECT_EQ(o[0].first, "b");
  EXPECT_EQ(o[1].first, "a");
  EXPECT_TRUE(v.find("b")->as_bool());
  EXPECT_EQ(v.find("a")->as_integer(), -3);
  EXPECT_EQ(v.find("big")->type(), JsonValue::Type::kReal);  // above INT64_MAX
  EXPECT_DOUBLE_EQ(v.find("x")->as_double(), 0.5);
  EXPECT_EQ(v.find("s")->as_string(), "M\"\xc3\xa9");
  EXPECT_TRUE(v.find("n")->is_null());
  EXPECT_EQ(v.find("arr")->as_array().size(), 3u);
  EXPECT_EQ(v.find("o")->find("k")->as_string(), "v");
  EXPECT_EQ(v.find("missing"), nullptr);
}

TEST(JsonValue, WritesAndReadsBackTheSameTree) {
  JsonValue v = parse_json(R"({"tol": {"ppm": [-10.0, 10.5]}, "mass": 500.0, "n": 3,
                               "s": "tab\there", "list": ["a", "b"], "e": [], "z": 1e-7})");
  std::string compact = to_json(v);
  EXPECT_EQ(compact,
            R"({"tol":{"ppm":[-10.0,10.5]},"mass":500.0,"n":3,"s":"tab\there","list":["a","b"],)"
            R"("e":[],"z":1e-07})");
  EXPECT_EQ(parse_json(compact), v);
  EXPECT_EQ(parse_json(to_json(v, 2)), v);
  // 57.021464 (Carbamidomethyl) keeps every digit through a round trip.
  EXPECT_EQ(to_json(JsonValue(57.021464)), "57.021464");
}

TEST(JsonValue, SyntaxErrorsNameTheByteOffset) {
  try {
    parse_json(R"({"a": 1,, "b": 2})");
    FAIL() << "no error";
  } catch (const JsonSyntaxError& e) {
    EXPECT_NE(std::string(e.what()).find("invalid JSON at byte"), std::string::npos) << e.what();
    EXPECT_GT(e.byte_offset(), 0u);
    EXPECT_LT(e.byte_offset(), 18u);
  }
  // Over several lines (a job file), the line and column say where to look.
  try {
    parse_json("{\n  \"a\": 1,\n  \"b\": tru\n}");
    FAIL() << "no error";
  } catch (const JsonSyntaxError& e) {
    EXPECT_NE(std::string(e.what()).find("(line 3, column 8)"), std::string::npos) << e.what();
    EXPECT_EQ(e.byte_offset(), 19u);  // the t of "tru"
  }
  EXPECT_THROW(parse_json(R"({"a": 1)"), JsonSyntaxError);           // truncated
  EXPECT_THROW(parse_json(R"({"a": 1} x)"), JsonSyntaxError);        // trailing content
  EXPECT_THROW(parse_json(R"({"a": 1, "a": 2})"), JsonSyntaxError);  // duplicate key
  EXPECT_THROW(parse_json(""), JsonSyntaxError);
  EXPECT_THROW(parse_json("not json"), JsonSyntaxError);
  std::string deep(100, '[');
  deep += std::string(100, ']');
  EXPECT_THROW(parse_json(deep), JsonSyntaxError);
}

// Windows editors save UTF-8 with a byte-order mark; RFC 8259 8.1 lets a parser ignore it.
TEST(JsonValue, LeadingUtf8ByteOrderMarkIsSkipped) {
  const JsonValue v = parse_json("\xEF\xBB\xBF{\"a\": 1, \"b\": \"x\"}");
  ASSERT_TRUE(v.is_object());
  EXPECT_EQ(to_json(v), R"({"a":1,"b":"x"})");
  // Error offsets still count the three BOM bytes: the same error, 3 bytes later.
  const std::string broken = R"({"a": 1,, "b": 2})";
  uint64_t without_bom = 0;
  try {
    parse_json(broken);
  } catch (const JsonSyntaxError& e) {
    without_bom = e.byte_offset();
  }
  ASSERT_GT(without_bom, 0u);
  try {
    parse_json("\xEF\xBB\xBF" + broken);
    FAIL() << "no error";
  } catch (const JsonSyntaxError& e) {
    EXPECT_EQ(e.byte_offset(), without_bom + 3);
    const std::string prefix = "invalid JSON at byte " + std::to_string(without_bom + 3) +
                               " (line 1, column " + std::to_string(without_bom + 4) + "): ";
    EXPECT_EQ(std::string(e.what()).substr(0, prefix.size()), prefix);
  }
  // Only a leading BOM: one elsewhere is still an error, as is a BOM alone.
  EXPECT_THROW(parse_json(" \xEF\xBB\xBF{}"), JsonSyntaxError);
  EXPECT_THROW(parse_json("\xEF\xBB\xBF"), JsonSyntaxError);
}

// A document cut short is placed where it ends, not at its first byte.
TEST(JsonValue, TruncatedDocumentErrorIsAtItsEnd) {
  for (const std::string& text :
       {std::string(R"({"mzml_paths": [)"), std::string("{\n \"a\": [1,\n  2")}) {
    try {
      parse_json(text);
      FAIL() << "no error for " << text;
    } catch (const JsonSyntaxError& e) {
      EXPECT_EQ(e.byte_offset(), text.size()) << e.what();
    }
  }
  try {
    parse_json("{\n \"a\": [1,\n  2");
  } catch (const JsonSyntaxError& e) {
    EXPECT_NE(std::string(e.what()).find("at byte 15 (line 3, column 4)"), std::string::npos)
        << e.what();
  }
}

// A whole document followed by a stray word or number was "JSON document ended early in the
// middle of an object or array" at the end of the text (a new user's find); "{} {}" already
// said "unexpected content". Brackets inside strings do not count.
TEST(JsonValue, ContentAfterTheDocumentIsNamedWhereItStarts) {
  for (const std::string& tail :
       {std::string(" garbage"), std::string("\n5"), std::string(" {}")}) {
    const std::string text = R"({"a": "]}", "b": [1, {"c": "\"}"}]})" + tail;
    try {
      parse_json(text);
      FAIL() << "no error for " << text;
    } catch (const JsonSyntaxError& e) {
      EXPECT_EQ(e.byte_offset(), text.size() - tail.size() + 1) << e.what();
      EXPECT_NE(std::string(e.what()).find("unexpected content after the JSON document"),
                std::string::npos)
          << e.what();
    }
  }
}

// The message and byte offset of the JsonSyntaxError `text` gives ("" and 0 when it parses).
std::pair<std::string, size_t> syntax_error(const std::string& text) {
  try {
    parse_json(text);
  } catch (const JsonSyntaxError& e) {
    return {e.what(), e.byte_offset()};
  }
  return {"", 0};
}

// A broken null inside an object or array is a syntax error with its offset. Found by
// job_message_fuzzer (tests/fuzz): "null\"" escaped parse_json as simdjson_error, which killed
// `ionflow search` (std::terminate) and made POST /v1/jobs answer 500.
TEST(JsonValue, BrokenNullIsASyntaxError) {
  const std::pair<std::string, std::string> cases[] = {
      {R"({"a": null" b"})", "invalid JSON at byte 6 (line 1, column 7): invalid literal"},
      {R"({"a": nul})", "invalid JSON at byte 6 (line 1, column 7): invalid literal"},
      {R"([nulll])", "invalid JSON at byte 1 (line 1, column 2): invalid literal"},
  };
  for (const auto& [text, message] : cases) EXPECT_EQ(syntax_error(text).first, message) << text;
}

// A job message with bytes that are not UTF-8 (a Latin-1 editor's "Genève", a cut sequence) was
// "The input is not valid UTF-8" at byte 0: simdjson checks the whole text first and names no
// position. The error now names the first bad byte, as every other syntax error does; a leading
// byte-order mark still counts.
TEST(JsonValue, InvalidUtf8NamesTheFirstBadByte) {
  const std::pair<std::string, std::string> cases[] = {
      {"{\"title\": \"Gen\xE8ve\"}",
       "invalid JSON at byte 14 (line 1, column 15): not UTF-8 (RFC 8259 section 8.1): byte 0xe8 "
       "starts no well-formed UTF-8 sequence"},
      {"{\n  \"a\": \"\xC3\xA9\",\n  \"b\": \"x\xC3\"\n}",
       "invalid JSON at byte 24 (line 3, column 10): not UTF-8 (RFC 8259 section 8.1): byte 0xc3 "
       "starts no well-formed UTF-8 sequence"},
      {"\xEF\xBB\xBF{\"a\": \"\xED\xA0\x80\"}",  // a surrogate, after a BOM
       "invalid JSON at byte 10 (line 1, column 11): not UTF-8 (RFC 8259 section 8.1): byte 0xed "
       "starts no well-formed UTF-8 sequence"},
      {"{\"a\": 1} \xFF",  // after the document, too
       "invalid JSON at byte 9 (line 1, column 10): not UTF-8 (RFC 8259 section 8.1): byte 0xff "
       "starts no well-formed UTF-8 sequence"},
  };
  for (const auto& [text, message] : cases) {
    const auto [what, byte_offset] = syntax_error(text);
    EXPECT_EQ(what, message);
    EXPECT_EQ(byte_offset, std::stoul(message.substr(message.find("byte ") + 5)));
  }
}

// simdjson finds an unclosed string and a control byte inside a string before it parses, and
// said only "A string is opened, but never closed." or "Within strings, some characters must be
// escaped, ..." at byte 0. The error now names the string's opening quote or the byte, counting
// a leading byte-order mark, by simdjson's rule for quotes (one after a backslash is escaped).
TEST(JsonValue, StringErrorsFoundBeforeParsingNameTheirPlace) {
  const std::string never_closed =
      ": a string starts here and is never closed (\\\" is an escaped quote, not the end of a "
      "string)";
  const std::string past_line_end =
      ": a string starts here and runs past the end of its line: is its closing '\"' missing? (a "
      "line end inside a string is written \\n, RFC 8259 section 7)";
  const std::pair<std::string, std::string> cases[] = {
      {R"({"a": "b})", "invalid JSON at byte 6 (line 1, column 7)" + never_closed},
      {"{\n  \"a: 1}", "invalid JSON at byte 4 (line 2, column 3)" + never_closed},  // a key
      // A Windows path: its last backslash escapes the closing quote.
      {R"({"path": "C:\data\"})", "invalid JSON at byte 9 (line 1, column 10)" + never_closed},
      {R"({"a": "\\", "b": "x\\\"})",  // "\\" closes, "x\\\"" does not
       "invalid JSON at byte 17 (line 1, column 18)" + never_closed},
      {"\xEF\xBB\xBF{\"a\": \"b}", "invalid JSON at byte 9 (line 1, column 10)" + never_closed},
      // Checked before UTF-8: the open string is named, not the bad byte inside it.
      {"{\"a\": \"\xFF}", "invalid JSON at byte 6 (line 1, column 7)" + never_closed},
      // A closing quote left out pairs the later quotes wrongly: with an odd number of quotes
      // left (simdjson: unclosed string) or an even one (simdjson: unescaped character), the
      // string that runs over its line end is named.
      {"{\n  \"a\": \"x,\n  \"b\": 1\n}\n",
       "invalid JSON at byte 9 (line 2, column 8)" + past_line_end},
      {"{\"a\": \"x,\r\n \"b\": \"y\", \"c\": \"z}",
       "invalid JSON at byte 6 (line 1, column 7)" + past_line_end},
      // Other control bytes are named where they are, with the escape to write.
      {"{\"a\": \"x\ty\"}",
       "invalid JSON at byte 8 (line 1, column 9): control character (byte 0x09) inside a string: "
       "JSON needs it escaped (RFC 8259 section 7), as \\t"},
      {std::string("{\n\"a\": \"\\\x01\"}", 12),  // escaped by a backslash, still refused
       "invalid JSON at byte 9 (line 2, column 8): control character (byte 0x01) inside a string: "
       "JSON needs it escaped (RFC 8259 section 7), as \\u0001"},
      {std::string("[\"\0\"]", 5),
       "invalid JSON at byte 2 (line 1, column 3): control character (byte 0x00) inside a string: "
       "JSON needs it escaped (RFC 8259 section 7), as \\u0000"},
  };
  for (const auto& [text, message] : cases) {
    const auto [what, byte_offset] = syntax_error(text);
    EXPECT_EQ(what, message) << text;
    EXPECT_EQ(byte_offset, std::stoul(message.substr(message.find("byte ") + 5))) << text;
  }
  // An empty document has no place to name: simdjson's message, as before.
  EXPECT_EQ(syntax_error(" \n"), std::make_pair(std::string("Empty: no JSON found"), size_t{0}));
  EXPECT_EQ(syntax_error("\xEF\xBB\xBF"),
            std::make_pair(std::string("Empty: no JSON found"), size_t{3}));
}

TEST(JsonValue, EditsObjects) {
  JsonValue v = parse_json(R"({"a": 1, "b": 2})");
  v.set("a", JsonValue("x"));
  v.set("c", JsonValue(true));
  EXPECT_TRUE(v.erase("b"));
  EXPECT_FALSE(v.erase("b"));
  EXPECT_EQ(to_json(v), R"({"a":"x","c":true})");
}

}  // namespace
}  // namespace ionflow
