// XML element scan: a strict, allocation-light tokenizer for ONE complete XML element held whole
// in memory, for the hot path of the mzML reader (an MS2 <spectrum> is a few KB of tags and
// base64 text; expat spent three quarters of the reader's time on them).
//
// Contract: scan_plain_xml_element() accepts only a plain subset of XML 1.0 (W3C XML 1.0, 5th
// ed.) that it can tokenize exactly as a non-validating parser without namespace processing
// (expat's XML_ParserCreate(nullptr)) reports it:
//   - the text is exactly one element: a start tag at byte 0, balanced start/end tags, its own
//     end tag as the last bytes (no trailing whitespace);
//   - bytes are printable ASCII or tab, LF, CR; no '&' anywhere (so no entity or character
//     references to expand), no comment, CDATA section, processing instruction or DOCTYPE
//     ("<!" or "<?"), no "]]>" in character data;
//   - names are ASCII XML names ([A-Za-z_:][A-Za-z0-9._:-]*);
//   - attributes are name, optional whitespace, '=', optional whitespace, a value in '"' or '\''
//     with no '<', tab, LF or CR (which attribute-value normalization would rewrite, XML 1.0
//     section 3.3.3), separated from each other by whitespace; no name twice in one tag.
// Anything else returns false with `scan` in an unspecified state: the caller then hands the
// same bytes to a full XML parser, which reports real errors with their positions. So this
// function never decides that input is bad, only that it is not the easy case.
//
// Output: the events a SAX parser would deliver, in order. A self-closing tag gives a start and
// an end event. Character data between tags is one kText event per run between markup
// (expat may split such a run into several calls; the concatenation is the same), except that
// line ends are NOT normalized: a CR LF or lone CR is reported as written, where a parser
// reports LF (XML 1.0 section 2.11). The mzML reader uses text only for base64, which skips
// both. Views point
// into `element`, which must outlive their use. Thread-safe (no shared state).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace ionflow {

struct XmlAttribute {
  std::string_view name;
  std::string_view value;  // as written between the quotes (nothing to expand in this subset)
};

struct XmlEvent {
  enum class Kind : uint8_t { kStart, kEnd, kText };
  Kind kind;
  std::string_view text;         // element name (kStart, kEnd) or the character data (kText)
  uint32_t first_attribute = 0;  // kStart: index into XmlElementScan::attributes
  uint32_t attribute_count = 0;  // kStart: number of attributes
};

struct XmlElementScan {
  std::vector<XmlEvent> events;
  std::vector<XmlAttribute> attributes;
  int max_depth = 0;  // deepest nesting of elements inside the scanned text (1 for a leaf)
  std::vector<std::string_view> open_elements;  // scratch: names of the open elements
};

// Tokenizes `element` into `scan` (cleared first; its capacity is reused) if it is in the plain
// subset described above; returns false otherwise.
bool scan_plain_xml_element(std::string_view element, XmlElementScan& scan);

}  // namespace ionflow
