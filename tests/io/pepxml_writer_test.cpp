// pepXML: schema validity (pepXML_v122.xsd via xmllint), one run summary per spectra file, TPP
// spectrum names, modification masses and positions, and a read-back by OpenMS's
// IDFileConverter (fails, never skips, when the tool is missing).
#include <gtest/gtest.h>

#include <fstream>
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

std::string write_to(const std::string& path, const std::vector<Psm>& psms,
                     const ResultContext& context) {
  {
    std::ofstream out(path);
    write_pepxml(out, psms, context);
  }
  return read_text(path);
}

class PepXmlWriterTest : public ::testing::Test {
 protected:
  PepXmlWriterTest()
      : dir_("pepxml"), params_(fixture_parameters()), context_(fixture_context(&params_, dir_)) {
    path_ = dir_.file("results.pep.xml");
    xml_ = write_to(path_, fixture_psms(), context_);
  }

  ScratchDir dir_;
  SearchParameters params_;
  ResultContext context_;
  std::string path_;
  std::string xml_;
};

TEST_F(PepXmlWriterTest, ValidatesAgainstPepXmlV122) {
  const auto result = result_testing::validate_xml(path_, "pepXML_v122.xsd");
  EXPECT_EQ(result.exit_code, 0) << result.output;
}

TEST_F(PepXmlWriterTest, OneRunPerFileAndTppSpectrumNames) {
  EXPECT_EQ(attribute_values(xml_, "msms_run_summary", "base_name"),
            (std::vector<std::string>{dir_.file("BSA1"), dir_.file("BSA2")}));
  EXPECT_EQ(attribute_values(xml_, "msms_run_summary", "raw_data"),
            (std::vector<std::string>{".mzML", ".mgf"}));
  // <stem>.<scan>.<scan>.<charge>; the MGF spectrum without a scan number uses its index + 1.
  EXPECT_EQ(
      attribute_values(xml_, "spectrum_query", "spectrum"),
      (std::vector<std::string>{"BSA1.00002.00002.2", "BSA1.00007.00007.2", "BSA2.00001.00001.3",
                                "BSA2.00044.00044.2", "BSA2.00045.00045.2"}));
  EXPECT_EQ(attribute_values(xml_, "spectrum_query", "index"),
            (std::vector<std::string>{"1", "2", "3", "4", "5"}));
  EXPECT_EQ(attribute_values(xml_, "spectrum_query", "retention_time_sec"),
            (std::vector<std::string>{"61.2", "75", "120.5", "130.25", "131"}));
  EXPECT_EQ(attribute_values(xml_, "search_hit", "hit_rank"),
            (std::vector<std::string>{"1", "2", "1", "1", "1", "1"}));
  EXPECT_EQ(attribute_values(xml_, "search_hit", "protein"),
            (std::vector<std::string>{"sp|P02769|ALBU_BOVIN", "rev_sp|P02769|ALBU_BOVIN",
                                      "sp|P02769|ALBU_BOVIN", "sp|P02769|ALBU_BOVIN",
                                      "sp|P02769|ALBU_BOVIN", "rev_sp|P02769|ALBU_BOVIN"}));
  EXPECT_EQ(attribute_values(xml_, "alternative_protein", "protein"),
            std::vector<std::string>{"sp|P12763|FETUA_BOVIN"});
  EXPECT_EQ(attribute_values(xml_, "search_hit", "peptide_prev_aa")[3], "-");
  EXPECT_NE(xml_.find("search_engine=\"X! Tandem\""), std::string::npos);
  EXPECT_NE(xml_.find("<specificity sense=\"C\" cut=\"KR\" no_cut=\"P\"/>"), std::string::npos);
}

TEST_F(PepXmlWriterTest, ModificationsHaveOneBasedPositionsAndResidueMasses) {
  // C + Carbamidomethyl = 103.009184505 + 57.021464; M + Oxidation = 131.040484645 + 15.994915.
  EXPECT_EQ(attribute_values(xml_, "mod_aminoacid_mass", "position"),
            (std::vector<std::string>{"3", "1", "1", "3", "9"}));
  const auto masses = attribute_values(xml_, "mod_aminoacid_mass", "mass");
  ASSERT_EQ(masses.size(), 5u);
  EXPECT_NEAR(std::stod(masses[0]), 160.030648505, 1e-9);
  EXPECT_NEAR(std::stod(masses[1]), 147.035399645, 1e-9);
  EXPECT_NEAR(std::stod(masses[4]), 160.030648505, 1e-9);
  EXPECT_EQ(
      attribute_values(xml_, "mod_aminoacid_mass", "static"),
      (std::vector<std::string>{"57.021464", "<missing>", "<missing>", "57.021464", "57.021464"}));
  EXPECT_EQ(
      attribute_values(xml_, "mod_aminoacid_mass", "variable"),
      (std::vector<std::string>{"<missing>", "15.994915", "15.994915", "<missing>", "<missing>"}));
  // Acetyl on the N-terminus: H (1.00782503207) + 42.010565.
  const auto n_term = attribute_values(xml_, "modification_info", "mod_nterm_mass");
  EXPECT_EQ(n_term[1], "43.01839003207");
  // modified_peptide in the TPP notation: n[1.007825 + 42.010565 = 43.018] and M[147.035],
  // C[160.031]; the ProForma string in the hit's "proforma" parameter.
  EXPECT_EQ(attribute_values(xml_, "modification_info", "modified_peptide"),
            (std::vector<std::string>{"YIC[160]DNQDTISSK", "n[43]M[147]KWVTFISLLLLFSSAYSR",
                                      "M[147]PC[160]TEDYLSLILNR", "SSITDQNDC[160]IYK"}));
  const auto names = attribute_values(xml_, "parameter", "name");
  const auto values = attribute_values(xml_, "parameter", "value");
  std::vector<std::string> proformas;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == "proforma") proformas.push_back(values[i]);
  }
  ASSERT_EQ(proformas.size(), 6u);  // one per search_hit
  EXPECT_EQ(proformas[3], "[UNIMOD:1]-M[UNIMOD:35]KWVTFISLLLLFSSAYSR");
  // Searched modifications, with Mascot-style descriptions OpenMS resolves by name.
  EXPECT_EQ(attribute_values(xml_, "aminoacid_modification", "description"),
            (std::vector<std::string>{"Carbamidomethyl (C)", "Oxidation (M)", "Carbamidomethyl (C)",
                                      "Oxidation (M)"}));
  EXPECT_EQ(attribute_values(xml_, "terminal_modification", "mass")[0], "43.01839003207");
  EXPECT_EQ(attribute_values(xml_, "terminal_modification", "protein_terminus")[0], "Y");
}

TEST_F(PepXmlWriterTest, ScoresAndMasses) {
  const auto expect = attribute_values(xml_, "search_score", "value");
  const auto names = attribute_values(xml_, "search_score", "name");
  ASSERT_EQ(names.size(), 6u * 7u);
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 7),
            (std::vector<std::string>{"hyperscore", "nextscore", "expect", "delta_next",
                                      "spectrum_q", "peptide_q", "protein_q"}));
  EXPECT_EQ(std::vector<std::string>(expect.begin(), expect.begin() + 3),
            (std::vector<std::string>{"38.5", "26.25", "3.2e-07"}));
  EXPECT_NEAR(std::stod(attribute_values(xml_, "search_hit", "calc_neutral_pep_mass")[0]),
              1162.62339, 1e-5);
  EXPECT_NEAR(std::stod(attribute_values(xml_, "search_hit", "massdiff")[0]), 0.0012, 1e-9);
  EXPECT_NEAR(std::stod(attribute_values(xml_, "spectrum_query", "precursor_neutral_mass")[2]),
              2319.23721, 1e-5);
  EXPECT_EQ(attribute_values(xml_, "search_hit", "num_tol_term")[0], "2");
}

TEST_F(PepXmlWriterTest, OpenMsReadsBackEveryPsm) {
  const std::string idxml = dir_.file("results.idXML");
  const auto convert = run_command("IDFileConverter -in '" + path_ + "' -out '" + idxml + "'");
  ASSERT_EQ(convert.exit_code, 0) << convert.output;
  EXPECT_EQ(convert.output.find("could not be matched"), std::string::npos) << convert.output;
  const auto hits = read_idxml_hits(read_text(idxml));
  ASSERT_EQ(hits.size(), 6u);
  const auto psms = fixture_psms();
  const std::vector<std::string> openms_sequences = {"LVNELTEFAK",
                                                     "AFETLENVLK",
                                                     "YIC(Carbamidomethyl)DNQDTISSK",
                                                     ".(Acetyl)M(Oxidation)KWVTFISLLLLFSSAYSR",
                                                     "M(Oxidation)PC(Carbamidomethyl)TEDYLSLILNR",
                                                     "SSITDQNDC(Carbamidomethyl)IYK"};
  // pepXML keeps document order; OpenMS takes "expect" as the score.
  for (std::size_t i = 0; i < psms.size(); ++i) {
    SCOPED_TRACE(openms_sequences[i]);
    EXPECT_EQ(hits[i].sequence, openms_sequences[i]);
    EXPECT_DOUBLE_EQ(hits[i].score, psms[i].evalue);
    EXPECT_EQ(hits[i].charge, psms[i].charge);
    EXPECT_NEAR(hits[i].rt_seconds, psms[i].rt_seconds, 1e-9);
  }
  const auto info = run_command("FileInfo -in '" + idxml + "'");
  ASSERT_EQ(info.exit_code, 0) << info.output;
  EXPECT_NE(info.output.find("runs:                       2"), std::string::npos) << info.output;
  EXPECT_NE(info.output.find("peptide hits:               6"), std::string::npos) << info.output;
}

TEST(PepXmlWriter, ChargesOfOneSpectrumGetOneQueryEach) {
  ScratchDir dir("pepxml_charges");
  const SearchParameters params = fixture_parameters();
  auto psms = fixture_psms();
  psms[1].charge = 3;  // rank 2 of the first spectrum at another charge
  const std::string path = dir.file("charges.pep.xml");
  const std::string xml = write_to(path, psms, fixture_context(&params, dir));
  EXPECT_EQ(attribute_values(xml, "spectrum_query", "spectrum")[1], "BSA1.00002.00002.3");
  EXPECT_EQ(attribute_values(xml, "spectrum_query", "index").size(), 6u);
  const auto result = result_testing::validate_xml(path, "pepXML_v122.xsd");
  EXPECT_EQ(result.exit_code, 0) << result.output;
}

TEST(PepXmlWriter, FilesWithoutPsmsStillGetARunSummary) {
  ScratchDir dir("pepxml_empty");
  const SearchParameters params = fixture_parameters();
  const std::string path = dir.file("empty.pep.xml");
  const std::string xml = write_to(path, {}, fixture_context(&params, dir));
  EXPECT_EQ(attribute_values(xml, "msms_run_summary", "base_name").size(), 2u);
  const auto result = result_testing::validate_xml(path, "pepXML_v122.xsd");
  EXPECT_EQ(result.exit_code, 0) << result.output;
}

TEST(PepXmlWriter, HostileTextStillValidates) {
  ScratchDir dir("pepxml_hostile");
  const SearchParameters params = fixture_parameters();
  auto psms = fixture_psms();
  psms[0].evidence[0].protein_accession = "sp|A B<&>\"x\"\x01|Q";
  psms[0].native_id = "scan=2 \x02 <weird>";
  psms[2].evidence.clear();
  const std::string path = dir.file("hostile.pep.xml");
  const std::string xml = write_to(path, psms, fixture_context(&params, dir));
  const auto result = result_testing::validate_xml(path, "pepXML_v122.xsd");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(attribute_values(xml, "search_hit", "protein")[0],
            "sp|A B&lt;&amp;&gt;&quot;x&quot;?|Q");
}

TEST(PepXmlWriter, ThrowsWhenTheStreamFails) {
  ScratchDir dir("pepxml_fail");
  const SearchParameters params = fixture_parameters();
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  EXPECT_THROW(write_pepxml(out, fixture_psms(), fixture_context(&params, dir)),
               std::runtime_error);
}

}  // namespace
}  // namespace ionflow
