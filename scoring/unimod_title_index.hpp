// The raw-text title index of unimod.xml (scoring/unimod.cpp's fast start): one pass over the
// file's markup finds every <umod:mod> start tag and its title attribute without an XML parser,
// so that a title look-up parses only that one element. Where the scan cannot be sure (a DOCTYPE,
// another encoding, an entity it does not know, a tag it cannot read) it stops, and the caller
// falls back to the whole-file expat parse: the index never answers differently from it.
// Internal to scoring/unimod.cpp; not a public API.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ionflow::unimod_detail {

// Bytes [begin, end) of one <umod:mod ...>...</umod:mod> element; end 0 while (or if never)
// closed.
struct ModSpan {
  size_t begin = 0;
  size_t end = 0;
};

// The title index built by a raw text scan: lower-cased decoded title -> span of the first
// <umod:mod> element with that title, in document order (the full parse's precedence). The scan
// walks the markup ('<' cannot occur in character data or attribute values), skips comments,
// CDATA sections and processing instructions, and stops at the first start tag or title it
// cannot read: later elements are left to the full parse. A DOCTYPE (which may declare entities
// or default attributes) or a declared encoding other than UTF-8/ASCII empties the index.
struct TitleIndex {
  std::unordered_map<std::string, ModSpan> spans;
  size_t start_tags = 0;  // <umod:mod> start tags seen
  // The scan read every tag to the root element's end tag, followed only by white space,
  // comments and processing instructions. False for a truncated file (and for one the scan
  // stopped early in): the constructor then parses the whole file at once.
  bool complete = false;
};

// Builds the title index of `xml` (the whole of unimod.xml). Never throws for bad input: what it
// cannot read ends the index there (complete = false).
TitleIndex scan_titles(std::string_view xml);

// `s` with ASCII letters in lower case (std::tolower in the "C" locale).
std::string lower(std::string_view s);

}  // namespace ionflow::unimod_detail
