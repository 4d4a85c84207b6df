// Small helpers shared by the XML result writers (mzIdentML, pepXML): escaping of text and
// attribute values, xs:ID-safe identifiers, and xs:double formatting.
//
// Source of the rules: XML 1.0 (5th ed.) §2.2 (allowed characters) and §2.4/§3.3.3 (markup
// characters in character data and attribute values); XML Schema Part 2 §3.2.5 (xs:double
// lexical space: "NaN", "INF", "-INF") and §3.3.8 (xs:ID = NCName, no colon, starts with a
// letter or '_').
// Stateless functions; thread-safe. They never throw beyond what TextOutput throws.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "io/text_output.hpp"

namespace ionflow::xml {

// Appends `text` with & < > " ' replaced by entities. Characters not allowed in XML 1.0 (ASCII
// control characters other than tab, newline, carriage return) become '?'; tab, newline and
// carriage return become character references so attribute values keep them. Well-formed UTF-8
// passes through but for U+FFFE and U+FFFF (no XML characters), which become one U+FFFD each;
// a byte that does not start a well-formed sequence becomes U+FFFD, so the document stays
// well-formed (XML 1.0 sections 2.2 and 4.3.3) whatever a FASTA header holds.
void put_escaped(TextOutput& out, std::string_view text);

// Appends ` name="value"` with the value escaped.
void put_attribute(TextOutput& out, std::string_view name, std::string_view value);
void put_attribute(TextOutput& out, std::string_view name, int64_t value);
// xs:double / xs:float value in its shortest round-trip form (see put_double).
void put_attribute(TextOutput& out, std::string_view name, double value);
// Same, in fixed notation with `decimals` digits after the point.
void put_attribute_fixed(TextOutput& out, std::string_view name, double value, int decimals);
// Avoids the double/int64_t ambiguity for bool: writes "true" / "false".
void put_attribute_bool(TextOutput& out, std::string_view name, bool value);

// Appends an xs:double: the shortest text that reads back as `value`; NaN -> "NaN",
// +inf -> "INF", -inf -> "-INF".
void put_double(TextOutput& out, double value);

// An xs:ID built from `prefix` (must itself be a valid NCName start, e.g. "DBSeq_") and `text`:
// every character of `text` outside [A-Za-z0-9._-] becomes '_'. Uniqueness is the caller's job
// (put a running number in the prefix when texts may collide after sanitising).
std::string make_id(std::string_view prefix, std::string_view text);

}  // namespace ionflow::xml
