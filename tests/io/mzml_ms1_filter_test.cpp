// Ms1SpectrumFilter: which spectra it drops (only MS1 beyond doubt), that everything else passes
// byte for byte in any piece sizes, and the position mapping back to the file.
#include "io/mzml_ms1_filter.hpp"

#include <expat.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "io/mzml_reader.hpp"
#include "io/parse_error.hpp"
#include "io_test_support.hpp"

namespace ionflow {
namespace {

struct Collect : Ms1SpectrumFilter::Sink {
  std::string passed;
  std::vector<std::string> dropped_ids;
  void pass(std::string_view bytes) override { passed.append(bytes); }
  void dropped(std::string_view id) override { dropped_ids.emplace_back(id); }
};

std::string spectrum(const std::string& id, const std::string& level_terms,
                     const std::string& extra = "") {
  return "<spectrum id=\"" + id + "\" index=\"0\" defaultArrayLength=\"2\">\n" + level_terms +
         extra +
         "  <binaryDataArrayList count=\"1\">\n    <binaryDataArray><binary>AAAA</binary>"
         "</binaryDataArray>\n  </binaryDataArrayList>\n</spectrum>";
}

const std::string kMs1 = "  <cvParam cvRef=\"MS\" accession=\"MS:1000511\" value=\"1\"/>\n";
const std::string kMs2 = "  <cvParam cvRef=\"MS\" accession=\"MS:1000511\" value=\"2\"/>\n";

// Pushes `text` in pieces of `piece` bytes, then finishes.
void feed(Ms1SpectrumFilter& filter, Ms1SpectrumFilter::Sink& sink, const std::string& text,
          size_t piece) {
  for (size_t at = 0; at < text.size(); at += piece) {
    filter.push(std::string_view(text).substr(at, piece), sink);
  }
  filter.finish(sink);
}

Collect run(const std::string& text, size_t piece) {
  Ms1SpectrumFilter filter;
  Collect sink;
  feed(filter, sink, text, piece);
  return sink;
}

TEST(Ms1SpectrumFilter, DropsOnlyMs1SpectraInAnyPieceSize) {
  const std::string head = "<mzML><run><spectrumList count=\"5\">\n";
  const std::string ms2 = spectrum("scan=2", kMs2);
  const std::string no_level = spectrum("scan=3", "");
  const std::string with_precursor =
      spectrum("scan=4", kMs1, "  <precursorList><precursor/></precursorList>\n");
  const std::string with_group =
      spectrum("scan=5", kMs1, "  <referenceableParamGroupRef ref=\"g\"/>\n");
  const std::string two_levels = spectrum("scan=6", kMs1 + kMs2);
  const std::string entity_id = spectrum("scan=7&amp;x", kMs1);
  const std::string tail = "</spectrumList></run></mzML>\n";
  // Whitespace right after a dropped spectrum goes with it.
  const std::string text = head + spectrum("scan=1", kMs1) + "\n" + ms2 + "\n" + no_level + "\n" +
                           with_precursor + "\n" + with_group + "\n" + two_levels + "\n" +
                           entity_id + "\n" + spectrum("scan=8", kMs1) + "\n" + tail;
  const std::string kept = head + ms2 + "\n" + no_level + "\n" + with_precursor + "\n" +
                           with_group + "\n" + two_levels + "\n" + entity_id + "\n" + tail;
  for (size_t piece : {size_t{1}, size_t{2}, size_t{7}, size_t{64}, text.size()}) {
    SCOPED_TRACE(piece);
    const Collect c = run(text, piece);
    EXPECT_EQ(c.passed, kept);
    EXPECT_EQ(c.dropped_ids, (std::vector<std::string>{"scan=1", "scan=8"}));
  }
}

// Valid XML the first version got wrong (a new user's test): end tags with blanks before '>',
// comments holding "<spectrum " or "</spectrum>", a self-closing spectrum before an MS1 one.
TEST(Ms1SpectrumFilter, OddButValidXmlIsDroppedOrPassedWhole) {
  const std::string head = "<mzML><run><spectrumList count=\"3\">\n";
  const std::string tail = "</spectrumList></run></mzML>\n";
  const std::string ms2 = spectrum("scan=9", kMs2);
  std::string blank_end = spectrum("scan=1", kMs1);
  blank_end.replace(blank_end.rfind("</spectrum>"), 11, "</spectrum\n\t>");
  const std::string in_comment = "<!-- <spectrum id=\"note\"> was here -->";
  std::string end_in_comment = spectrum("scan=2", kMs1);
  end_in_comment.insert(end_in_comment.find("  <binaryDataArrayList"), "<!-- </spectrum> -->");
  const std::string self_closing = "<spectrum id=\"empty\" index=\"1\" defaultArrayLength=\"0\"/>";
  const std::string ms1 = spectrum("scan=3", kMs1);
  struct Case {
    std::string text, kept;
    std::vector<std::string> dropped;
  };
  const std::vector<Case> cases = {
      {head + blank_end + "\n" + ms2 + tail, head + ms2 + tail, {"scan=1"}},
      // The comment passes whole; the real MS1 spectrum after it is dropped.
      {head + in_comment + ms1 + "\n" + ms2 + tail, head + in_comment + ms2 + tail, {"scan=3"}},
      // A whole MS1-looking spectrum inside a comment is comment text.
      {head + "<!-- " + ms1 + " -->" + ms2 + tail, head + "<!-- " + ms1 + " -->" + ms2 + tail, {}},
      {head + "<![CDATA[" + ms1 + "]]>" + ms2 + tail,
       head + "<![CDATA[" + ms1 + "]]>" + ms2 + tail,
       {}},
      // So is one inside a processing instruction.
      {head + "<?note " + ms1 + " ?>" + ms2 + tail,
       head + "<?note " + ms1 + " ?>" + ms2 + tail,
       {}},
      {head + end_in_comment + "\n" + ms2 + tail, head + end_in_comment + "\n" + ms2 + tail, {}},
      // The self-closing (empty) spectrum passes; the MS1 spectrum after it is dropped.
      {head + self_closing + ms1 + "\n" + ms2 + tail, head + self_closing + ms2 + tail, {"scan=3"}},
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    for (size_t piece : {size_t{1}, size_t{5}, size_t{64}, cases[c].text.size()}) {
      SCOPED_TRACE(testing::Message() << "case " << c << ", pieces of " << piece);
      const Collect got = run(cases[c].text, piece);
      EXPECT_EQ(got.passed, cases[c].kept);
      EXPECT_EQ(got.dropped_ids, cases[c].dropped);
    }
  }
}

TEST(Ms1SpectrumFilter, MapsPassedPositionsBackToTheFile) {
  const std::string head = "<mzML><run><spectrumList count=\"2\">\n";
  const std::string dropped = spectrum("scan=1", kMs1);  // 5 newlines inside
  const std::string text = head + dropped + spectrum("scan=2", kMs2);
  Ms1SpectrumFilter filter;
  Collect sink;
  filter.push(text, sink);
  filter.finish(sink);
  ASSERT_EQ(sink.dropped_ids.size(), 1u);
  EXPECT_EQ(filter.file_offset(10), 10u);  // before the drop
  EXPECT_EQ(filter.file_line(10, 1), 1u);
  const uint64_t after = head.size() + 5;  // passed stream: 5 bytes into the MS2 spectrum
  EXPECT_EQ(filter.file_offset(after), after + dropped.size());
  const auto dropped_lines =
      static_cast<uint64_t>(std::count(dropped.begin(), dropped.end(), '\n'));
  EXPECT_EQ(dropped_lines, 5u);
  EXPECT_EQ(filter.file_line(after, 2), 2u + dropped_lines);
}

// A sink that takes spectra is offered every non-MS1 spectrum whole; what it refuses passes.
struct Taker : Collect {
  std::vector<std::string> offered;
  bool takes_spectra() const override { return true; }
  bool take(std::string_view element) override {
    offered.emplace_back(element);
    return element.find("scan=3") == std::string_view::npos;  // refuses scan=3
  }
};

TEST(Ms1SpectrumFilter, OffersOtherSpectraWholeAndMapsPositionsPastTakenRuns) {
  const std::string head = "<mzML><run><spectrumList count=\"4\">\n";
  const std::string s1 = spectrum("scan=1", kMs1), s2 = spectrum("scan=2", kMs2),
                    s3 = spectrum("scan=3", kMs2), s4 = spectrum("scan=4", kMs2);
  const std::string tail = "</spectrumList></run></mzML>\n";
  const std::string text = head + s1 + "\n  " + s2 + "\n" + s3 + "\n" + s4 + "\n" + tail;
  for (size_t piece : {size_t{1}, size_t{3}, size_t{64}, text.size()}) {
    SCOPED_TRACE(piece);
    Ms1SpectrumFilter filter;
    Taker sink;
    feed(filter, sink, text, piece);
    EXPECT_EQ(sink.dropped_ids, std::vector<std::string>{"scan=1"});
    EXPECT_EQ(sink.offered, (std::vector<std::string>{s2, s3, s4}));
    EXPECT_EQ(sink.passed, head + s3 + "\n" + tail);
    // Passed byte head.size() is s3's '<': s1, "\n  ", s2 and "\n" were skipped before it.
    const uint64_t skipped_before_s3 = s1.size() + 3 + s2.size() + 1;
    EXPECT_EQ(filter.file_offset(head.size()), head.size() + skipped_before_s3);
    EXPECT_EQ(filter.file_line(head.size(), 2), 2u + 5 + 1 + 5 + 1);
    // The tail comes after s4 and its newline.
    const uint64_t tail_passed = head.size() + s3.size() + 1;
    EXPECT_EQ(filter.file_offset(tail_passed), text.size() - tail.size());
  }
}

// A comment too long to hold (over 4 MiB) passes as it comes, and a spectrum in its text is
// neither offered nor dropped (a new-user test saw one searched).
TEST(Ms1SpectrumFilter, SpectraInsideAHugeCommentAreCommentText) {
  const std::string head = "<mzML><run><spectrumList count=\"1\">\n";
  const std::string tail = "</spectrumList></run></mzML>\n";
  const std::string comment = "<!-- " + std::string(5u << 20, 'x') + spectrum("scan=8", kMs2) +
                              spectrum("scan=9", kMs1) + " -->";
  const std::string s2 = spectrum("scan=2", kMs2);
  const std::string text = head + comment + s2 + tail;
  for (size_t piece : {size_t{1000}, size_t{256u << 10}, text.size()}) {
    SCOPED_TRACE(piece);
    Ms1SpectrumFilter filter;
    Taker sink;
    feed(filter, sink, text, piece);
    EXPECT_EQ(sink.offered, std::vector<std::string>{s2});
    EXPECT_TRUE(sink.dropped_ids.empty());
    EXPECT_EQ(sink.passed, head + comment + tail);
  }
}

// Lines of skipped spectra are counted as expat counts them: a lone CR ends a line too.
TEST(Ms1SpectrumFilter, CountsLoneCarriageReturnsAsLineEnds) {
  const std::string head = "<mzML><run><spectrumList count=\"2\">\r";
  std::string dropped = spectrum("scan=1", kMs1);  // 5 LFs
  for (char& c : dropped) {
    if (c == '\n') c = '\r';
  }
  Ms1SpectrumFilter filter;
  Collect sink;
  feed(filter, sink, head + dropped + spectrum("scan=2", kMs2), 7);
  ASSERT_EQ(sink.dropped_ids.size(), 1u);
  EXPECT_EQ(filter.file_line(head.size() + 5, 2), 2u + 5);
}

// A CR LF split across two pieces of the white space after a dropped spectrum is one line end
// (the MS1 fuzz target found "\r\n\r\r\n" there counted 3 times whole and 4 times in pieces).
TEST(Ms1SpectrumFilter, ACarriageReturnLineFeedSplitBetweenPiecesIsOneLineEnd) {
  const std::string head = "<mzML><run><spectrumList count=\"2\">\n";
  const std::string dropped = spectrum("scan=1", kMs1) + "\r\n\r\r\n";  // 5 LFs, then 3 ends
  const std::string text = head + dropped + spectrum("scan=2", kMs2);
  for (size_t piece : {size_t{1}, size_t{2}, size_t{3}, size_t{7}, text.size()}) {
    Ms1SpectrumFilter filter;
    Collect sink;
    feed(filter, sink, text, piece);
    ASSERT_EQ(sink.dropped_ids.size(), 1u) << piece;
    // Passed line 2 starts right after the drop: file line 2 + 5 + 3.
    EXPECT_EQ(filter.file_line(head.size() + 1, 2), 2u + 5 + 3) << "pieces of " << piece;
  }
}

TEST(Ms1SpectrumFilter, AFileEndingInsideAnMs1SpectrumPassesItForTheParserToReport) {
  const std::string text =
      "<mzML><run><spectrumList count=\"1\">\n" + spectrum("scan=1", kMs1).substr(0, 150);
  const Collect c = run(text, 16);
  EXPECT_TRUE(c.dropped_ids.empty());  // never completed
  EXPECT_EQ(c.passed, text);           // the parser sees where the file ends
}

// The BSA1 run: its 564 MS1 spectra are dropped before the XML parser, and the reader reports
// them as before; an XML error after them is placed at its true byte offset and line.
TEST(Ms1SpectrumFilter, Bsa1ReaderCountsAndErrorPositions) {
  const std::string data =
      io_testing::read_file(std::string(IONFLOW_EXAMPLES_DIR) + "/BSA/BSA1.mzML");
  {
    Ms1SpectrumFilter filter;
    Collect sink;
    filter.push(data, sink);
    filter.finish(sink);
    EXPECT_EQ(sink.dropped_ids.size(), 564u);
    EXPECT_EQ(sink.dropped_ids.front(), "spectrum=1011");
    EXPECT_LT(sink.passed.size(), data.size() / 2);  // 52% of the file's bytes are MS1 spectra
  }
  // Break the last spectrum's closing tag: the error names its real line and offset.
  const size_t bad = data.rfind("</spectrum>");
  ASSERT_NE(bad, std::string::npos);
  std::string broken = data;
  broken.replace(bad, 11, "</spectrumX>");
  // Where expat itself puts the error when it reads the whole file.
  XML_Parser xml = XML_ParserCreate(nullptr);
  ASSERT_EQ(XML_Parse(xml, broken.data(), static_cast<int>(broken.size()), XML_TRUE),
            XML_STATUS_ERROR);
  const auto line = static_cast<uint64_t>(XML_GetCurrentLineNumber(xml));
  const auto offset = static_cast<uint64_t>(XML_GetCurrentByteIndex(xml));
  XML_ParserFree(xml);
  EXPECT_GT(offset, bad);
  EXPECT_LT(offset, bad + 11);
  auto reader = make_mzml_reader("BSA1.mzML", 0);
  std::vector<RawSpectrum> out;
  try {
    reader->feed(broken, out);
    reader->finish(out);
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), line);
    EXPECT_EQ(e.byte_offset(), offset);
  }
}

}  // namespace
}  // namespace ionflow
