// Fuzz target: the mzML reader's own XML tokenizer (io/xml_element_scan.hpp) against expat.
// Contract checked: whenever scan_plain_xml_element() accepts the input, expat (no namespace
// processing) accepts it too as a whole document and reports the same events: the same start
// tags with the same attributes in the same order, the same end tags, and the same character
// data between them (the scanner's with CR LF and lone CR turned into LF, as expat reports it).
#include <expat.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "io/xml_element_scan.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

struct Events {
  std::string text;     // every event, one per line
  std::string pending;  // character data not yet written out
  int depth = 0;
  int max_depth = 0;

  void flush() {
    if (!pending.empty()) text += "text " + pending + "\n";
    pending.clear();
  }
};

std::string normalized_line_ends(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r') {
      out += '\n';
      if (i + 1 < s.size() && s[i + 1] == '\n') ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

void XMLCALL on_start(void* data, const XML_Char* name, const XML_Char** atts) {
  auto* e = static_cast<Events*>(data);
  e->flush();
  e->text += std::string("start ") + name;
  for (; atts[0] != nullptr; atts += 2) e->text += std::string(" ") + atts[0] + "=" + atts[1];
  e->text += "\n";
  e->max_depth = std::max(e->max_depth, ++e->depth);
}
void XMLCALL on_end(void* data, const XML_Char* name) {
  auto* e = static_cast<Events*>(data);
  e->flush();
  e->text += std::string("end ") + name + "\n";
  --e->depth;
}
void XMLCALL on_text(void* data, const XML_Char* s, int len) {
  static_cast<Events*>(data)->pending.append(s, static_cast<size_t>(len));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view element(reinterpret_cast<const char*>(data), size);
  ionflow::XmlElementScan scan;
  if (!ionflow::scan_plain_xml_element(element, scan)) return 0;

  Events ours;
  for (const ionflow::XmlEvent& event : scan.events) {
    switch (event.kind) {
      case ionflow::XmlEvent::Kind::kStart:
        ours.flush();
        ours.text += "start " + std::string(event.text);
        for (uint32_t a = 0; a < event.attribute_count; ++a) {
          const ionflow::XmlAttribute& att = scan.attributes[event.first_attribute + a];
          ours.text += " " + std::string(att.name) + "=" + std::string(att.value);
        }
        ours.text += "\n";
        break;
      case ionflow::XmlEvent::Kind::kEnd:
        ours.flush();
        ours.text += "end " + std::string(event.text) + "\n";
        break;
      case ionflow::XmlEvent::Kind::kText:
        ours.pending += normalized_line_ends(event.text);
        break;
    }
  }
  ours.flush();

  Events expat;
  XML_Parser parser = XML_ParserCreate(nullptr);
  XML_SetUserData(parser, &expat);
  XML_SetElementHandler(parser, on_start, on_end);
  XML_SetCharacterDataHandler(parser, on_text);
  const bool ok = XML_Parse(parser, element.data(), static_cast<int>(element.size()), XML_TRUE) ==
                  XML_STATUS_OK;
  const std::string error = ok ? "" : XML_ErrorString(XML_GetErrorCode(parser));
  XML_ParserFree(parser);
  if (!ok) ionflow::fuzz::fail("the scanner accepted what expat rejects (" + error + ")");
  expat.flush();
  ionflow::fuzz::check_equal("xml_element_scan vs expat events", ours.text, expat.text);
  if (scan.max_depth != expat.max_depth) {
    ionflow::fuzz::fail("max_depth " + std::to_string(scan.max_depth) + ", expat's " +
                        std::to_string(expat.max_depth));
  }
  return 0;
}
