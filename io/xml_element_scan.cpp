// scan_plain_xml_element (xml_element_scan.hpp): one pass over the bytes for the character rules
// (written to vectorize), then a tag-by-tag walk that finds '<' and quotes with memchr.
#include "io/xml_element_scan.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ionflow {
namespace {

// Character classes of ASCII bytes for XML names (XML 1.0 productions NameStartChar, NameChar
// restricted to ASCII).
constexpr uint8_t kNameStart = 1;
constexpr uint8_t kNameChar = 2;

constexpr std::array<uint8_t, 256> make_name_table() {
  std::array<uint8_t, 256> t{};
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = kNameStart | kNameChar;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = kNameStart | kNameChar;
  t['_'] = t[':'] = kNameStart | kNameChar;
  for (int c = '0'; c <= '9'; ++c) t[c] = kNameChar;
  t['.'] = t['-'] = kNameChar;
  return t;
}
constexpr std::array<uint8_t, 256> kNameTable = make_name_table();

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

struct CharSummary {
  bool plain;        // only printable ASCII, tab, LF, CR; no '&'
  bool has_bracket;  // a ']' somewhere (then text runs are checked for "]]>")
};

CharSummary summarize_chars(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  unsigned bad = 0, bracket = 0;
#if defined(__SSE2__)
  // 16 bytes at a time: as signed bytes, "< 0x20" also catches every byte >= 0x80.
  __m128i bad_lanes = _mm_setzero_si128(), bracket_lanes = _mm_setzero_si128();
  const __m128i space = _mm_set1_epi8(0x20), tab = _mm_set1_epi8('\t'), lf = _mm_set1_epi8('\n'),
                cr = _mm_set1_epi8('\r'), amp = _mm_set1_epi8('&'), close = _mm_set1_epi8(']');
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i blank = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, lf)),
                                       _mm_cmpeq_epi8(v, cr));
    const __m128i low_or_high = _mm_andnot_si128(blank, _mm_cmplt_epi8(v, space));
    bad_lanes = _mm_or_si128(bad_lanes, _mm_or_si128(low_or_high, _mm_cmpeq_epi8(v, amp)));
    bracket_lanes = _mm_or_si128(bracket_lanes, _mm_cmpeq_epi8(v, close));
  }
  bad = static_cast<unsigned>(_mm_movemask_epi8(bad_lanes));
  bracket = static_cast<unsigned>(_mm_movemask_epi8(bracket_lanes));
#endif
  for (; i < n; ++i) {
    const unsigned c = p[i];
    const unsigned control = (c < 0x20u) & (c != '\t') & (c != '\n') & (c != '\r');
    bad |= (c >= 0x80u) | (c == '&') | control;
    bracket |= c == ']';
  }
  return {bad == 0, bracket != 0};
}

// Reads an XML name at s[pos]; returns its end, or pos if there is none.
size_t name_end(std::string_view s, size_t pos) {
  if (pos >= s.size() || (kNameTable[static_cast<unsigned char>(s[pos])] & kNameStart) == 0) {
    return pos;
  }
  size_t i = pos + 1;
  while (i < s.size() && (kNameTable[static_cast<unsigned char>(s[i])] & kNameChar) != 0) ++i;
  return i;
}

size_t skip_space(std::string_view s, size_t pos) {
  while (pos < s.size() && is_space(s[pos])) ++pos;
  return pos;
}

size_t find_char(std::string_view s, size_t from, char c) {
  // Attribute values and the blanks between tags are short: a plain loop beats a call.
  const size_t inline_end = std::min(s.size(), from + 32);
  for (; from < inline_end; ++from) {
    if (s[from] == c) return from;
  }
  if (from >= s.size()) return std::string_view::npos;
  const void* hit = std::memchr(s.data() + from, c, s.size() - from);
  return hit == nullptr ? std::string_view::npos
                        : static_cast<size_t>(static_cast<const char*>(hit) - s.data());
}

// Parses the start tag whose name begins at s[pos] (just after '<'). Returns the position after
// its '>' or 0 when it is not in the plain subset; `self_closing` tells "/>".
size_t start_tag(std::string_view s, size_t pos, XmlElementScan& scan, bool& self_closing) {
  const size_t name_stop = name_end(s, pos);
  if (name_stop == pos) return 0;
  XmlEvent event{XmlEvent::Kind::kStart, s.substr(pos, name_stop - pos),
                 static_cast<uint32_t>(scan.attributes.size()), 0};
  size_t i = name_stop;
  for (;;) {
    const size_t after_space = skip_space(s, i);
    if (after_space >= s.size()) return 0;
    const char c = s[after_space];
    if (c == '>' || c == '/') {
      if (c == '/' && (after_space + 1 >= s.size() || s[after_space + 1] != '>')) return 0;
      self_closing = c == '/';
      scan.events.push_back(event);
      return after_space + (self_closing ? 2 : 1);
    }
    if (after_space == i) return 0;  // attributes must be separated by whitespace
    const size_t attr_stop = name_end(s, after_space);
    if (attr_stop == after_space) return 0;
    const std::string_view attr_name = s.substr(after_space, attr_stop - after_space);
    i = skip_space(s, attr_stop);
    if (i >= s.size() || s[i] != '=') return 0;
    i = skip_space(s, i + 1);
    if (i >= s.size() || (s[i] != '"' && s[i] != '\'')) return 0;
    const size_t close = find_char(s, i + 1, s[i]);
    if (close == std::string_view::npos) return 0;
    const std::string_view value = s.substr(i + 1, close - i - 1);
    for (const char v : value) {
      if (v == '<' || v == '\t' || v == '\n' || v == '\r') return 0;
    }
    for (uint32_t a = 0; a < event.attribute_count; ++a) {
      if (scan.attributes[event.first_attribute + a].name == attr_name) return 0;
    }
    scan.attributes.push_back({attr_name, value});
    ++event.attribute_count;
    i = close + 1;
  }
}

}  // namespace

bool scan_plain_xml_element(std::string_view s, XmlElementScan& scan) {
  scan.events.clear();
  scan.attributes.clear();
  scan.open_elements.clear();
  scan.max_depth = 0;
  if (s.empty() || s[0] != '<') return false;
  const CharSummary chars = summarize_chars(s);
  if (!chars.plain) return false;

  size_t pos = 0;
  while (pos < s.size()) {
    if (s[pos] != '<') {  // character data up to the next tag
      const size_t lt = find_char(s, pos, '<');
      if (lt == std::string_view::npos) return false;
      const std::string_view text = s.substr(pos, lt - pos);
      if (chars.has_bracket && text.find("]]>") != std::string_view::npos) return false;
      scan.events.push_back({XmlEvent::Kind::kText, text, 0, 0});
      pos = lt;
    }
    const size_t next = pos + 1;
    if (next >= s.size()) return false;
    if (s[next] == '/') {  // end tag
      const size_t name_stop = name_end(s, next + 1);
      const std::string_view name = s.substr(next + 1, name_stop - next - 1);
      const size_t gt = skip_space(s, name_stop);
      if (name.empty() || gt >= s.size() || s[gt] != '>') return false;
      if (scan.open_elements.empty() || scan.open_elements.back() != name) return false;
      scan.open_elements.pop_back();
      scan.events.push_back({XmlEvent::Kind::kEnd, name, 0, 0});
      pos = gt + 1;
      if (scan.open_elements.empty()) return pos == s.size();
      continue;
    }
    if (s[next] == '!' || s[next] == '?') return false;
    bool self_closing = false;
    const size_t after = start_tag(s, next, scan, self_closing);
    if (after == 0) return false;
    const std::string_view name = scan.events.back().text;
    const int depth = static_cast<int>(scan.open_elements.size()) + 1;
    if (depth > scan.max_depth) scan.max_depth = depth;
    if (self_closing) {
      scan.events.push_back({XmlEvent::Kind::kEnd, name, 0, 0});
      if (scan.open_elements.empty()) return after == s.size();
    } else {
      scan.open_elements.push_back(name);
    }
    pos = after;
  }
  return false;  // ran out of bytes with elements still open
}

}  // namespace ionflow
