// JSON text: quoting a string as a JSON string literal (RFC 8259 section 7). Shared by the
// service's JSON values and the writer's results.json, so both escape the same way.
// Pure function, thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace ionflow {

// `text` as a quoted, escaped JSON string: '"' and '\\' escaped, \n \r \t \b \f by name, other
// control characters as \u00XX. Well-formed UTF-8 passes through; each byte that does not
// start a well-formed sequence (Latin-1 text, a cut sequence, an overlong form) becomes \ufffd,
// so the result is always valid JSON (RFC 8259 section 8.1 requires UTF-8).
std::string json_quote(std::string_view text);

}  // namespace ionflow
