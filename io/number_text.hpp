// Numbers written as text in peak-list attributes and parameters (mzML cvParam values, mzXML
// attributes): the whole text must be the number, after trimming ASCII blanks (space, tab, CR,
// LF) and an optional leading '+'. "357.5xyz" is no number (std::from_chars alone would take
// 357.5 and only say where it stopped). Header-only, plain functions; nothing throws; `out` is
// written only on success.
#pragma once

#include <charconv>
#include <cstdint>
#include <limits>
#include <string_view>

namespace ionflow {

inline std::string_view trim_blanks(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

// std::from_chars for a double, except that a value beyond the double range is no error: it
// saturates as strtod does, to +-infinity above (1e400, a 400-digit integer) and to +-0 below
// (1e-400, "0." and 400 zeros and a 1), decided by the decimal exponent of the first non-zero
// digit. For peak values: a peak list's "1e400" is then the infinity it amounts to, dropped like
// "inf" (peak_checks.hpp) instead of failing the whole line.
inline std::from_chars_result from_chars_saturating(const char* first, const char* last,
                                                    double& value) {
  std::from_chars_result r = std::from_chars(first, last, value);
  if (r.ec != std::errc::result_out_of_range) return r;
  const char* p = first;
  const bool negative = *p == '-';
  if (negative) ++p;
  bool seen_point = false, seen_digit = false;
  int64_t integer_digits = 0, leading_fraction_zeros = 0;
  for (; p < r.ptr && *p != 'e' && *p != 'E'; ++p) {
    if (*p == '.') {
      seen_point = true;
    } else if (!seen_point) {
      if (seen_digit || *p != '0') seen_digit = true, ++integer_digits;
    } else if (!seen_digit) {
      if (*p == '0') {
        ++leading_fraction_zeros;
      } else {
        seen_digit = true;
      }
    }
  }
  // The decimal exponent of the first non-zero digit, then with the 'e' part added.
  int64_t power = integer_digits > 0 ? integer_digits - 1 : -(leading_fraction_zeros + 1);
  if (p < r.ptr) {  // the exponent, saturated far beyond any double's
    ++p;
    const bool exponent_negative = *p == '-';
    if (*p == '-' || *p == '+') ++p;
    int64_t exponent = 0;
    for (; p < r.ptr && exponent < 1000000000; ++p) exponent = exponent * 10 + (*p - '0');
    power += exponent_negative ? -exponent : exponent;
  }
  const double magnitude = power > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  value = negative ? -magnitude : magnitude;
  r.ec = std::errc();
  return r;
}

template <typename Number>
bool parse_whole_number(std::string_view text, Number& out) {
  text = trim_blanks(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  Number value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return false;
  out = value;
  return true;
}

inline bool parse_whole_double(std::string_view text, double& out) {
  return parse_whole_number(text, out);
}
inline bool parse_whole_int(std::string_view text, int64_t& out) {
  return parse_whole_number(text, out);
}

}  // namespace ionflow
