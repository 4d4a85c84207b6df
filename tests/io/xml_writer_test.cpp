// XML text escaping: entities, control characters, and bytes that are not UTF-8.
#include "io/xml_writer.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "io/text_output.hpp"

namespace ionflow {
namespace {

std::string escaped(std::string_view text) {
  std::ostringstream stream;
  TextOutput out(stream);
  xml::put_escaped(out, text);
  out.finish();
  return stream.str();
}

TEST(XmlEscape, EntitiesAndControlCharacters) {
  EXPECT_EQ(escaped("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(escaped("x\ty\n\r\x01"), "x&#9;y&#10;&#13;?");
}

TEST(XmlEscape, WellFormedUtf8PassesThrough) {
  const std::string text = "Gen\xC3\xA8ve \xE2\x82\xAC \xF0\x90\x8D\x88";
  EXPECT_EQ(escaped(text), text);
}

// A FASTA header in Latin-1 ("Gen\xE8ve") made mzIdentML and pepXML files that XML parsers
// refuse (XML 1.0 section 4.3.3: the document is UTF-8). Each such byte becomes U+FFFD.
TEST(XmlEscape, BytesThatAreNotUtf8BecomeReplacementCharacters) {
  EXPECT_EQ(escaped("Gen\xE8ve &"), "Gen\xEF\xBF\xBDve &amp;");
  EXPECT_EQ(escaped("\xC0\xAF<"), "\xEF\xBF\xBD\xEF\xBF\xBD&lt;");
  EXPECT_EQ(escaped("cut \xE2\x82"), "cut \xEF\xBF\xBD\xEF\xBF\xBD");
}

// U+FFFE and U+FFFF are well-formed UTF-8 but no XML characters (XML 1.0 production [2]):
// expat refuses them. Each becomes one U+FFFD; U+FFFD and U+FFFC, next to them, pass.
TEST(XmlEscape, NoncharactersUFFFEAndUFFFFBecomeOneReplacementCharacterEach) {
  EXPECT_EQ(escaped("a\xEF\xBF\xBE"
                    "b\xEF\xBF\xBF<"),
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD&lt;");
  EXPECT_EQ(escaped("\xEF\xBF\xBD\xEF\xBF\xBC"), "\xEF\xBF\xBD\xEF\xBF\xBC");
}

}  // namespace
}  // namespace ionflow
