// UTF-8 well-formedness (RFC 3629 section 4), the one rule the JSON and XML writers share for
// text from outside (FASTA headers, file names, HTTP query values) that may not be UTF-8.
// Pure functions, thread-safe.
#pragma once

#include <cstddef>
#include <string_view>

namespace ionflow {

// U+FFFD REPLACEMENT CHARACTER (Unicode 15, section 3.9) in UTF-8: the writers put one for
// each byte that is not part of a well-formed sequence (so a cut 3-byte sequence gives two,
// where the standard's "maximal subparts" practice would give one).
inline constexpr std::string_view kUtf8ReplacementCharacter = "\xEF\xBF\xBD";

// Length (2 to 4) of the well-formed multi-byte UTF-8 sequence starting at text[at], or 0 if the
// bytes there are not one: a stray continuation byte, a cut sequence, an overlong form, a
// surrogate (U+D800..U+DFFF) or a code point above U+10FFFF. Needs at < text.size() and
// text[at] >= 0x80 (ASCII is the caller's fast path).
size_t utf8_sequence_length(std::string_view text, size_t at);

// Offset of the first byte of `text` that is not part of a well-formed UTF-8 sequence by the
// rule above (the byte an error message should name: a stray continuation byte, the lead byte
// of a cut, overlong or out-of-range sequence), or std::string_view::npos when all of `text` is
// well-formed. Needs no precondition; empty text is well-formed.
size_t find_invalid_utf8(std::string_view text);

}  // namespace ionflow
