// scan_plain_xml_element: what it accepts gives exactly the events expat reports for the same
// text (start tags with attributes, end tags, character data joined per run), and everything
// outside its subset is refused (so the caller falls back to expat).
#include "io/xml_element_scan.hpp"

#include <expat.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ionflow {
namespace {

// Events as text, e.g. "<a x=1>", "text:abc", "</a>".
std::vector<std::string> render(const XmlElementScan& scan) {
  std::vector<std::string> out;
  for (const XmlEvent& e : scan.events) {
    if (e.kind == XmlEvent::Kind::kText) {
      if (!out.empty() && out.back().rfind("text:", 0) == 0) {
        out.back().append(e.text);
      } else {
        out.emplace_back("text:");
        out.back().append(e.text);
      }
      continue;
    }
    std::string s = e.kind == XmlEvent::Kind::kStart ? "<" : "</";
    s.append(e.text);
    for (uint32_t a = 0; a < e.attribute_count; ++a) {
      const XmlAttribute& attr = scan.attributes[e.first_attribute + a];
      s.append(" ").append(attr.name).append("=").append(attr.value);
    }
    out.push_back(s + ">");
  }
  return out;
}

struct ExpatEvents {
  std::vector<std::string> events;
  static void XMLCALL start(void* self, const XML_Char* name, const XML_Char** atts) {
    std::string s = std::string("<") + name;
    for (; atts[0] != nullptr; atts += 2) s += std::string(" ") + atts[0] + "=" + atts[1];
    static_cast<ExpatEvents*>(self)->events.push_back(s + ">");
  }
  static void XMLCALL end(void* self, const XML_Char* name) {
    static_cast<ExpatEvents*>(self)->events.push_back(std::string("</") + name + ">");
  }
  static void XMLCALL text(void* self, const XML_Char* s, int len) {
    auto& events = static_cast<ExpatEvents*>(self)->events;
    if (events.empty() || events.back().rfind("text:", 0) != 0) events.push_back("text:");
    events.back().append(s, static_cast<size_t>(len));
  }
};

std::vector<std::string> expat_events(const std::string& xml) {
  ExpatEvents sink;
  XML_Parser parser = XML_ParserCreate(nullptr);
  XML_SetUserData(parser, &sink);
  XML_SetElementHandler(parser, &ExpatEvents::start, &ExpatEvents::end);
  XML_SetCharacterDataHandler(parser, &ExpatEvents::text);
  const bool ok =
      XML_Parse(parser, xml.data(), static_cast<int>(xml.size()), XML_TRUE) == XML_STATUS_OK;
  XML_ParserFree(parser);
  EXPECT_TRUE(ok) << xml;
  return sink.events;
}

TEST(XmlElementScan, SpectrumEventsAndDepth) {
  const std::string spectrum =
      "<spectrum id=\"controllerType=0 scan=7\" defaultArrayLength=\"2\">\n"
      "  <cvParam cvRef=\"MS\" accession=\"MS:1000511\" value=\"2\"/>\n"
      "  <binaryDataArrayList count=\"1\"><binaryDataArray encodedLength=\"8\">"
      "<binary>AAAAAAAA</binary></binaryDataArray></binaryDataArrayList>\n"
      "</spectrum>";
  XmlElementScan scan;
  ASSERT_TRUE(scan_plain_xml_element(spectrum, scan));
  EXPECT_EQ(scan.max_depth, 4);
  const std::vector<std::string> events = render(scan);
  ASSERT_EQ(events.size(), 14u);
  EXPECT_EQ(events[0], "<spectrum id=controllerType=0 scan=7 defaultArrayLength=2>");
  EXPECT_EQ(events[2], "<cvParam cvRef=MS accession=MS:1000511 value=2>");
  EXPECT_EQ(events[3], "</cvParam>");
  EXPECT_EQ(events[7], "<binary>");
  EXPECT_EQ(events[8], "text:AAAAAAAA");
  EXPECT_EQ(events.back(), "</spectrum>");
  EXPECT_EQ(events, expat_events(spectrum));
}

// Legal spellings the tokenizer takes: same events as expat.
TEST(XmlElementScan, AcceptedSpellingsMatchExpat) {
  for (const std::string xml : {
           "<a/>",
           "<a />",
           "<a x='1' y = \"2\"\n\tz='\"'></a >",
           "<a x=\"v>w\"><b:c d:e=\"1\"/>text &gt; none here</a>",
           "<a>]]</a>",
           "<a>\r\n<b>x</b>y<c/></a>",
           "<_a-1.2:b x=\"\"/>",
       }) {
    SCOPED_TRACE(xml);
    XmlElementScan scan;
    if (xml.find('&') != std::string::npos) {
      EXPECT_FALSE(scan_plain_xml_element(xml, scan));
      continue;
    }
    ASSERT_TRUE(scan_plain_xml_element(xml, scan));
    std::vector<std::string> events = render(scan);
    // Line ends are reported as written (the header's one difference from a parser).
    for (std::string& e : events) {
      for (size_t cr = e.find("\r\n"); cr != std::string::npos; cr = e.find("\r\n")) e.erase(cr, 1);
    }
    EXPECT_EQ(events, expat_events(xml));
  }
  XmlElementScan scan;
  ASSERT_TRUE(scan_plain_xml_element("<a>\r\n<b/></a>", scan));
  EXPECT_EQ(render(scan)[1], "text:\r\n");
}

// Everything outside the subset is refused: bad XML (for expat to report) and legal XML that
// needs expansion or normalization.
TEST(XmlElementScan, RefusesAnythingOutsideThePlainSubset) {
  for (const std::string xml : {
           "",
           " <a/>",
           "<a/> ",
           "<a></a><b/>",
           "<a><b></a></b>",
           "<a>",
           "<a></b>",
           "<a x=\"1\"y=\"2\"/>",
           "<a x=\"1\" x=\"2\"/>",
           "<a x=1/>",
           "<a x=\"1/>",
           "<a x=\"<\"/>",
           "<a x=\"\t\"/>",
           "<a x=\"\n\"/>",
           "<a>&amp;</a>",
           "<a x=\"&#65;\"/>",
           "<a><!-- c --></a>",
           "<a><![CDATA[x]]></a>",
           "<a><?pi x?></a>",
           "<a>x]]>y</a>",
           "<1a/>",
           "< a/>",
           "<a/ >",
           "<a>\x01</a>",
           "<a>\xc3\xa9</a>",
           "<a></ a>",
       }) {
    SCOPED_TRACE(xml);
    XmlElementScan scan;
    EXPECT_FALSE(scan_plain_xml_element(xml, scan));
  }
}

}  // namespace
}  // namespace ionflow
