// Numbers written as text in peak-list attributes and parameters (mzML cvParam values, mzXML
// attributes): the whole text must be the number, after trimming ASCII blanks (space, tab, CR,
// LF) and an optional leading '+'. "357.5xyz" is no number (std::from_chars alone would take
// 357.5 and only say where it stopped). Header-only, plain functions; nothing throws; `out` is
// written only on success.
#pragma once

#include <charconv>
#include <cstdint>
#include <string_view>

namespace ionflow {

inline std::string_view trim_blanks(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
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
