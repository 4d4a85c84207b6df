// mzIdentML 1.1.0: schema validity (xmllint against the PSI XSD shipped by openms-common), id /
// reference integrity, modification locations, masses and Unimod terms, per-PSM attributes, and
// a read-back by OpenMS (IDFileConverter + FileInfo from Debian's `topp`). The interop tests fail
// (never skip) when the tools are missing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "io/result_writer.hpp"
#include "result_fixture.hpp"

namespace ionflow {
namespace {

using result_testing::attribute_values;
using result_testing::fixture_context;
using result_testing::fixture_parameters;
using result_testing::fixture_psms;
using result_testing::read_idxml_hits;
using result_testing::read_text;
using result_testing::run_command;
using result_testing::ScratchDir;

// The fixture's PSMs written as mzIdentML 1.1.0 or 1.2.0 to <scratch>/results.mzid.
class MzIdentMlFixture : public ::testing::Test {
 protected:
  explicit MzIdentMlFixture(bool v1_2)
      : dir_(v1_2 ? "mzid12" : "mzid"),
        params_(fixture_parameters()),
        context_(fixture_context(&params_, dir_)) {
    path_ = dir_.file("results.mzid");
    std::ofstream out(path_);
    if (v1_2) {
      write_mzidentml_1_2(out, fixture_psms(), context_);
    } else {
      write_mzidentml(out, fixture_psms(), context_);
    }
    out.close();
    xml_ = read_text(path_);
  }

  ScratchDir dir_;
  SearchParameters params_;
  ResultContext context_;
  std::string path_;
  std::string xml_;
};

class MzIdentMlWriterTest : public MzIdentMlFixture {
 protected:
  MzIdentMlWriterTest() : MzIdentMlFixture(false) {}
};

TEST_F(MzIdentMlWriterTest, ValidatesAgainstThePsiXsd) {
  const auto result = result_testing::validate_xml(path_, "mzIdentML1.1.0.xsd");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(xml_.find("version=\"1.1.0\""), std::string::npos);
  EXPECT_NE(xml_.find("xmlns=\"http://psidev.info/psi/pi/mzIdentML/1.1\""), std::string::npos);
}

TEST_F(MzIdentMlWriterTest, IdsAreUniqueNcNamesAndEveryReferenceResolves) {
  std::set<std::string> ids;
  const std::regex id_attribute(R"( id="([^"]*)\")");
  const std::regex nc_name(R"([A-Za-z_][A-Za-z0-9._-]*)");
  for (std::sregex_iterator it(xml_.begin(), xml_.end(), id_attribute), end; it != end; ++it) {
    const std::string id = (*it)[1];
    EXPECT_TRUE(std::regex_match(id, nc_name)) << id;
    EXPECT_TRUE(ids.insert(id).second) << "duplicate id " << id;
  }
  const std::regex ref_attribute(R"(_ref="([^"]*)\")");
  int references = 0;
  for (std::sregex_iterator it(xml_.begin(), xml_.end(), ref_attribute), end; it != end; ++it) {
    EXPECT_TRUE(ids.count((*it)[1])) << "dangling reference " << (*it)[1];
    ++references;
  }
  EXPECT_GT(references, 30);
  // Three proteins (two targets, one decoy), six distinct peptides, seven evidences.
  EXPECT_EQ(attribute_values(xml_, "DBSequence", "accession"),
            (std::vector<std::string>{"sp|P02769|ALBU_BOVIN", "rev_sp|P02769|ALBU_BOVIN",
                                      "sp|P12763|FETUA_BOVIN"}));
  EXPECT_EQ(attribute_values(xml_, "Peptide", "id").size(), 6u);
  EXPECT_EQ(
      attribute_values(xml_, "PeptideEvidence", "isDecoy"),
      (std::vector<std::string>{"false", "true", "false", "false", "false", "false", "true"}));
  // LVNELTEFAK is residues 66-75 of the albumin precursor, after K and before D.
  EXPECT_EQ(attribute_values(xml_, "PeptideEvidence", "start")[0], "66");
  EXPECT_EQ(attribute_values(xml_, "PeptideEvidence", "end")[0], "75");
  EXPECT_EQ(attribute_values(xml_, "PeptideEvidence", "pre")[4], "-");  // protein N-terminus
}

TEST_F(MzIdentMlWriterTest, ModificationsHaveLocationMassResidueAndUnimodTerm) {
  // Location 0 = N-terminus, 1..n residues (spec §6.42); in peptide order:
  // YIC[CAM], [Ac]-M[Ox]..., M[Ox]PC[CAM]..., SSITDQNDC[CAM]IYK.
  EXPECT_EQ(attribute_values(xml_, "Modification", "location"),
            (std::vector<std::string>{"3", "0", "1", "1", "3", "9"}));
  EXPECT_EQ(attribute_values(xml_, "Modification", "monoisotopicMassDelta"),
            (std::vector<std::string>{"57.021464", "42.010565", "15.994915", "15.994915",
                                      "57.021464", "57.021464"}));
  EXPECT_EQ(attribute_values(xml_, "Modification", "residues"),
            (std::vector<std::string>{"C", "<missing>", "M", "M", "C", "C"}));
  std::vector<std::string> unimod;
  for (std::size_t at = xml_.find("<Modification "); at != std::string::npos;
       at = xml_.find("<Modification ", at + 1)) {
    const std::size_t cv = xml_.find("<cvParam ", at);
    const std::string tag = xml_.substr(cv, xml_.find('>', cv) - cv);
    EXPECT_NE(tag.find("cvRef=\"UNIMOD\""), std::string::npos) << tag;
    unimod.push_back(result_testing::attribute(tag, "accession") + " " +
                     result_testing::attribute(tag, "name"));
  }
  EXPECT_EQ(unimod,
            (std::vector<std::string>{"UNIMOD:4 Carbamidomethyl", "UNIMOD:1 Acetyl",
                                      "UNIMOD:35 Oxidation", "UNIMOD:35 Oxidation",
                                      "UNIMOD:4 Carbamidomethyl", "UNIMOD:4 Carbamidomethyl"}));
  // Searched modifications: fixed CAM on C, variable Ox on M, variable protein N-term Acetyl.
  EXPECT_EQ(attribute_values(xml_, "SearchModification", "fixedMod"),
            (std::vector<std::string>{"true", "false", "false"}));
  EXPECT_EQ(attribute_values(xml_, "SearchModification", "residues"),
            (std::vector<std::string>{"C", "M", "."}));
  EXPECT_NE(xml_.find("accession=\"MS:1002057\" name=\"modification specificity protein N-term\""),
            std::string::npos);
}

TEST_F(MzIdentMlWriterTest, ProtocolNamesEnzymeTolerancesAndDecoyRule) {
  EXPECT_NE(xml_.find("accession=\"MS:1001083\" name=\"ms-ms search\""), std::string::npos);
  EXPECT_NE(xml_.find("accession=\"MS:1001251\" name=\"Trypsin\""), std::string::npos);
  EXPECT_NE(xml_.find("<SiteRegexp><![CDATA[(?<=[KR])(?!P)]]></SiteRegexp>"), std::string::npos);
  EXPECT_EQ(attribute_values(xml_, "Enzyme", "missedCleavages"), std::vector<std::string>{"1"});
  EXPECT_NE(xml_.find("accession=\"MS:1001412\" name=\"search tolerance plus value\" value=\"0.5\" "
                      "unitCvRef=\"UO\" unitAccession=\"UO:0000221\" unitName=\"dalton\""),
            std::string::npos);
  EXPECT_NE(xml_.find("accession=\"MS:1001413\" name=\"search tolerance minus value\" value=\"10\" "
                      "unitCvRef=\"UO\" unitAccession=\"UO:0000169\" unitName=\"parts per "
                      "million\""),
            std::string::npos);
  EXPECT_NE(
      xml_.find("accession=\"MS:1001283\" name=\"decoy DB accession regexp\" value=\"^rev_\""),
      std::string::npos);
  // mzML with Thermo ids; MGF with index=N ids.
  EXPECT_NE(xml_.find("accession=\"MS:1000768\" name=\"Thermo nativeID format\""),
            std::string::npos);
  EXPECT_NE(xml_.find("accession=\"MS:1001062\" name=\"Mascot MGF format\""), std::string::npos);
  EXPECT_NE(xml_.find("accession=\"MS:1000774\" name=\"multiple peak list nativeID format\""),
            std::string::npos);
}

TEST_F(MzIdentMlWriterTest, OneResultPerSpectrumOneItemPerPsm) {
  EXPECT_EQ(attribute_values(xml_, "SpectrumIdentificationResult", "spectrumID"),
            (std::vector<std::string>{"controllerType=0 controllerNumber=1 scan=2",
                                      "controllerType=0 controllerNumber=1 scan=7", "index=0",
                                      "index=3", "index=4"}));
  EXPECT_EQ(attribute_values(xml_, "SpectrumIdentificationItem", "rank"),
            (std::vector<std::string>{"1", "2", "1", "1", "1", "1"}));
  EXPECT_EQ(attribute_values(xml_, "SpectrumIdentificationItem", "chargeState"),
            (std::vector<std::string>{"2", "2", "2", "3", "2", "2"}));
  // passThreshold = spectrum q-value <= 0.01.
  EXPECT_EQ(attribute_values(xml_, "SpectrumIdentificationItem", "passThreshold"),
            (std::vector<std::string>{"true", "false", "true", "true", "true", "false"}));
  const auto calculated =
      attribute_values(xml_, "SpectrumIdentificationItem", "calculatedMassToCharge");
  EXPECT_NEAR(std::stod(calculated[0]), 582.318971, 1e-6);  // LVNELTEFAK 2+
  EXPECT_NEAR(std::stod(calculated[3]), 774.085181, 1e-6);  // Ac-M(ox)KWV... 3+
  EXPECT_NE(xml_.find("accession=\"MS:1001331\" name=\"X!Tandem:hyperscore\" value=\"38.5\""),
            std::string::npos);
  EXPECT_NE(xml_.find("accession=\"MS:1001330\" name=\"X!Tandem:expect\" value=\"3.2e-07\""),
            std::string::npos);
  EXPECT_NE(xml_.find("accession=\"MS:1000894\" name=\"retention time\" value=\"61.2\" "
                      "unitCvRef=\"UO\" unitAccession=\"UO:0000010\" unitName=\"second\""),
            std::string::npos);
  // The MGF title is escaped.
  EXPECT_NE(xml_.find("value=\"title with &lt;&amp;&gt; &quot;quotes&quot;\""), std::string::npos);
  // One protein group per protein with target PSMs (albumin, fetuin), not for the decoy.
  EXPECT_EQ(attribute_values(xml_, "ProteinDetectionHypothesis", "dBSequence_ref").size(), 2u);
}

TEST_F(MzIdentMlWriterTest, OpenMsReadsBackEveryPsmWithItsScores) {
  const std::string idxml = dir_.file("results.idXML");
  const auto convert = run_command("IDFileConverter -in '" + path_ + "' -out '" + idxml + "'");
  ASSERT_EQ(convert.exit_code, 0) << convert.output;
  const auto hits = read_idxml_hits(read_text(idxml));
  ASSERT_EQ(hits.size(), 6u);
  std::map<std::string, result_testing::OpenMsHit> by_sequence;
  for (const auto& hit : hits) by_sequence[hit.sequence] = hit;
  const auto psms = fixture_psms();
  const std::vector<std::string> openms_sequences = {"LVNELTEFAK",
                                                     "AFETLENVLK",
                                                     "YIC(Carbamidomethyl)DNQDTISSK",
                                                     ".(Acetyl)M(Oxidation)KWVTFISLLLLFSSAYSR",
                                                     "M(Oxidation)PC(Carbamidomethyl)TEDYLSLILNR",
                                                     "SSITDQNDC(Carbamidomethyl)IYK"};
  for (std::size_t i = 0; i < psms.size(); ++i) {
    SCOPED_TRACE(openms_sequences[i]);
    ASSERT_TRUE(by_sequence.count(openms_sequences[i]));
    const auto& hit = by_sequence[openms_sequences[i]];
    EXPECT_EQ(hit.charge, psms[i].charge);
    EXPECT_DOUBLE_EQ(hit.score, psms[i].evalue);  // OpenMS takes X!Tandem:expect as the score
    EXPECT_DOUBLE_EQ(std::stod(hit.user_params.at("MS:1001331")), psms[i].hyperscore);
    EXPECT_DOUBLE_EQ(std::stod(hit.user_params.at("MS:1002354")), psms[i].spectrum_q);
    EXPECT_NEAR(hit.rt_seconds, psms[i].rt_seconds, 1e-9);
    EXPECT_EQ(hit.user_params.at("target_decoy"), psms[i].decoy ? "decoy" : "target");
  }
  const auto info = run_command("FileInfo -in '" + idxml + "'");
  ASSERT_EQ(info.exit_code, 0) << info.output;
  EXPECT_NE(info.output.find("peptide hits:               6"), std::string::npos) << info.output;
  EXPECT_NE(info.output.find("matched spectra:    5"), std::string::npos) << info.output;
  EXPECT_NE(
      info.output.find(
          "Modification count (top-hits only): Acetyl 1, Carbamidomethyl (C) 3, Oxidation (M) 2"),
      std::string::npos)
      << info.output;
}

// Term names by accession from an OBO file ("id: MS:1002490" / "name: peptide-level scoring").
std::map<std::string, std::string> obo_names(const std::string& path) {
  std::map<std::string, std::string> names;
  std::istringstream in(read_text(path));
  std::string line;
  std::string id;
  while (std::getline(in, line)) {
    if (line.rfind("id: ", 0) == 0) id = line.substr(4);
    if (line.rfind("name: ", 0) == 0 && !id.empty()) {
      std::string name;  // OBO escapes '!' and other specials with a backslash
      for (std::size_t i = 6; i < line.size(); ++i) {
        if (line[i] == '\\' && i + 1 < line.size()) ++i;
        name += line[i];
      }
      names.emplace(id, name);
    }
    if (line.empty()) id.clear();
  }
  return names;
}

// Every cvParam's accession is a term of its CV (psi-ms.obo or unimod.obo as
// openms-common ships them) under the name it carries; returns the mismatches.
std::vector<std::string> cv_term_errors(const std::string& xml) {
  static const auto ms = obo_names("/usr/share/openms/CV/psi-ms.obo");
  static const auto unimod = obo_names("/usr/share/openms/CV/unimod.obo");
  std::vector<std::string> errors;
  const auto refs = attribute_values(xml, "cvParam", "cvRef");
  const auto accessions = attribute_values(xml, "cvParam", "accession");
  const auto names = attribute_values(xml, "cvParam", "name");
  for (std::size_t i = 0; i < accessions.size(); ++i) {
    const auto& terms = refs[i] == "UNIMOD" ? unimod : ms;
    const auto it = terms.find(accessions[i]);
    if (it == terms.end() || it->second != names[i]) {
      errors.push_back(accessions[i] + " \"" + names[i] + "\"");
    }
  }
  return errors;
}

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

// The text of each <element ...>...</element> (not nested in itself), in document order.
std::vector<std::string> elements(const std::string& xml, const std::string& element) {
  std::vector<std::string> out;
  const std::string open = "<" + element + " ";
  const std::string close = "</" + element + ">";
  for (std::size_t at = xml.find(open); at != std::string::npos; at = xml.find(open, at + 1)) {
    out.push_back(xml.substr(at, xml.find(close, at) - at));
  }
  return out;
}

TEST_F(MzIdentMlWriterTest, EveryCvTermIsInItsCvWithItsName) {
  EXPECT_EQ(cv_term_errors(xml_), std::vector<std::string>{});
  EXPECT_GT(attribute_values(xml_, "cvParam", "accession").size(), 60u);
}

// mzIdentML 1.2.0: the 1.2 namespace and version, the schema and the CV rules its specification
// adds (sections 4.3, 5.2.1, 5.2.6). Debian ships no mzIdentML1.2.0.xsd; the 1.2 schema differs
// from 1.1.0 only in the namespace, the version pattern (1\.2\.\d+), a spectrumID key that
// matches no attribute, four relaxed cardinalities (DBSequence, PeptideEvidenceRef, userParam in
// FragmentArray ion types, a second ion type cvParam) and three stricter ones (SpectraData
// FileFormat, SpectrumIdentificationItem peptide_ref and ProteinDetectionHypothesis
// dBSequence_ref required). So the document, moved to the 1.1 namespace, must validate against
// 1.1.0, and the three stricter rules are checked here; IONFLOW_MZID_1_2_XSD, when set, names a
// 1.2 XSD to validate against as well.
class MzIdentMl12WriterTest : public MzIdentMlFixture {
 protected:
  MzIdentMl12WriterTest() : MzIdentMlFixture(true) {}
};

TEST_F(MzIdentMl12WriterTest, ValidatesAsMzIdentMl12) {
  EXPECT_NE(xml_.find("<MzIdentML xmlns=\"http://psidev.info/psi/pi/mzIdentML/1.2\" "),
            std::string::npos);
  EXPECT_NE(xml_.find("http://psidev.info/psi/pi/mzIdentML/1.2 "
                      "http://www.psidev.info/files/mzIdentML1.2.0.xsd\""),
            std::string::npos);
  EXPECT_EQ(attribute_values(xml_, "MzIdentML", "version"), std::vector<std::string>{"1.2.0"});
  // Structure: the same document in the 1.1 namespace validates against mzIdentML1.1.0.xsd.
  std::string as_1_1 = xml_;
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"mzIdentML/1.2", "mzIdentML/1.1"},
           {"mzIdentML1.2.0.xsd", "mzIdentML1.1.0.xsd"},
           {"version=\"1.2.0\"", "version=\"1.1.0\""}}) {
    const std::size_t count = result_testing::split(as_1_1, '\n').size();
    for (std::size_t at = as_1_1.find(from); at != std::string::npos; at = as_1_1.find(from, at)) {
      as_1_1.replace(at, from.size(), to);
    }
    EXPECT_EQ(result_testing::split(as_1_1, '\n').size(), count);
  }
  const std::string path_1_1 = dir_.file("as_1_1.mzid");
  std::ofstream(path_1_1) << as_1_1;
  const auto result = result_testing::validate_xml(path_1_1, "mzIdentML1.1.0.xsd");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  // The three rules 1.2 makes stricter.
  for (const auto& spectra : elements(xml_, "SpectraData")) {
    EXPECT_NE(spectra.find("<FileFormat>"), std::string::npos) << spectra;
  }
  for (const auto& ref : attribute_values(xml_, "SpectrumIdentificationItem", "peptide_ref")) {
    EXPECT_NE(ref, "<missing>");
  }
  for (const auto& ref : attribute_values(xml_, "ProteinDetectionHypothesis", "dBSequence_ref")) {
    EXPECT_NE(ref, "<missing>");
  }
  if (const char* xsd = std::getenv("IONFLOW_MZID_1_2_XSD"); xsd != nullptr && *xsd != '\0') {
    const auto direct =
        run_command(std::string("xmllint --noout --schema '") + xsd + "' '" + path_ + "'");
    EXPECT_EQ(direct.exit_code, 0) << direct.output;
  }
}

TEST_F(MzIdentMl12WriterTest, OpenMsReadsBackEveryPsm) {
  const std::string idxml = dir_.file("results.idXML");
  const auto convert = run_command("IDFileConverter -in '" + path_ + "' -out '" + idxml + "'");
  ASSERT_EQ(convert.exit_code, 0) << convert.output;
  const auto hits = read_idxml_hits(read_text(idxml));
  ASSERT_EQ(hits.size(), 6u);
  const auto info = run_command("FileInfo -in '" + idxml + "'");
  EXPECT_NE(
      info.output.find(
          "Modification count (top-hits only): Acetyl 1, Carbamidomethyl (C) 3, Oxidation (M) 2"),
      std::string::npos)
      << info.output;
}

TEST_F(MzIdentMl12WriterTest, CarriesTheTermsMzIdentMl12MakesMandatory) {
  EXPECT_EQ(cv_term_errors(xml_), std::vector<std::string>{});
  // Section 4.3 Table 1: a processing term in AdditionalSearchParams; peptide-level q-values
  // are reported, so "peptide-level scoring", and its threshold beside the PSM-level one.
  const auto protocol = elements(xml_, "SpectrumIdentificationProtocol");
  ASSERT_EQ(protocol.size(), 1u);
  const std::string additional = protocol[0].substr(protocol[0].find("<AdditionalSearchParams>"));
  EXPECT_NE(additional.substr(0, additional.find("</AdditionalSearchParams>"))
                .find("accession=\"MS:1002490\" name=\"peptide-level scoring\""),
            std::string::npos);
  const std::string threshold = protocol[0].substr(protocol[0].find("<Threshold>"));
  EXPECT_EQ(attribute_values(threshold, "cvParam", "accession"),
            (std::vector<std::string>{"MS:1002354", "MS:1001868"}));
  // Section 5.2.6: every PSM has a score, its peptide group and whether that group passes.
  const auto items = elements(xml_, "SpectrumIdentificationItem");
  ASSERT_EQ(items.size(), 6u);
  const auto psms = fixture_psms();
  std::vector<std::string> passes;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto accessions = attribute_values(items[i], "cvParam", "accession");
    const auto values = attribute_values(items[i], "cvParam", "value");
    std::map<std::string, std::string> value_of;
    for (std::size_t k = 0; k < accessions.size(); ++k) value_of[accessions[k]] = values[k];
    EXPECT_TRUE(value_of.count("MS:1001330")) << items[i];  // X!Tandem:expect
    // The group is the Peptide ("Pep_<n>" -> "n").
    EXPECT_EQ("Pep_" + value_of["MS:1002520"],
              attribute_values(items[i], "SpectrumIdentificationItem", "peptide_ref")[0]);
    passes.push_back(value_of["MS:1002500"]);
    // xsd:boolean as 1 / 0, the form OpenMS 2.6 reads (it takes these values as numbers).
    EXPECT_EQ(value_of["MS:1002500"], psms[i].peptide_q <= 0.01 ? "1" : "0");
  }
  EXPECT_EQ(passes, (std::vector<std::string>{"1", "0", "1", "1", "1", "0"}));
  // Section 5.2.1: each hypothesis leading or not, each group passes or not, and the list
  // counts the groups that pass.
  const auto groups = elements(xml_, "ProteinAmbiguityGroup");
  ASSERT_EQ(groups.size(), 2u);
  std::size_t passing = 0;
  for (const auto& group : groups) {
    const auto hypotheses = elements(group, "ProteinDetectionHypothesis");
    ASSERT_EQ(hypotheses.size(), 1u);
    EXPECT_EQ(count_of(hypotheses[0], "accession=\"MS:1002401\"") +
                  count_of(hypotheses[0], "accession=\"MS:1002402\""),
              1u);
    const std::string own = group.substr(group.find("</ProteinDetectionHypothesis>"));
    const auto accessions = attribute_values(own, "cvParam", "accession");
    ASSERT_EQ(accessions, std::vector<std::string>{"MS:1002415"}) << group;
    passing += attribute_values(own, "cvParam", "value")[0] == "true";
  }
  const std::string list = xml_.substr(xml_.rfind("</ProteinAmbiguityGroup>"));
  EXPECT_EQ(attribute_values(list, "cvParam", "accession"), std::vector<std::string>{"MS:1002404"});
  EXPECT_EQ(attribute_values(list, "cvParam", "value"),
            std::vector<std::string>{std::to_string(passing)});
  // 1.1 has none of these.
  std::ostringstream v1_1;
  write_mzidentml(v1_1, fixture_psms(), context_);
  for (const char* term :
       {"MS:1002490", "MS:1002520", "MS:1002500", "MS:1002401", "MS:1002415", "MS:1002404"}) {
    EXPECT_EQ(v1_1.str().find(term), std::string::npos) << term;
  }
}

// The XSD requires >= 1 SpectrumIdentificationResult, so an empty result set can only be
// well-formed; everything else in it must still be schema-valid.
TEST(MzIdentMlWriter, EmptyResultsAreWellFormedAndOnlyLackAResult) {
  ScratchDir dir("mzid_empty");
  const SearchParameters params = fixture_parameters();
  const std::string path = dir.file("empty.mzid");
  {
    std::ofstream out(path);
    write_mzidentml(out, {}, fixture_context(&params, dir));
  }
  const auto well_formed = run_command("xmllint --noout '" + path + "'");
  EXPECT_EQ(well_formed.exit_code, 0) << well_formed.output;
  const auto result = result_testing::validate_xml(path, "mzIdentML1.1.0.xsd");
  EXPECT_NE(result.output.find("SpectrumIdentificationList': Missing child element(s)"),
            std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("SequenceCollection"), std::string::npos) << result.output;
}

// Accessions and ids with spaces, markup and control characters, a PSM without proteins and a
// lower-case flank still give a valid document with NCName ids.
TEST(MzIdentMlWriter, HostileTextStillValidates) {
  ScratchDir dir("mzid_hostile");
  const SearchParameters params = fixture_parameters();
  auto psms = fixture_psms();
  psms[0].evidence[0].protein_accession = "1 sp|A B<&>\"x\"\x01|Q";
  psms[0].evidence[0].pre = 'k';
  psms[0].native_id = "scan=2 \x02 <weird>";
  psms[2].evidence.clear();
  const std::string path = dir.file("hostile.mzid");
  {
    std::ofstream out(path);
    write_mzidentml(out, psms, fixture_context(&params, dir));
  }
  const auto result = result_testing::validate_xml(path, "mzIdentML1.1.0.xsd");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  const std::string xml = read_text(path);
  EXPECT_EQ(attribute_values(xml, "DBSequence", "id")[0], "DBSeq_1_1_sp_A_B____x___Q");
  EXPECT_EQ(attribute_values(xml, "DBSequence", "accession")[0],
            "1 sp|A B&lt;&amp;&gt;&quot;x&quot;?|Q");
  EXPECT_EQ(attribute_values(xml, "PeptideEvidence", "pre")[0], "?");
}

TEST(MzIdentMlWriter, ThrowsWhenTheStreamFails) {
  ScratchDir dir("mzid_fail");
  const SearchParameters params = fixture_parameters();
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  EXPECT_THROW(write_mzidentml(out, fixture_psms(), fixture_context(&params, dir)),
               std::runtime_error);
}

}  // namespace
}  // namespace ionflow
