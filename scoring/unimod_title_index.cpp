#include "scoring/unimod_title_index.hpp"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>
#include <system_error>

namespace ionflow::unimod_detail {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

namespace {

bool is_xml_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// A byte loop rather than memcmp: the scan calls it at every '<' (~37k in unimod.xml) and most
// calls differ at the first or second byte.
bool starts_with(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (s[i] != prefix[i]) return false;
  }
  return true;
}

// Appends code point `cp` as UTF-8; false if it is not an XML 1.0 Char (section 2.2).
bool append_utf8(uint32_t cp, std::string& out) {
  const bool is_char = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
                       (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
  if (!is_char) return false;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return true;
}

// An attribute value as expat reports it without a DTD (XML 1.0 section 3.3.3): the predefined
// entities &lt; &gt; &amp; &quot; &apos;, character references (&#62; &#x3E;), and a literal
// tab, newline or carriage return (CR LF counted once) as a space. False for what only a full
// parser can answer (another entity, a bad reference, a '<'): the title index then stops there.
bool decode_attribute(std::string_view raw, std::string& out) {
  out.clear();
  for (size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (c == '<') return false;
    if (c == '\r') {
      if (i + 1 < raw.size() && raw[i + 1] == '\n') ++i;
      out += ' ';
    } else if (c == '\t' || c == '\n') {
      out += ' ';
    } else if (c != '&') {
      out += c;
    } else {
      const size_t semi = raw.find(';', i + 1);
      if (semi == std::string_view::npos) return false;
      const std::string_view ref = raw.substr(i + 1, semi - i - 1);
      i = semi;
      if (ref == "lt") {
        out += '<';
      } else if (ref == "gt") {
        out += '>';
      } else if (ref == "amp") {
        out += '&';
      } else if (ref == "quot") {
        out += '"';
      } else if (ref == "apos") {
        out += '\'';
      } else if (ref.size() >= 2 && ref[0] == '#') {
        const bool hex = ref[1] == 'x';
        const std::string_view digits = ref.substr(hex ? 2 : 1);
        uint32_t cp = 0;
        const auto [ptr, ec] =
            std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
        if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size() ||
            !append_utf8(cp, out)) {
          return false;
        }
      } else {
        return false;
      }
    }
  }
  return true;
}

// The name of the start or end tag at `tag` ("<name ...>" or "</name>"): up to white space,
// '>' or '/'.
std::string_view tag_name(std::string_view tag) {
  size_t i = tag.size() > 1 && tag[1] == '/' ? 2 : 1;
  const size_t begin = i;
  while (i < tag.size() && !is_xml_space(tag[i]) && tag[i] != '>' && tag[i] != '/') ++i;
  return tag.substr(begin, i - begin);
}

// True if `tail` is only white space, comments and processing instructions (XML 1.0 section
// 2.1: the Misc that may follow the root element).
bool only_misc(std::string_view tail) {
  size_t i = 0;
  while (i < tail.size()) {
    if (is_xml_space(tail[i])) {
      ++i;
    } else if (starts_with(tail.substr(i), "<!--")) {
      const size_t close = tail.find("-->", i + 4);
      if (close == std::string_view::npos) return false;
      i = close + 3;
    } else if (starts_with(tail.substr(i), "<?")) {
      const size_t close = tail.find("?>", i + 2);
      if (close == std::string_view::npos) return false;
      i = close + 2;
    } else {
      return false;
    }
  }
  return true;
}

// A <umod:mod ...> start tag: just past its end (npos when it cannot be read, e.g. a truncated
// file), whether it is self-closing ("/>"), and its title attribute's raw value.
struct ModStartTag {
  size_t end = std::string_view::npos;
  bool self_closing = false;
  std::optional<std::string_view> raw_title;
};

// Reads the attributes of a start tag from `i` (just after the element name): name = "value" or
// 'value' (a value may hold '>'), up to '>' or "/>".
ModStartTag read_mod_start_tag(std::string_view xml, size_t i) {
  constexpr size_t npos = std::string_view::npos;
  ModStartTag tag;
  auto skip_space = [&] {
    while (i < xml.size() && is_xml_space(xml[i])) ++i;
  };
  while (i < xml.size()) {
    skip_space();
    if (i < xml.size() && xml[i] == '>') {
      tag.end = i + 1;
      break;
    }
    if (starts_with(xml.substr(i), "/>")) {
      tag.end = i + 2;
      tag.self_closing = true;
      break;
    }
    const size_t name_begin = i;
    while (i < xml.size() && !is_xml_space(xml[i]) && xml[i] != '=' && xml[i] != '>' &&
           xml[i] != '/') {
      ++i;
    }
    const std::string_view name = xml.substr(name_begin, i - name_begin);
    skip_space();
    if (name.empty() || i >= xml.size() || xml[i] != '=') break;
    ++i;
    skip_space();
    if (i >= xml.size() || (xml[i] != '"' && xml[i] != '\'')) break;
    const size_t close = xml.find(xml[i], i + 1);
    if (close == npos) break;
    if (name == "title" && !tag.raw_title) tag.raw_title = xml.substr(i + 1, close - i - 1);
    i = close + 1;
  }
  return tag;
}

// False if `pi`, a processing instruction "<?...", is an XML declaration naming an encoding
// other than UTF-8 or US-ASCII (the scan reads bytes as UTF-8; the full parse handles others).
bool utf8_or_ascii_declared(std::string_view pi) {
  constexpr size_t npos = std::string_view::npos;
  if (!starts_with(pi, "<?xml") || pi.size() <= 5 || !is_xml_space(pi[5])) return true;
  const size_t e = pi.find("encoding");
  if (e == npos) return true;
  const size_t q = pi.find_first_of("\"'", e);
  const size_t q_end = q == npos ? npos : pi.find(pi[q], q + 1);
  const std::string encoding =
      q_end == npos ? std::string() : lower(pi.substr(q + 1, q_end - q - 1));
  return encoding == "utf-8" || encoding == "us-ascii";
}

// A tag other than <umod:mod> at `pos`: only the root's name (the first start tag) and where
// the root's end tag ends matter (for TitleIndex::complete).
void note_root_tag(std::string_view xml, size_t pos, std::string_view& root, size_t& root_end) {
  const std::string_view rest = xml.substr(pos);
  if (rest.size() > 1 && rest[1] == '/') {
    const std::string_view name = tag_name(rest);
    if (root.empty() || name != root) return;
    size_t i = pos + 2 + name.size();
    while (i < xml.size() && is_xml_space(xml[i])) ++i;
    if (i < xml.size() && xml[i] == '>') root_end = i + 1;
  } else if (root.empty()) {
    root = tag_name(rest);
  }
}

}  // namespace

TitleIndex scan_titles(std::string_view xml) {
  constexpr std::string_view kStart = "<umod:mod";
  constexpr std::string_view kEnd = "</umod:mod";
  constexpr size_t npos = std::string_view::npos;
  TitleIndex index;
  ModSpan* open = nullptr;  // the element being read, if it is the first with its title
  bool in_mod = false;
  std::string title;
  std::string_view root;  // the root element's name, from the first start tag
  size_t root_end = 0;    // just past the root element's end tag, once seen
  size_t pos = 0;
  bool stopped = true;  // left the loop by a break
  while (true) {
    if ((pos = xml.find('<', pos)) == npos) {
      stopped = false;
      break;
    }
    const std::string_view rest = xml.substr(pos);
    if (starts_with(rest, "<!--")) {
      pos = xml.find("-->", pos + 4);
      if (pos == npos) break;
      pos += 3;
    } else if (starts_with(rest, "<![CDATA[")) {
      pos = xml.find("]]>", pos + 9);
      if (pos == npos) break;
      pos += 3;
    } else if (starts_with(rest, "<?")) {
      const size_t close = xml.find("?>", pos + 2);
      if (close == npos) break;
      if (!utf8_or_ascii_declared(xml.substr(pos, close - pos))) return TitleIndex{};
      pos = close + 2;
    } else if (starts_with(rest, "<!")) {
      return TitleIndex{};  // a DOCTYPE
    } else if (starts_with(rest, kStart) && rest.size() > kStart.size() &&
               (is_xml_space(rest[kStart.size()]) || rest[kStart.size()] == '>' ||
                rest[kStart.size()] == '/')) {
      if (in_mod) break;  // nested <umod:mod>: leave it to the full parse
      if (root.empty()) root = kStart.substr(1);
      ++index.start_tags;
      const ModStartTag tag = read_mod_start_tag(xml, pos + kStart.size());
      if (tag.end == npos) break;  // a start tag it cannot read (or a truncated file)
      if (!tag.raw_title) {
        title.clear();  // the full parse gives such an entry an empty title
      } else if (!decode_attribute(*tag.raw_title, title)) {
        break;
      }
      const auto [it, inserted] = index.spans.emplace(lower(title), ModSpan{pos, 0});
      open = inserted ? &it->second : nullptr;
      if (tag.self_closing) {
        if (open != nullptr) open->end = tag.end;
      } else {
        in_mod = true;
      }
      pos = tag.end;
    } else if (starts_with(rest, kEnd) && rest.size() > kEnd.size() &&
               (is_xml_space(rest[kEnd.size()]) || rest[kEnd.size()] == '>')) {
      size_t i = pos + kEnd.size();
      while (i < xml.size() && is_xml_space(xml[i])) ++i;
      if (!in_mod || i >= xml.size() || xml[i] != '>') break;
      if (open != nullptr) open->end = i + 1;
      in_mod = false;
      pos = i + 1;
    } else {
      note_root_tag(xml, pos, root, root_end);
      ++pos;
    }
  }
  index.complete = !stopped && !in_mod && root_end != 0 && only_misc(xml.substr(root_end));
  return index;
}

}  // namespace ionflow::unimod_detail
