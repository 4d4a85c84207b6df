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
// saturates as strtod does, to +-infinity above (1e400) and to +-0 below (1e-400). A peak list's
// "1e400" is then the infinity it amounts to, handled like "inf" (peak_checks.hpp drops the
// peak) instead of failing the whole line.
inline std::from_chars_result from_chars_saturating(const char* first, const char* last,
                                                    double& value) {
  std::from_chars_result r = std::from_chars(first, last, value);
  if (r.ec != std::errc::result_out_of_range) return r;
  const std::string_view token(first, static_cast<size_t>(r.ptr - first));
  const bool negative = !token.empty() && token.front() == '-';
  const size_t e = token.find_first_of("eE");
  const bool tiny = e != std::string_view::npos && e + 1 < token.size() && token[e + 1] == '-';
  const double magnitude = tiny ? 0.0 : std::numeric_limits<double>::infinity();
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
