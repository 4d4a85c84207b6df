// Byte text: bytes written as text, the one rule every reader, writer and service part follows
// for it. Hex is two lower-case digits per byte, high nibble first (0x0a -> "0a"); the caller
// adds its own framing ("\x", "0x", "\u00", none for a digest). Text from a file quoted in an
// error message or a warning keeps printable ASCII as it is and writes every other byte as \xNN,
// so a binary file (a .raw renamed .mgf, a gzip without its magic) puts no control bytes in a log
// and every reader shows a bad byte the same way.
// Pure functions, thread-safe; they throw nothing but std::bad_alloc.
#pragma once

#include <string>
#include <string_view>

namespace ionflow {

// The two lower-case hex digits of `byte`, high nibble first: 0x0a -> "0a", 0xff -> "ff".
std::string hex_byte(unsigned char byte);

// `bytes` as hex, two digits per byte in order (hex_byte's rule): "\x01\xab" -> "01ab", a
// 32-byte SHA-256 digest -> its 64-character form. Empty in, empty out.
std::string hex_bytes(std::string_view bytes);

// Whether `c` is printable ASCII: 0x20 (space) to 0x7e ('~'), both included.
bool is_printable_ascii(char c);

// `text` to quote in a message: printable ASCII as it is, every other byte (control bytes, DEL,
// every byte from 0x80, so UTF-8 text too) as a backslash, 'x' and hex_byte's two digits:
// "a\tb" -> "a\x09b" (backslash, x, 0, 9). Nothing is cut: callers quote a prefix of long text.
std::string printable_text(std::string_view text);

}  // namespace ionflow
