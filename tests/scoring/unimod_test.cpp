// Unimod: look-ups against /usr/share/openms/CHEMISTRY/unimod.xml and Mascot-style names.
#include "scoring/unimod.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "scoring/modification_spec.hpp"

namespace ionflow {
namespace {

const Unimod& unimod() {
  static const Unimod instance;  // IONFLOW_UNIMOD_XML
  return instance;
}

TEST(Unimod, LooksUpTitles) {
  // Values from unimod.org records 35, 4, 21, 1, 737, 28.
  struct Row {
    const char* title;
    double mass;
    int accession;
  };
  const Row rows[] = {{"Oxidation", 15.994915, 35},    {"Carbamidomethyl", 57.021464, 4},
                      {"Phospho", 79.966331, 21},      {"Acetyl", 42.010565, 1},
                      {"TMT6plex", 229.162932, 737},   {"Gln->pyro-Glu", -17.026549, 28},
                      {"iTRAQ4plex", 144.102063, 214}, {"Amidated", -0.984016, 2},
                      {"Deamidated", 0.984016, 7}};
  for (const auto& r : rows) {
    const auto [mass, accession] = unimod().lookup(r.title);
    EXPECT_NEAR(mass, r.mass, 1e-6) << r.title;
    EXPECT_EQ(accession, r.accession) << r.title;
  }
  EXPECT_EQ(unimod().lookup("oxidation").second, 35);  // case-insensitive
}

// choices() lists each entry's sites; their Mascot names resolve back to the same entry.
TEST(Unimod, ChoicesListSitesThatResolve) {
  const auto choices = unimod().choices();
  ASSERT_GT(choices.size(), 1000u);
  auto find = [&](const std::string& title) {
    return *std::find_if(choices.begin(), choices.end(),
                         [&](const UnimodChoice& c) { return c.title == title; });
  };
  const UnimodChoice oxidation = find("Oxidation");
  EXPECT_EQ(oxidation.accession, 35);
  EXPECT_NEAR(oxidation.mono_mass_da, 15.994915, 1e-6);
  std::vector<std::string> names;
  for (const auto& site : oxidation.sites)
    names.push_back(UnimodChoice::mascot_name("Oxidation", site));
  EXPECT_NE(std::find(names.begin(), names.end(), "Oxidation (M)"), names.end());
  const UnimodChoice acetyl = find("Acetyl");
  names.clear();
  for (const auto& site : acetyl.sites) names.push_back(UnimodChoice::mascot_name("Acetyl", site));
  EXPECT_NE(std::find(names.begin(), names.end(), "Acetyl (Protein N-term)"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "Acetyl (K)"), names.end());
  const UnimodChoice pyro = find("Gln->pyro-Glu");
  ASSERT_FALSE(pyro.sites.empty());
  EXPECT_EQ(UnimodChoice::mascot_name(pyro.title, pyro.sites[0]), "Gln->pyro-Glu (N-term Q)");
  for (const auto& c : {oxidation, acetyl, pyro}) {
    for (const auto& site : c.sites) {
      const Modification m = unimod().resolve(UnimodChoice::mascot_name(c.title, site), false);
      EXPECT_EQ(m.unimod_accession, c.accession) << UnimodChoice::mascot_name(c.title, site);
    }
  }
}

TEST(Unimod, ResolvesMascotForms) {
  auto m = unimod().resolve("Carbamidomethyl (C)", true);
  EXPECT_EQ(m.name, "Carbamidomethyl");
  EXPECT_EQ(m.unimod_accession, 4);
  EXPECT_NEAR(m.mass_delta_da, 57.021464, 1e-6);
  EXPECT_EQ(m.position, ModificationPosition::kAnywhere);
  EXPECT_EQ(m.residues, "C");
  EXPECT_TRUE(m.fixed);

  m = unimod().resolve("Oxidation (M)", false);
  EXPECT_EQ(m.unimod_accession, 35);
  EXPECT_EQ(m.residues, "M");
  EXPECT_FALSE(m.fixed);

  m = unimod().resolve("Acetyl (Protein N-term)", false);
  EXPECT_EQ(m.unimod_accession, 1);
  EXPECT_EQ(m.position, ModificationPosition::kProteinNTerm);
  EXPECT_EQ(m.residues, "");

  m = unimod().resolve("Phospho (STY)", false);
  EXPECT_EQ(m.unimod_accession, 21);
  EXPECT_EQ(m.residues, "STY");

  m = unimod().resolve("Deamidated (NQ)", false);
  EXPECT_EQ(m.unimod_accession, 7);
  EXPECT_EQ(m.residues, "NQ");

  m = unimod().resolve("Gln->pyro-Glu (N-term Q)", false);
  EXPECT_EQ(m.unimod_accession, 28);
  EXPECT_NEAR(m.mass_delta_da, -17.026549, 1e-6);
  EXPECT_EQ(m.position, ModificationPosition::kPeptideNTerm);
  EXPECT_EQ(m.residues, "Q");

  m = unimod().resolve("TMT6plex (K)", true);
  EXPECT_EQ(m.unimod_accession, 737);
  EXPECT_EQ(m.residues, "K");
  m = unimod().resolve("TMT6plex (N-term)", true);
  EXPECT_EQ(m.position, ModificationPosition::kPeptideNTerm);
  EXPECT_EQ(m.residues, "");

  m = unimod().resolve("iTRAQ4plex (K)", true);
  EXPECT_EQ(m.unimod_accession, 214);

  m = unimod().resolve("Amidated (C-term)", false);
  EXPECT_EQ(m.unimod_accession, 2);
  EXPECT_EQ(m.position, ModificationPosition::kPeptideCTerm);

  m = unimod().resolve("UNIMOD:35 (M)", false);
  EXPECT_EQ(m.name, "Oxidation");
  EXPECT_NEAR(m.mass_delta_da, 15.994915, 1e-6);

  // The name in any case; a residue letter as given, never upper-cased: "m" is no residue, which
  // the job message refuses as it refuses "B" (it was read as M without a word).
  m = unimod().resolve("oxidation (m)", false);
  EXPECT_EQ(m.unimod_accession, 35);
  EXPECT_EQ(m.residues, "m");
  m = unimod().resolve("oxidation (M)", false);
  EXPECT_EQ(m.residues, "M");
}

TEST(Unimod, ResolvesExplicitMasses) {
  auto m = unimod().resolve("+15.9949 (M)", false);
  EXPECT_EQ(m.name, "");
  EXPECT_EQ(m.unimod_accession, 0);
  EXPECT_DOUBLE_EQ(m.mass_delta_da, 15.9949);
  EXPECT_EQ(m.residues, "M");
  m = unimod().resolve("15.9949@M", false);
  EXPECT_DOUBLE_EQ(m.mass_delta_da, 15.9949);
  EXPECT_EQ(m.residues, "M");
  m = unimod().resolve("-17.0265@N-term Q", false);
  EXPECT_DOUBLE_EQ(m.mass_delta_da, -17.0265);
  EXPECT_EQ(m.position, ModificationPosition::kPeptideNTerm);
  EXPECT_EQ(m.residues, "Q");
}

TEST(Unimod, UnknownNameSuggestsCloseTitles) {
  try {
    unimod().resolve("Oxidaton (M)", false);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Oxidaton"), std::string::npos) << what;
    EXPECT_NE(what.find("did you mean: Oxidation"), std::string::npos) << what;
  }
  try {
    unimod().lookup("Carbamidomethy");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("Carbamidomethyl"), std::string::npos) << e.what();
  }
  EXPECT_THROW(unimod().resolve("Oxidation", false), std::invalid_argument);  // no site
}

// A long unknown name gets no suggestion and no quadratic search for one: job_message_fuzzer
// found that "Carbami" + 85 '_' + "domethyl (C)" cost 2.5 s under ASan, and a 20,000-character
// name 2.7 s at -O2 (edit distance against every title); titles whose length differs by more
// than the suggestion limit are now skipped. The messages are unchanged.
TEST(Unimod, LongUnknownNameHasNoSuggestion) {
  const std::string carbami = "Carbami" + std::string(85, '_') + "domethyl";
  const std::string x(20000, 'x');
  for (const std::string& name : {carbami, x}) {
    try {
      unimod().resolve(name + " (C)", true);
      FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), "unknown modification '" + name + "' in '" + name + " (C)'");
    }
  }
}

// An unclosed or unopened site is a typo the message names (it said "has no site").
TEST(Unimod, MalformedSiteSaysWhatIsMissing) {
  auto error_of = [](const char* text) {
    try {
      unimod().resolve(text, false);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of("Oxidation (M"),
            "modification 'Oxidation (M' is malformed: missing ')' after the site; write e.g. "
            "'Oxidation (M)' or '15.9949@M'");
  EXPECT_EQ(error_of("Label:13C(6) (K"),
            "modification 'Label:13C(6) (K' is malformed: missing ')' after the site; write e.g. "
            "'Oxidation (M)' or '15.9949@M'");
  EXPECT_EQ(error_of("Oxidation M)"),
            "modification 'Oxidation M)' is malformed: missing '(' before the site; write e.g. "
            "'Oxidation (M)' or '15.9949@M'");
  EXPECT_EQ(error_of("Oxidation"),
            "modification 'Oxidation' has no site; write e.g. 'Oxidation (M)' or '15.9949@M'");
  // Record 188: a title with parentheses of its own, then the site.
  EXPECT_EQ(unimod().resolve("Label:13C(6) (K)", false).unimod_accession, 188);
}

TEST(Unimod, BadSitesAndAccessions) {
  EXPECT_THROW(unimod().resolve("Oxidation (M1)", false), std::invalid_argument);  // bad site
  EXPECT_THROW(unimod().resolve("UNIMOD:999999 (M)", false), std::invalid_argument);
  EXPECT_THROW(Unimod("/nonexistent/unimod.xml"), std::runtime_error);
}

TEST(Unimod, LoadsQuickly) {
  const auto t0 = std::chrono::steady_clock::now();
  Unimod fresh;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("unimod.xml loaded in %.3f s\n", seconds);  // reported, not asserted
  EXPECT_EQ(fresh.lookup("Phospho").second, 21);
}

// A look-up's outcome as text ("mass accession" or the exception), to compare two instances.
std::string outcome(const Unimod& u, const std::string& name) {
  try {
    const auto [mass, accession] = u.lookup(name);
    char text[64];
    std::snprintf(text, sizeof text, "%.17g %d", mass, accession);
    return text;
  } catch (const std::exception& e) {
    return std::string("error: ") + e.what();
  }
}

// Writes `text` to a file of its own in the temporary directory; removed by the destructor.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& text)
      : path_((std::filesystem::temp_directory_path() /
               ("ionflow_unimod_test_" + std::to_string(::getpid()) + "_" + name))
                  .string()) {
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string read_unimod_xml() {
  std::ifstream in(IONFLOW_UNIMOD_XML, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(UnimodFastPath, EveryTitleMatchesTheFullParse) {
  const Unimod full;
  const std::vector<std::string> titles = full.titles();
  ASSERT_TRUE(full.whole_file_parsed());
  // Debian openms-common's unimod.xml has 1505 <umod:mod> elements.
  EXPECT_GE(titles.size(), 1500u);
  EXPECT_EQ(titles.front(), "Acetyl");  // record 1, the file's first element

  const Unimod fast;
  EXPECT_FALSE(fast.whole_file_parsed());
  size_t with_entities = 0;
  for (const std::string& title : titles) {
    // The full parse's titles are decoded ("Gln->pyro-Glu" is written "Gln-&gt;pyro-Glu").
    if (title.find_first_of("<>&\"'") != std::string::npos) ++with_entities;
    EXPECT_EQ(outcome(fast, title), outcome(full, title)) << title;
  }
  EXPECT_GT(with_entities, 100u);  // e.g. the ~280 "X->Y" substitutions
  // Every title was answered by its own element: the whole file was never parsed.
  EXPECT_FALSE(fast.whole_file_parsed());
}

TEST(UnimodFastPath, KnownTitlesWithoutTheFullParse) {
  // Values from unimod.org records 35, 4, 28, 21.
  const Unimod u;
  auto [mass, accession] = u.lookup("Oxidation");
  EXPECT_NEAR(mass, 15.994915, 1e-6);
  EXPECT_EQ(accession, 35);
  std::tie(mass, accession) = u.lookup("Carbamidomethyl");
  EXPECT_NEAR(mass, 57.021464, 1e-6);
  EXPECT_EQ(accession, 4);
  std::tie(mass, accession) = u.lookup("gln->PYRO-glu");
  EXPECT_NEAR(mass, -17.026549, 1e-6);
  EXPECT_EQ(accession, 28);
  std::tie(mass, accession) = u.lookup("  Phospho ");
  EXPECT_NEAR(mass, 79.966331, 1e-6);
  EXPECT_EQ(accession, 21);

  const Modification c = u.resolve("Carbamidomethyl (C)", true);
  EXPECT_EQ(c.name, "Carbamidomethyl");
  EXPECT_EQ(c.unimod_accession, 4);
  EXPECT_NEAR(c.mass_delta_da, 57.021464, 1e-6);
  EXPECT_EQ(c.residues, "C");
  const Modification q = u.resolve("Gln->pyro-Glu (N-term Q)", false);
  EXPECT_EQ(q.name, "Gln->pyro-Glu");  // decoded, as the full parse gives it
  EXPECT_EQ(q.unimod_accession, 28);
  EXPECT_FALSE(u.whole_file_parsed());
}

TEST(UnimodFastPath, FullNamesAltNamesAndAccessionsUseTheFullParse) {
  {
    const Unimod u;  // record 35's full name
    const auto [mass, accession] = u.lookup("oxidation or hydroxylation");
    EXPECT_NEAR(mass, 15.994915, 1e-6);
    EXPECT_EQ(accession, 35);
    EXPECT_TRUE(u.whole_file_parsed());
    EXPECT_EQ(u.lookup("Carbamidomethyl").second, 4);  // titles still resolve afterwards
  }
  {
    const Unimod u;  // record 4's alternative name and full name
    EXPECT_EQ(u.lookup("Carboxyamidomethylation").second, 4);
    EXPECT_EQ(u.lookup("Iodoacetamide derivative").second, 4);
  }
  {
    const Unimod u;
    const Modification m = u.resolve("UNIMOD:35 (M)", false);
    EXPECT_EQ(m.name, "Oxidation");
    EXPECT_EQ(m.unimod_accession, 35);
    EXPECT_NEAR(m.mass_delta_da, 15.994915, 1e-6);
    EXPECT_TRUE(u.whole_file_parsed());
  }
  {
    const Unimod u;  // an unknown name still gets its suggestions
    try {
      u.lookup("Phosph");
      FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("did you mean: Phospho"), std::string::npos) << e.what();
    }
  }
}

// A hand-written file: precedence (a title wins over another entry's full name; the first of
// two titles equal but for case wins), a commented-out element, a CDATA section holding a start
// tag, single quotes, a '>' and entities in a title, a self-closing element.
const char kSmallUnimod[] = R"(<?xml version="1.0" encoding="utf-8"?>
<!-- <umod:mod title="Ghost" record_id="9"><umod:delta mono_mass="9.5"/></umod:mod> -->
<umod:unimod xmlns:umod="http://www.unimod.org/xmlns/schema/unimod_2">
 <umod:modifications>
  <umod:mod title="Alpha" full_name="Beta" record_id="1"><umod:delta mono_mass="1.5"/></umod:mod>
  <umod:mod title="Beta" full_name="Gamma" record_id="2">
   <umod:delta mono_mass="2.5"/><umod:alt_name>Delta</umod:alt_name>
  </umod:mod >
  <umod:mod title="ALPHA" record_id="3"><umod:delta mono_mass="3.5"/></umod:mod>
  <umod:mod record_id='4' title='a>b &amp; &quot;c&quot; &#x3B1;&#946; &lt;d&gt;'>
   <umod:delta mono_mass='4.5'/></umod:mod>
  <umod:mod title="Ghost" record_id="10"><![CDATA[<umod:mod title="Epsilon" record_id="11">]]>
   <umod:delta mono_mass="10.5"/></umod:mod>
  <umod:mod title="Empty" record_id="12"/>
 </umod:modifications>
</umod:unimod>
)";

TEST(UnimodFastPath, RawScanKeepsTheFullParsePrecedence) {
  const TempFile file("small.xml", kSmallUnimod);
  const Unimod fast(file.path());
  EXPECT_EQ(outcome(fast, "beta"), "2.5 2");  // title, not record 1's full name
  EXPECT_EQ(outcome(fast, "alpha"), "1.5 1");
  EXPECT_EQ(outcome(fast, "Ghost"), "10.5 10");
  EXPECT_EQ(outcome(fast, "A>B & \"C\" \xCE\xB1\xCE\xB2 <D>"), "4.5 4");
  EXPECT_EQ(outcome(fast, "empty"), "0 12");
  EXPECT_FALSE(fast.whole_file_parsed());
  EXPECT_EQ(outcome(fast, "Gamma"), "2.5 2");  // full name
  EXPECT_TRUE(fast.whole_file_parsed());
  EXPECT_EQ(outcome(fast, "delta"), "2.5 2");                   // alternative name
  EXPECT_THROW(fast.lookup("Epsilon"), std::invalid_argument);  // a start tag in CDATA is text
}

// A damaged mono_mass is an error naming the file and the modification, never 0 Da (strtod's
// answer to "abc"); the other entries stay usable.
TEST(UnimodFastPath, DamagedMassIsAnErrorNotZero) {
  std::string text = read_unimod_xml();
  const std::string oxidation = "title=\"Oxidation\"";
  const size_t at = text.find("mono_mass=\"", text.find("<umod:delta", text.find(oxidation)));
  ASSERT_NE(at, std::string::npos);
  const size_t end = text.find('"', at + 11);
  text.replace(at + 11, end - (at + 11), "15.99abc");
  const TempFile file("damaged_mass.xml", text);
  for (bool whole : {false, true}) {
    const Unimod unimod(file.path());
    if (whole) unimod.parse_whole_file();
    try {
      unimod.resolve("Oxidation (M)", false);
      FAIL() << "no error";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(file.path()), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("'Oxidation': mono_mass '15.99abc' is not a number"),
                std::string::npos)
          << e.what();
    }
    EXPECT_NEAR(unimod.lookup("Carbamidomethyl").first, 57.021464, 1e-6);
  }
  EXPECT_THROW(Unimod("/nonexistent/unimod.xml"), std::runtime_error);
}

// The "line L, byte B" expat reports for a token that starts at byte `offset` of `text`.
std::string line_and_byte(const std::string& text, size_t offset) {
  const auto newlines = std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n');
  return "line " + std::to_string(newlines + 1) + ", byte " + std::to_string(offset);
}

// A truncated unimod.xml fails to load: the titles read before the cut must not resolve (a new
// user's test found "Acetyl" answered from a file cut inside Oxidation).
TEST(UnimodFastPath, TruncatedFileFailsToLoad) {
  const std::string xml = read_unimod_xml();
  const size_t oxidation = xml.find("<umod:mod title=\"Oxidation\"");
  ASSERT_NE(oxidation, std::string::npos);
  // Cut inside Oxidation's start tag: expat names the tag's '<' as an unclosed token.
  const TempFile in_tag("truncated_in_tag.xml", xml.substr(0, oxidation + 10));
  try {
    const Unimod u(in_tag.path());
    FAIL() << "loaded; Acetyl -> " << outcome(u, "Acetyl");
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "Unimod file '" + in_tag.path() + "': XML error at " +
                                         line_and_byte(xml, oxidation) + ": unclosed token");
  }
  // Debian openms-common's unimod.xml: Oxidation starts at line 1513, byte 71829.
  EXPECT_EQ(line_and_byte(xml, oxidation), "line 1513, byte 71829");

  // Cut just after a complete </umod:mod>: the root element is left open ("no element found"
  // at the end of the file).
  const size_t after_end = xml.find("</umod:mod>", oxidation) + 11;
  const TempFile at_element_end("truncated_at_end_tag.xml", xml.substr(0, after_end));
  try {
    const Unimod u(at_element_end.path());
    FAIL() << "loaded; Oxidation -> " << outcome(u, "Oxidation");
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "Unimod file '" + at_element_end.path() + "': XML error at " +
                                         line_and_byte(xml, after_end) + ": no element found");
  }

  // Cut inside the root element's end tag, the file's last bytes.
  const size_t root_end = xml.rfind("</umod:unimod>");
  ASSERT_NE(root_end, std::string::npos);
  const TempFile in_root_end("truncated_in_root_end.xml", xml.substr(0, root_end + 8));
  EXPECT_THROW(Unimod{in_root_end.path()}, std::runtime_error);
  // The whole file still loads lazily, and so does one with comments after the root element.
  const TempFile whole("whole_with_comment.xml", xml + "<!-- end -->\n<?pi x?>\n");
  const Unimod u(whole.path());
  EXPECT_EQ(u.lookup("Oxidation").second, 35);
  EXPECT_FALSE(u.whole_file_parsed());
}

TEST(UnimodFastPath, MalformedFileErrorsComeFromTheFullParse) {
  // An element that does not parse alone falls back to the full parse and its error.
  const TempFile bad("bad.xml",
                     "<umod:unimod><umod:mod title=\"Bad\" record_id=\"7\">"
                     "<umod:delta mono_mass=\"1.5\"></umod:mod></umod:unimod>");
  const Unimod b(bad.path());
  try {
    b.lookup("Bad");
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    // Byte 79: expat points at the name of the end tag "</umod:mod>" that starts at byte 77.
    EXPECT_NE(std::string(e.what()).find("XML error at line 1, byte 79: mismatched tag"),
              std::string::npos)
        << e.what();
  }

  // Without any <umod:mod>, the constructor still reports the file.
  const TempFile none("none.xml", "<umod:unimod><umod:modifications/></umod:unimod>");
  try {
    Unimod n(none.path());
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("has no <umod:mod> entries"), std::string::npos)
        << e.what();
  }
  const TempFile broken("broken.xml", "<umod:unimod><umod:modifications>");
  EXPECT_THROW(Unimod{broken.path()}, std::runtime_error);
}

TEST(UnimodFastPath, ConcurrentLookUpsAgree) {
  // Four threads race on the fast path and on the one lazy full parse (an alternative name).
  const Unimod reference;
  const std::vector<std::string> names = {"Carbamidomethyl", "Carboxyamidomethylation", "Oxidation",
                                          "Phosph"};  // the last: unknown
  std::string expected;
  for (const auto& name : names) expected += outcome(reference, name) + " | ";
  const Unimod u;
  std::vector<std::string> results(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < results.size(); ++t) {
    threads.emplace_back([&u, &names, &results, t] {
      for (const auto& name : names) results[t] += outcome(u, name) + " | ";
    });
  }
  for (auto& thread : threads) thread.join();
  for (const auto& r : results) EXPECT_EQ(r, expected);
  EXPECT_NE(expected.find(" 4 | "), std::string::npos) << expected;  // Carbamidomethyl, record 4
  EXPECT_NEAR(u.lookup("Carboxyamidomethylation").first, 57.021464, 1e-6);
}

TEST(ModificationFromSage, Keys) {
  auto m = modification_from_sage("C", 57.021464, true);
  EXPECT_EQ(m.position, ModificationPosition::kAnywhere);
  EXPECT_EQ(m.residues, "C");
  EXPECT_TRUE(m.fixed);
  EXPECT_EQ(m.unimod_accession, 0);
  m = modification_from_sage("^", 229.162932, true);
  EXPECT_EQ(m.position, ModificationPosition::kPeptideNTerm);
  EXPECT_EQ(m.residues, "");
  m = modification_from_sage("^Q", -17.026549, false);
  EXPECT_EQ(m.position, ModificationPosition::kPeptideNTerm);
  EXPECT_EQ(m.residues, "Q");
  m = modification_from_sage("$", -0.984016, false);
  EXPECT_EQ(m.position, ModificationPosition::kPeptideCTerm);
  m = modification_from_sage("[", 42.010565, false);
  EXPECT_EQ(m.position, ModificationPosition::kProteinNTerm);
  m = modification_from_sage("]", 1.0, false);
  EXPECT_EQ(m.position, ModificationPosition::kProteinCTerm);
  EXPECT_THROW(modification_from_sage("", 1.0, false), std::invalid_argument);
  EXPECT_THROW(modification_from_sage("^1", 1.0, false), std::invalid_argument);
  EXPECT_THROW(modification_from_sage("M", std::nan(""), false), std::invalid_argument);
  // A residue twice (a new user's "CC") is named as such, not later as two fixed modifications
  // on one site; several different residues stay one modification on each.
  try {
    modification_from_sage("CC", 57.02, true);
    FAIL() << "expected invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "modification key 'CC': residue 'C' repeated");
  }
  EXPECT_EQ(modification_from_sage("STY", 79.966331, false).residues, "STY");
  // Letters as given: "c" is no residue (the job message refuses it), not C.
  EXPECT_EQ(modification_from_sage("c", 57.02, true).residues, "c");
  EXPECT_EQ(modification_from_sage("Cc", 57.02, true).residues, "Cc");
  EXPECT_EQ(modification_from_sage("^q", -17.03, false).residues, "q");
}

}  // namespace
}  // namespace ionflow

namespace ionflow {
namespace {

// A modification as Sage's static_mods / variable_mods give it (no name, accession 0).
Modification by_mass(std::string_view key, double mass_da, bool fixed = false) {
  return modification_from_sage(key, mass_da, fixed);
}

TEST(UnimodByMass, NamesTheOneEntryAtTheSiteAndMass) {
  // Expected titles and record ids from unimod.xml (records 4, 35, 1, 28, 21, 7, 34, 730, 2016).
  struct Row {
    const char* key;
    double mass_da;
    const char* title;
    int accession;
  };
  const Row rows[] = {
      {"C", 57.021464, "Carbamidomethyl", 4},  // Sage's default static mod, exact
      {"M", 15.9949, "Oxidation", 35},         // 4 decimals: 1.5e-5 Da from 15.994915
      {"M", 15.995, "Oxidation", 35},          // 3 decimals: 8.5e-5 Da off
      {"[", 42.010565, "Acetyl", 1},           // protein N-term, Unimod "Protein N-term"
      {"^", 42.0106, "Acetyl", 1},             // peptide N-term, Unimod "Any N-term"
      {"^Q", -17.026549, "Gln->pyro-Glu", 28},
      {"STY", 79.966331, "Phospho", 21},    // one entry lists all three sites
      {"N", 0.984016, "Deamidated", 7},     // visible; Asn->Asp (621) lists N hidden only
      {"K", 14.01565, "Methyl", 34},        // the one entry, K hidden
      {"K", 304.20536, "iTRAQ8plex", 730},  // 0.001786 Da from TMTpro: still told apart
      {"K", 304.207146, "TMTpro", 2016},
      {"C", 57.0219, "Carbamidomethyl", 4},  // 0.000436 Da off: inside 0.0005 Da
  };
  for (const Row& r : rows) {
    const Modification given = by_mass(r.key, r.mass_da, true);
    const Modification named = unimod().named_by_mass(given);
    EXPECT_EQ(named.name, r.title) << r.key << " " << r.mass_da;
    EXPECT_EQ(named.unimod_accession, r.accession) << r.key << " " << r.mass_da;
    // The search keeps the user's mass and sites.
    EXPECT_EQ(named.mass_delta_da, r.mass_da);
    EXPECT_EQ(named.position, given.position);
    EXPECT_EQ(named.residues, given.residues);
    EXPECT_TRUE(named.fixed);
  }
}

TEST(UnimodByMass, AmbiguousOrUnmatchedMassesStayMasses) {
  // Three entries share 28.0313 Da on K (all hidden there): no name is better than a guess.
  const std::vector<UnimodMatch> dimethyl = unimod().matches_by_mass(by_mass("K", 28.0313));
  std::vector<std::string> titles;
  for (const UnimodMatch& m : dimethyl) titles.push_back(m.title);
  EXPECT_EQ(titles, (std::vector<std::string>{"Dimethyl", "Delta:H(4)C(2)", "Ethyl"}));
  EXPECT_EQ(unimod().named_by_mass(by_mass("K", 28.0313)).unimod_accession, 0);
  // Carbamidomethyl and Gly both list K hidden at 57.021464 Da.
  EXPECT_EQ(unimod().matches_by_mass(by_mass("K", 57.021464)).size(), 2u);
  EXPECT_EQ(unimod().named_by_mass(by_mass("K", 57.021464)).name, "");
  // On C and K together only Carbamidomethyl lists both sites (C visible, K hidden).
  EXPECT_EQ(unimod().named_by_mass(by_mass("CK", 57.021464)).unimod_accession, 4);
  // Outside the tolerance (0.000536 Da off), at a site Unimod does not list, or no entry.
  EXPECT_EQ(unimod().named_by_mass(by_mass("C", 57.0220)).unimod_accession, 0);
  EXPECT_EQ(unimod().named_by_mass(by_mass("L", 79.966331)).unimod_accession, 0);  // Phospho
  EXPECT_EQ(unimod().named_by_mass(by_mass("$", 42.010565)).unimod_accession, 0);
  const Modification none = unimod().named_by_mass(by_mass("C", 123.4567));
  EXPECT_EQ(none.name, "");
  EXPECT_EQ(none.unimod_accession, 0);
  EXPECT_EQ(none.mass_delta_da, 123.4567);
  // A wider tolerance is the caller's choice: 57.0220 is Carbamidomethyl within 0.001 Da.
  EXPECT_EQ(unimod().named_by_mass(by_mass("C", 57.0220), 0.001).unimod_accession, 4);
}

TEST(UnimodByMass, KeepsWhatTheUserNamed) {
  Modification named = unimod().resolve("Carbamidomethyl (C)", true);
  named.name = "my label";
  EXPECT_EQ(unimod().named_by_mass(named).name, "my label");
  Modification accession_only = by_mass("M", 15.9949);
  accession_only.unimod_accession = 35;
  EXPECT_EQ(unimod().named_by_mass(accession_only).name, "");
  // The explicit-mass forms resolve to masses; named_by_mass names them.
  EXPECT_EQ(unimod().named_by_mass(unimod().resolve("+15.9949 (M)", false)).name, "Oxidation");
  EXPECT_EQ(unimod().named_by_mass(unimod().resolve("-17.0265@N-term Q", false)).unimod_accession,
            28);
}

}  // namespace
}  // namespace ionflow
