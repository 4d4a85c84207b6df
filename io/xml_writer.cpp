#include "io/xml_writer.hpp"

#include <cmath>

#include "io/utf8.hpp"

namespace ionflow::xml {
namespace {

// U+FFFE and U+FFFF: well-formed UTF-8 but no XML character (XML 1.0 section 2.2, production
// [2] Char), so a parser refuses a document holding them.
bool xml_noncharacter(std::string_view sequence) {
  return sequence == "\xEF\xBF\xBE" || sequence == "\xEF\xBF\xBF";
}

}  // namespace

void put_escaped(TextOutput& out, std::string_view text) {
  std::size_t plain_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    std::string_view replacement;
    size_t replaced = 1;  // bytes the replacement stands for
    if (c >= 0x80) {
      const size_t length = utf8_sequence_length(text, i);
      if (length > 0 && !xml_noncharacter(text.substr(i, length))) {
        i += length - 1;
        continue;
      }
      replacement = kUtf8ReplacementCharacter;
      if (length > 0) replaced = length;
    }
    switch (c) {
      case '&':
        replacement = "&amp;";
        break;
      case '<':
        replacement = "&lt;";
        break;
      case '>':
        replacement = "&gt;";
        break;
      case '"':
        replacement = "&quot;";
        break;
      case '\'':
        replacement = "&apos;";
        break;
      case '\t':
        replacement = "&#9;";
        break;
      case '\n':
        replacement = "&#10;";
        break;
      case '\r':
        replacement = "&#13;";
        break;
      default:
        if (c < 0x20 || c == 0x7f) replacement = "?";
        break;
    }
    if (replacement.empty()) continue;
    out.put(text.substr(plain_start, i - plain_start));
    out.put(replacement);
    plain_start = i + replaced;
    i += replaced - 1;
  }
  out.put(text.substr(plain_start));
}

void put_attribute(TextOutput& out, std::string_view name, std::string_view value) {
  out.put(' ');
  out.put(name);
  out.put("=\"");
  put_escaped(out, value);
  out.put('"');
}

void put_attribute(TextOutput& out, std::string_view name, int64_t value) {
  out.put(' ');
  out.put(name);
  out.put("=\"");
  out.put_int(value);
  out.put('"');
}

void put_attribute(TextOutput& out, std::string_view name, double value) {
  out.put(' ');
  out.put(name);
  out.put("=\"");
  put_double(out, value);
  out.put('"');
}

void put_attribute_fixed(TextOutput& out, std::string_view name, double value, int decimals) {
  out.put(' ');
  out.put(name);
  out.put("=\"");
  if (std::isfinite(value)) {
    out.put_fixed(value, decimals);
  } else {
    put_double(out, value);
  }
  out.put('"');
}

void put_attribute_bool(TextOutput& out, std::string_view name, bool value) {
  put_attribute(out, name, value ? std::string_view("true") : std::string_view("false"));
}

void put_double(TextOutput& out, double value) {
  if (std::isnan(value)) {
    out.put("NaN");
  } else if (std::isinf(value)) {
    out.put(value < 0 ? "-INF" : "INF");
  } else {
    out.put_shortest(value);
  }
}

std::string make_id(std::string_view prefix, std::string_view text) {
  std::string id;
  id.reserve(prefix.size() + text.size());
  id.append(prefix);
  for (char c : text) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '-' || c == '_';
    id.push_back(ok ? c : '_');
  }
  return id;
}

}  // namespace ionflow::xml
