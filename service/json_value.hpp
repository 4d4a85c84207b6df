// JsonValue: a small JSON tree that the job message, the HTTP API and the client share.
//
// parse_json() reads text with simdjson's ondemand API (3.0.1) into a JsonValue so that the
// job message can be checked key by key (unknown keys, wrong types, duplicate keys) and edited
// (command-line overrides) before it is interpreted. to_json() writes it back; numbers that are
// not integers are written in their shortest round-trip form (std::to_chars), so a value read,
// written and read again is unchanged.
//
// Contract: a leading UTF-8 byte-order mark (EF BB BF) is skipped (RFC 8259 section 8.1 lets a
// parser ignore it; Windows editors save one); byte offsets in errors still count it. Objects
// keep their keys in document order; a duplicate key is a syntax error.
// Integers that fit in int64 are kInteger, other numbers kReal. Values are plain copies (no
// pointers into the parser buffer). Plain value type; not synchronised.
// Errors: parse_json throws JsonSyntaxError whose what() names the byte offset, line and
// column ("invalid JSON at byte N (line L, column C): ..."), except where there is no place to
// name: an empty document ("Empty: no JSON found") and simdjson's own CAPACITY and MEMALLOC
// errors; the as_*() accessors throw std::logic_error on a type mismatch (callers check type()
// first).
#pragma once

#include "io/json_text.hpp"  // json_quote

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ionflow {

class JsonSyntaxError : public std::runtime_error {
 public:
  JsonSyntaxError(const std::string& message, uint64_t byte_offset)
      : std::runtime_error(message), byte_offset_(byte_offset) {}
  uint64_t byte_offset() const { return byte_offset_; }

 private:
  uint64_t byte_offset_;
};

class JsonValue {
 public:
  enum class Type { kNull, kBool, kInteger, kReal, kString, kArray, kObject };
  using Array = std::vector<JsonValue>;
  using Object = std::vector<std::pair<std::string, JsonValue>>;

  JsonValue() = default;  // null
  JsonValue(std::nullptr_t) {}
  JsonValue(bool b) : value_(b) {}
  JsonValue(int i) : value_(int64_t{i}) {}
  JsonValue(int64_t i) : value_(i) {}
  JsonValue(uint64_t u);  // kReal if above INT64_MAX
  JsonValue(uint32_t u) : value_(int64_t{u}) {}
  JsonValue(double d) : value_(d) {}
  JsonValue(const char* s) : value_(std::string(s)) {}
  JsonValue(std::string s) : value_(std::move(s)) {}
  JsonValue(std::string_view s) : value_(std::string(s)) {}
  JsonValue(Array a) : value_(std::move(a)) {}
  JsonValue(Object o) : value_(std::move(o)) {}
  static JsonValue object() { return JsonValue(Object{}); }
  static JsonValue array() { return JsonValue(Array{}); }

  Type type() const { return static_cast<Type>(value_.index()); }
  bool is_null() const { return type() == Type::kNull; }
  bool is_object() const { return type() == Type::kObject; }
  bool is_array() const { return type() == Type::kArray; }
  bool is_string() const { return type() == Type::kString; }
  bool is_number() const { return type() == Type::kInteger || type() == Type::kReal; }

  bool as_bool() const;
  int64_t as_integer() const;
  double as_double() const;  // kInteger or kReal
  const std::string& as_string() const;
  const Array& as_array() const;
  Array& as_array();
  const Object& as_object() const;
  Object& as_object();

  // Object member lookup; nullptr if absent (or not an object).
  const JsonValue* find(std::string_view key) const;
  JsonValue* find(std::string_view key);
  // Sets (replaces in place, or appends) an object member; turns null into an object.
  JsonValue& set(std::string_view key, JsonValue value);
  // Removes an object member; returns whether it was there.
  bool erase(std::string_view key);
  // Appends to an array; turns null into an array.
  void push_back(JsonValue value);

  bool operator==(const JsonValue& other) const { return value_ == other.value_; }

 private:
  std::variant<std::monostate, bool, int64_t, double, std::string, Array, Object> value_;
};

// "null", "boolean", "integer", "number", "string", "array", "object" (for error messages).
const char* json_type_name(JsonValue::Type type);

// Parses one JSON document (RFC 8259). Throws JsonSyntaxError naming the byte offset.
// Nesting deeper than 64 levels is rejected (a job message never needs it).
JsonValue parse_json(std::string_view text);

// Writes `value` as JSON. indent < 0: compact, one line; otherwise pretty with that many spaces.
std::string to_json(const JsonValue& value, int indent = -1);

}  // namespace ionflow
