// Byte text: the hex digits and the quoting of file bytes that every error message shares.
#include "io/byte_text.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ionflow {
namespace {

TEST(ByteText, HexIsTwoLowerCaseDigitsPerByteHighNibbleFirst) {
  EXPECT_EQ(hex_byte(0x00), "00");
  EXPECT_EQ(hex_byte(0x0a), "0a");
  EXPECT_EQ(hex_byte(0xa0), "a0");
  EXPECT_EQ(hex_byte(0xe8), "e8");
  EXPECT_EQ(hex_byte(0xff), "ff");
  EXPECT_EQ(hex_bytes(""), "");
  EXPECT_EQ(hex_bytes(std::string("\x01\xab\x00\x7f", 4)), "01ab007f");
  EXPECT_EQ(hex_bytes("abc"), "616263");
}

TEST(ByteText, PrintableAsciiIsSpaceToTilde) {
  EXPECT_TRUE(is_printable_ascii(' '));
  EXPECT_TRUE(is_printable_ascii('A'));
  EXPECT_TRUE(is_printable_ascii('~'));
  EXPECT_FALSE(is_printable_ascii('\x1f'));
  EXPECT_FALSE(is_printable_ascii('\t'));
  EXPECT_FALSE(is_printable_ascii('\x7f'));  // DEL
  EXPECT_FALSE(is_printable_ascii('\x80'));
  EXPECT_FALSE(is_printable_ascii('\xff'));
}

TEST(ByteText, PrintableTextWritesEveryOtherByteAsBackslashXHex) {
  EXPECT_EQ(printable_text(""), "");
  EXPECT_EQ(printable_text("BEGIN IONS ~"), "BEGIN IONS ~");
  EXPECT_EQ(printable_text("a\tb\r\n"), "a\\x09b\\x0d\\x0a");
  // A binary file's head: NUL, DEL, high bytes; UTF-8 text (é) byte by byte.
  EXPECT_EQ(printable_text(std::string("\x01\x00\xfftrash\x7f", 9)), "\\x01\\x00\\xfftrash\\x7f");
  EXPECT_EQ(printable_text("Gen\xC3\xA9ve"), "Gen\\xc3\\xa9ve");
  // A backslash is printable: it stays as it is.
  EXPECT_EQ(printable_text("a\\b"), "a\\b");
}

}  // namespace
}  // namespace ionflow
