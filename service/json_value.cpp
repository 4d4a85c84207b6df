#include "service/json_value.hpp"

#include <algorithm>

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

#include "io/byte_text.hpp"
#include "io/utf8.hpp"

namespace ionflow {

namespace od = simdjson::ondemand;

JsonValue::JsonValue(uint64_t u) {
  if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    value_ = static_cast<int64_t>(u);
  } else {
    value_ = static_cast<double>(u);
  }
}

namespace {
[[noreturn]] void type_mismatch(const char* wanted, JsonValue::Type got) {
  throw std::logic_error(std::string("JsonValue: expected ") + wanted + ", is " +
                         json_type_name(got));
}
}  // namespace

bool JsonValue::as_bool() const {
  if (auto* b = std::get_if<bool>(&value_)) return *b;
  type_mismatch("boolean", type());
}
int64_t JsonValue::as_integer() const {
  if (auto* i = std::get_if<int64_t>(&value_)) return *i;
  type_mismatch("integer", type());
}
double JsonValue::as_double() const {
  if (auto* i = std::get_if<int64_t>(&value_)) return static_cast<double>(*i);
  if (auto* d = std::get_if<double>(&value_)) return *d;
  type_mismatch("number", type());
}
const std::string& JsonValue::as_string() const {
  if (auto* s = std::get_if<std::string>(&value_)) return *s;
  type_mismatch("string", type());
}
const JsonValue::Array& JsonValue::as_array() const {
  if (auto* a = std::get_if<Array>(&value_)) return *a;
  type_mismatch("array", type());
}
JsonValue::Array& JsonValue::as_array() {
  if (auto* a = std::get_if<Array>(&value_)) return *a;
  type_mismatch("array", type());
}
const JsonValue::Object& JsonValue::as_object() const {
  if (auto* o = std::get_if<Object>(&value_)) return *o;
  type_mismatch("object", type());
}
JsonValue::Object& JsonValue::as_object() {
  if (auto* o = std::get_if<Object>(&value_)) return *o;
  type_mismatch("object", type());
}

const JsonValue* JsonValue::find(std::string_view key) const {
  auto* o = std::get_if<Object>(&value_);
  if (!o) return nullptr;
  for (const auto& [k, v] : *o) {
    if (k == key) return &v;
  }
  return nullptr;
}
JsonValue* JsonValue::find(std::string_view key) {
  return const_cast<JsonValue*>(std::as_const(*this).find(key));
}

JsonValue& JsonValue::set(std::string_view key, JsonValue value) {
  if (is_null()) value_ = Object{};
  auto& o = as_object();
  for (auto& [k, v] : o) {
    if (k == key) {
      v = std::move(value);
      return v;
    }
  }
  o.emplace_back(std::string(key), std::move(value));
  return o.back().second;
}

bool JsonValue::erase(std::string_view key) {
  auto* o = std::get_if<Object>(&value_);
  if (!o) return false;
  for (auto it = o->begin(); it != o->end(); ++it) {
    if (it->first == key) {
      o->erase(it);
      return true;
    }
  }
  return false;
}

void JsonValue::push_back(JsonValue value) {
  if (is_null()) value_ = Array{};
  as_array().push_back(std::move(value));
}

const char* json_type_name(JsonValue::Type type) {
  switch (type) {
    case JsonValue::Type::kNull:
      return "null";
    case JsonValue::Type::kBool:
      return "boolean";
    case JsonValue::Type::kInteger:
      return "integer";
    case JsonValue::Type::kReal:
      return "number";
    case JsonValue::Type::kString:
      return "string";
    case JsonValue::Type::kArray:
      return "array";
    case JsonValue::Type::kObject:
      return "object";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------
// Parsing with simdjson ondemand.

namespace {

constexpr int kMaxDepth = 64;

constexpr const char* kTrailingContent = "unexpected content after the JSON document";

// Where non-blank text follows a complete top-level object or array (strings and escapes
// skipped, brackets counted), or nullopt when there is none (the value is not closed, or nothing
// follows it).
std::optional<uint64_t> content_after_first_value(std::string_view text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos || (text[i] != '{' && text[i] != '[')) return std::nullopt;
  int depth = 0;
  bool in_string = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      const size_t next = text.find_first_not_of(" \t\r\n", i + 1);
      if (next == std::string_view::npos) return std::nullopt;
      return next;
    }
  }
  return std::nullopt;
}

class Reader {
 public:
  explicit Reader(const simdjson::padded_string& text) : text_(text) {}

  JsonValue read_document(od::document& doc) {
    od::json_type type;
    check(doc.type().get(type), doc);
    JsonValue out;
    switch (type) {
      case od::json_type::object: {
        od::object obj;
        check(doc.get_object().get(obj), doc);
        out = read_object(obj, doc, 1);
        break;
      }
      case od::json_type::array: {
        od::array arr;
        check(doc.get_array().get(arr), doc);
        out = read_array(arr, doc, 1);
        break;
      }
      case od::json_type::string: {
        std::string_view s;
        check(doc.get_string().get(s), doc);
        out = JsonValue(no_nul(s, doc));
        break;
      }
      case od::json_type::boolean: {
        bool b = false;
        check(doc.get_bool().get(b), doc);
        out = JsonValue(b);
        break;
      }
      case od::json_type::null: {
        bool is_null = false;
        check(doc.is_null().get(is_null), doc);
        if (!is_null) fail("invalid literal", doc);
        break;
      }
      case od::json_type::number: {
        od::number_type nt{};
        check(doc.get_number_type().get(nt), doc);
        out = read_number(doc, nt, doc);
        break;
      }
    }
    // At the end of the input current_location() reports OUT_OF_BOUNDS (simdjson 3.0.1 has no
    // document::at_end()); anything else is trailing content.
    const char* where = nullptr;
    if (doc.current_location().get(where) != simdjson::OUT_OF_BOUNDS) {
      fail(kTrailingContent, doc);
    }
    return out;
  }

 private:
  template <class Val>
  JsonValue read_number(Val& v, od::number_type nt, od::document& doc) {
    if (nt == od::number_type::signed_integer) {
      int64_t i;
      if (v.get_int64().get(i) == simdjson::SUCCESS) return JsonValue(i);
    } else if (nt == od::number_type::unsigned_integer) {
      uint64_t u;
      if (v.get_uint64().get(u) == simdjson::SUCCESS) return JsonValue(u);
    }
    double d;
    auto err = v.get_double().get(d);
    if (err)
      throw JsonSyntaxError(std::string("invalid number: ") + simdjson::error_message(err),
                            offset_of(doc));
    return JsonValue(d);
  }

  JsonValue read_value(od::value v, od::document& doc, int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than 64 levels", doc);
    od::json_type type;
    check(v.type().get(type), doc);
    switch (type) {
      case od::json_type::object: {
        od::object obj;
        check(v.get_object().get(obj), doc);
        return read_object(obj, doc, depth + 1);
      }
      case od::json_type::array: {
        od::array arr;
        check(v.get_array().get(arr), doc);
        return read_array(arr, doc, depth + 1);
      }
      case od::json_type::string: {
        std::string_view s;
        check(v.get_string().get(s), doc);
        return JsonValue(no_nul(s, doc));
      }
      case od::json_type::boolean: {
        bool b = false;
        check(v.get_bool().get(b), doc);
        return JsonValue(b);
      }
      case od::json_type::null: {
        // Not `!v.is_null()`: its conversion to bool throws simdjson_error on "nul" or "null\"".
        bool is_null = false;
        if (v.is_null().get(is_null) != simdjson::SUCCESS || !is_null) {
          fail("invalid literal", doc);
        }
        return JsonValue();
      }
      case od::json_type::number: {
        od::number_type nt{};
        check(v.get_number_type().get(nt), doc);
        return read_number(v, nt, doc);
      }
    }
    fail("unknown value type", doc);
  }

  JsonValue read_object(od::object& obj, od::document& doc, int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than 64 levels", doc);
    JsonValue out = JsonValue::object();
    for (auto field_result : obj) {
      od::field field;
      check(std::move(field_result).get(field), doc);
      std::string_view key;
      check(field.unescaped_key().get(key), doc);
      std::string key_copy(no_nul(key, doc));
      if (out.find(key_copy)) fail("duplicate key \"" + key_copy + "\"", doc);
      JsonValue value = read_value(field.value(), doc, depth);
      out.as_object().emplace_back(std::move(key_copy), std::move(value));
    }
    return out;
  }

  JsonValue read_array(od::array& arr, od::document& doc, int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than 64 levels", doc);
    JsonValue out = JsonValue::array();
    for (auto element : arr) {
      od::value v;
      check(std::move(element).get(v), doc);
      out.as_array().push_back(read_value(v, doc, depth));
    }
    return out;
  }

  uint64_t offset_of(od::document& doc) {
    const char* where = nullptr;
    if (doc.current_location().get(where) != simdjson::SUCCESS || where == nullptr) {
      return text_.size();
    }
    auto off = where - text_.data();
    if (off < 0 || static_cast<size_t>(off) > text_.size()) return text_.size();
    return static_cast<uint64_t>(off);
  }

  void check(simdjson::error_code err, od::document& doc) {
    if (err == simdjson::SUCCESS) return;
    if (err == simdjson::INCOMPLETE_ARRAY_OR_OBJECT) {
      // simdjson says this also of a whole object followed by a stray word or number
      // ("{...} garbage"): name the stray text where it starts.
      const std::string_view text(text_.data(), text_.size());
      if (const std::optional<uint64_t> stray = content_after_first_value(text)) {
        throw JsonSyntaxError(kTrailingContent, *stray);
      }
      // A document cut short is wrong where it ends (the parser's location is still its start).
      throw JsonSyntaxError(simdjson::error_message(err), text_.size());
    }
    throw JsonSyntaxError(simdjson::error_message(err), offset_of(doc));
  }
  [[noreturn]] void fail(const std::string& message, od::document& doc) {
    throw JsonSyntaxError(message, offset_of(doc));
  }
  // No string of ours may hold a NUL (\u0000): a path would be cut there by the system (another
  // file opened than the one recorded) and messages naming a key would stop at it.
  std::string_view no_nul(std::string_view s, od::document& doc) {
    if (s.find('\0') != std::string_view::npos) {
      fail("a string or key contains a NUL character (\\u0000)", doc);
    }
    return s;
  }

  const simdjson::padded_string& text_;
};

}  // namespace

namespace {

// "byte N (line L, column C)" of `offset` in `text`: lines count '\n' from 1, columns are bytes
// from 1 (what an editor's "go to line" needs; a job file is usually a few dozen lines).
std::string where_in(std::string_view text, uint64_t offset) {
  const size_t end = std::min<uint64_t>(offset, text.size());
  const std::string_view before = text.substr(0, end);
  const size_t line = 1 + static_cast<size_t>(std::count(before.begin(), before.end(), '\n'));
  const size_t last_newline = before.rfind('\n');
  const size_t column = end - (last_newline == std::string_view::npos ? 0 : last_newline + 1) + 1;
  return "byte " + std::to_string(offset) + " (line " + std::to_string(line) + ", column " +
         std::to_string(column) + ")";
}

// The syntax error `message` at `offset` in `text`, placed as every one is.
[[noreturn]] void fail_at(std::string_view text, uint64_t offset, const std::string& message) {
  throw JsonSyntaxError("invalid JSON at " + where_in(text, offset) + ": " + message, offset);
}

// simdjson finds two string errors before it parses (in iterate()) and names no position for
// them: a string still open at the end of the text (UNCLOSED_STRING) and a byte below 0x20
// inside a string (UNESCAPED_CHARS; it reports UNCLOSED_STRING first when both hold). Its rule
// for strings, followed here: a '"' opens or closes one unless an odd run of backslashes comes
// before it, wherever it is. Offsets in `text`, npos when there is none.
struct StringFaults {
  size_t unclosed_quote = std::string_view::npos;  // the opening quote of the open string
  size_t control_byte = std::string_view::npos;    // the first byte < 0x20 inside a string
  size_t control_quote = std::string_view::npos;   // the opening quote of that byte's string
};

StringFaults find_string_faults(std::string_view text) {
  constexpr size_t kNone = std::string_view::npos;
  StringFaults faults;
  size_t open = kNone;  // the opening quote of the string the scan is in
  const auto control_in_string = [&](size_t at) {
    if (open != kNone && faults.control_byte == kNone &&
        static_cast<unsigned char>(text[at]) < 0x20) {
      faults.control_byte = at;
      faults.control_quote = open;
    }
  };
  for (size_t i = 0; i < text.size(); ++i) {
    control_in_string(i);
    if (text[i] == '\\') {
      if (++i < text.size()) control_in_string(i);  // the escaped byte is in the string too
    } else if (text[i] == '"') {
      open = open == kNone ? i : kNone;
    }
  }
  faults.unclosed_quote = open;
  return faults;
}

// Where iterate()'s `err` is, and what to say there, for the errors it names no position for;
// nullopt when none can be found (the caller then keeps simdjson's own message).
std::optional<std::pair<size_t, std::string>> locate_stage1_error(std::string_view text,
                                                                  simdjson::error_code err) {
  if (err == simdjson::UTF8_ERROR) {
    // Its rule and ours are RFC 3629's: the first byte that starts no well-formed sequence.
    const size_t at = find_invalid_utf8(text);
    if (at == std::string_view::npos) return std::nullopt;
    return std::pair{at, "not UTF-8 (RFC 8259 section 8.1): byte 0x" +
                             hex_byte(static_cast<unsigned char>(text[at])) +
                             " starts no well-formed UTF-8 sequence"};
  }
  if (err != simdjson::UNCLOSED_STRING && err != simdjson::UNESCAPED_CHARS) return std::nullopt;
  const StringFaults faults = find_string_faults(text);
  const bool line_end = faults.control_byte != std::string_view::npos &&
                        (text[faults.control_byte] == '\n' || text[faults.control_byte] == '\r');
  if (line_end) {
    // Most often a closing quote left out, which pairs every later quote with the wrong one: the
    // string left open (if any) is then far below. The first string that runs over a line end
    // is where the pairing went wrong, whichever of the two errors simdjson saw first.
    return std::pair{faults.control_quote,
                     std::string("a string starts here and runs past the end of its line: is its "
                                 "closing '\"' missing? (a line end inside a string is written "
                                 "\\n, RFC 8259 section 7)")};
  }
  if (err == simdjson::UNCLOSED_STRING) {
    if (faults.unclosed_quote == std::string_view::npos) return std::nullopt;
    return std::pair{faults.unclosed_quote,
                     std::string("a string starts here and is never closed (\\\" is an escaped "
                                 "quote, not the end of a string)")};
  }
  if (faults.control_byte == std::string_view::npos) return std::nullopt;
  // The escape to write instead is json_quote's (the one rule for them), without its quotes.
  const std::string quoted = json_quote(text.substr(faults.control_byte, 1));
  return std::pair{faults.control_byte,
                   "control character (byte 0x" +
                       hex_byte(static_cast<unsigned char>(text[faults.control_byte])) +
                       ") inside a string: JSON needs it escaped (RFC 8259 section 7), as " +
                       quoted.substr(1, quoted.size() - 2)};
}

}  // namespace

JsonValue parse_json(std::string_view text) {
  // A leading UTF-8 byte-order mark (Windows editors write one) is skipped, as RFC 8259 8.1
  // allows; simdjson would reject it as "improper structure". Offsets still count it.
  const std::string_view original = text;
  const uint64_t bom = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  text.remove_prefix(bom);
  simdjson::padded_string padded(text);
  od::parser parser;
  od::document doc;
  auto err = parser.iterate(padded).get(doc);
  if (err) {
    // iterate() checks the whole text before it parses and names no position: find one for the
    // errors where that is cheap (bad UTF-8, the two string errors). An empty document (EMPTY)
    // has no place to name; it and the rest keep simdjson's message.
    if (const auto located = locate_stage1_error(text, err)) {
      fail_at(original, located->first + bom, located->second);
    }
    throw JsonSyntaxError(simdjson::error_message(err), bom);
  }
  Reader reader(padded);
  try {
    return reader.read_document(doc);
  } catch (const JsonSyntaxError& e) {
    fail_at(original, e.byte_offset() + bom, e.what());
  }
}

// ---------------------------------------------------------------------------------------------
// Writing.

namespace {

void write_double(std::string& out, double d) {
  if (!std::isfinite(d)) {
    out += "null";
    return;
  }
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), d);
  std::string_view s(buf, static_cast<size_t>(end - buf));
  out += s;
  // Keep it a real number when read back ("500.0", not "500").
  if (s.find_first_of(".eE") == std::string_view::npos) out += ".0";
}

void write(std::string& out, const JsonValue& v, int indent, int level) {
  auto newline = [&](int lvl) {
    if (indent < 0) return;
    out += '\n';
    out.append(static_cast<size_t>(indent * lvl), ' ');
  };
  switch (v.type()) {
    case JsonValue::Type::kNull:
      out += "null";
      break;
    case JsonValue::Type::kBool:
      out += v.as_bool() ? "true" : "false";
      break;
    case JsonValue::Type::kInteger:
      out += std::to_string(v.as_integer());
      break;
    case JsonValue::Type::kReal:
      write_double(out, v.as_double());
      break;
    case JsonValue::Type::kString:
      out += json_quote(v.as_string());
      break;
    case JsonValue::Type::kArray: {
      const auto& a = v.as_array();
      if (a.empty()) {
        out += "[]";
        break;
      }
      // Arrays of scalars stay on one line: [-10.0, 10.0].
      bool scalars = true;
      for (const auto& e : a) scalars = scalars && !e.is_array() && !e.is_object();
      out += '[';
      for (size_t i = 0; i < a.size(); ++i) {
        if (i) out += indent >= 0 && scalars ? ", " : ",";
        if (!scalars) newline(level + 1);
        write(out, a[i], indent, level + 1);
      }
      if (!scalars) newline(level);
      out += ']';
      break;
    }
    case JsonValue::Type::kObject: {
      const auto& o = v.as_object();
      if (o.empty()) {
        out += "{}";
        break;
      }
      out += '{';
      for (size_t i = 0; i < o.size(); ++i) {
        if (i) out += ',';
        newline(level + 1);
        out += json_quote(o[i].first);
        out += indent >= 0 ? ": " : ":";
        write(out, o[i].second, indent, level + 1);
      }
      newline(level);
      out += '}';
      break;
    }
  }
}

}  // namespace

std::string to_json(const JsonValue& value, int indent) {
  std::string out;
  write(out, value, indent, 0);
  return out;
}

}  // namespace ionflow
