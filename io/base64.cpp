#include "io/base64.hpp"

#include <array>

namespace ionflow {
namespace {

constexpr uint8_t kWhitespace = 64;
constexpr uint8_t kPad = 65;
constexpr uint8_t kInvalid = 255;

constexpr std::array<uint8_t, 256> make_table() {
  std::array<uint8_t, 256> t{};
  for (auto& v : t) v = kInvalid;
  const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (int i = 0; i < 64; ++i) t[static_cast<uint8_t>(alphabet[i])] = static_cast<uint8_t>(i);
  t[' '] = t['\t'] = t['\r'] = t['\n'] = kWhitespace;
  t['='] = kPad;
  return t;
}

constexpr std::array<uint8_t, 256> kTable = make_table();

inline uint8_t lookup(char c) {
  return kTable[static_cast<uint8_t>(c)];
}

}  // namespace

bool Base64Decoder::feed_slow(const char* p, const char* end, char*& w) {
  for (; p < end; ++p) {
    const uint8_t v = lookup(*p);
    if (v < 64) {
      if (padding_ > 0) return false;
      quad_ = (quad_ << 6) | v;
      if (++pending_ == 4) {
        w[0] = static_cast<char>(quad_ >> 16);
        w[1] = static_cast<char>(quad_ >> 8);
        w[2] = static_cast<char>(quad_);
        w += 3;
        quad_ = 0;
        pending_ = 0;
      }
    } else if (v == kWhitespace) {
      continue;
    } else if (v == kPad) {
      // "xx==" or "xxx=": padding only completes a group of 2 or 3 characters.
      if (pending_ < 2 || pending_ + padding_ >= 4) return false;
      ++padding_;
    } else {
      return false;
    }
  }
  return true;
}

bool Base64Decoder::feed(std::string_view text, std::string& out) {
  if (failed_) return false;
  const size_t start = out.size();
  out.resize(start + (text.size() / 4 + 1) * 3);
  char* w = out.data() + start;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    if (pending_ == 0 && padding_ == 0) {
      // Fast path: whole groups of 4 alphabet characters.
      while (end - p >= 4) {
        const uint32_t a = lookup(p[0]), b = lookup(p[1]), c = lookup(p[2]), d = lookup(p[3]);
        if ((a | b | c | d) >= 64) break;
        const uint32_t v = (a << 18) | (b << 12) | (c << 6) | d;
        w[0] = static_cast<char>(v >> 16);
        w[1] = static_cast<char>(v >> 8);
        w[2] = static_cast<char>(v);
        w += 3;
        p += 4;
      }
      if (p == end) break;
    }
    // One character the slow way (whitespace, padding, a group split across calls, or an
    // invalid character), then retry the fast path.
    if (!feed_slow(p, p + 1, w)) {
      failed_ = true;
      out.resize(start);
      return false;
    }
    ++p;
  }
  out.resize(static_cast<size_t>(w - out.data()));
  return true;
}

bool Base64Decoder::finish(std::string& out) {
  if (failed_) return false;
  // A final group must be complete: "xx==" or "xxx=". "xx", "xxx" (a length that is not a
  // multiple of 4), "xx=" and a lone "x" are bad base64 (see base64.hpp).
  if (pending_ + padding_ != 4 && pending_ != 0) return false;
  switch (pending_) {
    case 0:
      return true;
    case 2:
      out.push_back(static_cast<char>(quad_ >> 4));
      return true;
    case 3:
      out.push_back(static_cast<char>(quad_ >> 10));
      out.push_back(static_cast<char>(quad_ >> 2));
      return true;
    default:
      return false;
  }
}

bool base64_decode(std::string_view text, std::string& out) {
  out.clear();
  Base64Decoder decoder;
  return decoder.feed(text, out) && decoder.finish(out);
}

std::string base64_encode(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) |
                       (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                       static_cast<uint8_t>(bytes[i + 2]);
    out.push_back(kAlphabet[v >> 18]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
    out.push_back(kAlphabet[v & 63]);
  }
  const size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    if (rest == 2) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    out.push_back(kAlphabet[v >> 18]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

}  // namespace ionflow
