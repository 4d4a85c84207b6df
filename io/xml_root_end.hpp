// XmlRootEnd: where an XML document's root element ended, and the one rule for bytes after it
// that are not well-formed XML: they are ignored, noted once as a data problem at that end tag.
// Also how the expat readers name where a file that ends before its root closes ends
// (file_end_where, below).
//
// Why: after the root element, expat's verdict depends on where the input was cut between
// XML_Parse calls. "<mzML></mzML>\"\n\"\xf3!x!]-</mzML>" read whole is "invalid token" on line 2
// at byte 16, but given in two calls, cut before it, "junk after document element" on line 1 at
// byte 13; a CR LF cut between two calls there counts as two line ends; and a cut can turn an
// error into an unclosed token at the end, which the readers take for a file that ends early
// (expat 2.5.0 on Debian 12, found by mzml_expat_fuzzer in CI and traced with every two-cut
// split, 2026-12-03). Inside the root element and before it, expat names the same line for every
// cut. And every spectrum of the file has been read by then: bytes appended to a complete file
// (a second file joined to it, padding from a copy) should not fail the search. So an expat
// reader that meets an error after the root element closed stops reading and notes
// kBytesAfterRootIgnored once, at root_end_where(): the same whole or in blocks.
//
// Contract: a plain value, filled from expat's end-element callback of the root (depth back to
// 0), with the file position of that end tag. Header-only; no state.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ionflow {

struct XmlRootEnd {
  bool closed = false;       // the root element's end tag was read
  uint64_t byte_offset = 0;  // in the file, of the end tag's '<' (of "<root/>" if self-closing)
  uint64_t line = 0;         // 1-based line of that byte
};

// The data problem (ReadStats::problems, counted once per file) for bytes after the root
// element that are not whitespace, comments or processing instructions (XML 1.0 section 2.1,
// production [27] Misc), or that end inside one.
inline constexpr const char* kBytesAfterRootIgnored =
    "file with bytes after its root element that are not XML, ignored (two files joined?)";

// Where that problem is: "</mzML> on line 120 (byte 5230)" for root `root_name` "mzML".
inline std::string root_end_where(const XmlRootEnd& end, std::string_view root_name) {
  return "</" + std::string(root_name) + "> on line " + std::to_string(end.line) + " (byte " +
         std::to_string(end.byte_offset) + ")";
}

// Where a file that ends before its root element closes ends, outside a spectrum: "byte 76, the
// end of the file, inside <run>" for `file_bytes` 76 (the bytes the reader was fed) and
// `innermost_open` "run" (the innermost open element the reader names; "" names none).
inline std::string file_end_where(uint64_t file_bytes, std::string_view innermost_open) {
  std::string where = "byte " + std::to_string(file_bytes) + ", the end of the file";
  if (!innermost_open.empty()) where += ", inside <" + std::string(innermost_open) + ">";
  return where;
}

}  // namespace ionflow
