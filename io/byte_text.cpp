#include "io/byte_text.hpp"

namespace ionflow {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

void append_hex(std::string& out, unsigned char byte) {
  out += kHexDigits[byte >> 4];
  out += kHexDigits[byte & 15];
}

}  // namespace

std::string hex_byte(unsigned char byte) {
  std::string out;
  append_hex(out, byte);
  return out;
}

std::string hex_bytes(std::string_view bytes) {
  std::string out;
  out.reserve(2 * bytes.size());
  for (char c : bytes) append_hex(out, static_cast<unsigned char>(c));
  return out;
}

bool is_printable_ascii(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x20 && u < 0x7f;
}

std::string printable_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (is_printable_ascii(c)) {
      out += c;
    } else {
      out += "\\x";
      append_hex(out, static_cast<unsigned char>(c));
    }
  }
  return out;
}

}  // namespace ionflow
