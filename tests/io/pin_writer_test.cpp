// Percolator .pin: header and rows read back as TSV, feature values, one-hot charges, enzymatic
// termini, flanked peptides and the protein delimiter.
#include <gtest/gtest.h>

#include <sstream>

#include "io/result_writer.hpp"
#include "result_fixture.hpp"

namespace ionflow {
namespace {

using result_testing::fixture_context;
using result_testing::fixture_parameters;
using result_testing::fixture_psms;
using result_testing::ScratchDir;
using result_testing::split;

std::vector<std::vector<std::string>> pin_rows(const std::vector<Psm>& psms,
                                               const ResultContext& context) {
  std::ostringstream out;
  write_pin(out, psms, context);
  auto lines = split(out.str(), '\n');
  EXPECT_EQ(lines.back(), "");
  lines.pop_back();
  std::vector<std::vector<std::string>> rows;
  for (const auto& line : lines) rows.push_back(split(line, '\t'));
  return rows;
}

TEST(PinWriter, ReadsBackAsTsvWithPercolatorsColumns) {
  ScratchDir dir("pin");
  const SearchParameters params = fixture_parameters();
  const auto rows = pin_rows(fixture_psms(), fixture_context(&params, dir));
  ASSERT_EQ(rows.size(), 7u);
  const std::vector<std::string> header = {"SpecId",
                                           "Label",
                                           "ScanNr",
                                           "ExpMass",
                                           "CalcMass",
                                           "hyperscore",
                                           "delta_next",
                                           "neg_log10_evalue",
                                           "matched_peaks",
                                           "matched_fraction",
                                           "abs_ppm",
                                           "fragment_ppm",
                                           "Charge1",
                                           "Charge2",
                                           "Charge3",
                                           "peptide_len",
                                           "missed_cleavages",
                                           "enzN",
                                           "enzC",
                                           "Peptide",
                                           "Proteins"};
  EXPECT_EQ(rows[0], header);
  // Every row: the fixed columns, then one column per protein (tab delimiter).
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const std::size_t proteins = r == 3 ? 2 : 1;
    EXPECT_EQ(rows[r].size(), header.size() - 1 + proteins) << r;
  }
  EXPECT_EQ(rows[1], (std::vector<std::string>{"BSA1_2_2_1",
                                               "1",
                                               "2",
                                               "1162.62459",
                                               "1162.62339",
                                               "38.500000",
                                               "12.250000",
                                               "6.494850",
                                               "14",
                                               "0.388889",
                                               "1.032149",
                                               "4.250000",
                                               "0",
                                               "1",
                                               "0",
                                               "10",
                                               "0",
                                               "1",
                                               "1",
                                               "K.LVNELTEFAK.D",
                                               "sp|P02769|ALBU_BOVIN"}));
  EXPECT_EQ(rows[2][1], "-1");  // decoy
  EXPECT_EQ(rows[3][19], "K.YIC[+57.0215]DNQDTISSK.L");
  EXPECT_EQ(rows[3][20], "sp|P02769|ALBU_BOVIN");
  EXPECT_EQ(rows[3][21], "sp|P12763|FETUA_BOVIN");
  // MGF spectrum without a scan number: ScanNr = index + 1; charge 3 one-hot; protein N-term.
  EXPECT_EQ(rows[4][0], "BSA2_1_3_1");
  EXPECT_EQ(rows[4][2], "1");
  EXPECT_EQ((std::vector<std::string>(rows[4].begin() + 12, rows[4].begin() + 15)),
            (std::vector<std::string>{"0", "0", "1"}));
  // N-terminal modifications stand before the first residue, without ProForma's '-'.
  EXPECT_EQ(rows[4][19], "-.[+42.0106]M[+15.9949]KWVTFISLLLLFSSAYSR.G");
  // -log10(0.85) = 0.070581
  EXPECT_EQ(rows[6][7], "0.070581");
}

TEST(PinWriter, EnzymaticTerminiFollowTheFlankingResidues) {
  ScratchDir dir("pin_enzyme");
  const SearchParameters params = fixture_parameters();
  auto psms = fixture_psms();
  psms[0].evidence[0].pre = 'A';   // not after K/R: N-terminus non-tryptic
  psms[2].evidence[0].post = 'P';  // K before P: trypsin does not cut, C-terminus non-tryptic
  const auto rows = pin_rows(psms, fixture_context(&params, dir));
  EXPECT_EQ(rows[1][17], "0");
  EXPECT_EQ(rows[1][18], "1");
  EXPECT_EQ(rows[3][17], "1");
  EXPECT_EQ(rows[3][18], "0");
}

TEST(PinWriter, OtherProteinDelimiterJoinsOneColumn) {
  ScratchDir dir("pin_delimiter");
  const SearchParameters params = fixture_parameters();
  ResultContext context = fixture_context(&params, dir);
  context.protein_delimiter = ";";
  const auto rows = pin_rows(fixture_psms(), context);
  ASSERT_EQ(rows[3].size(), rows[0].size());
  EXPECT_EQ(rows[3].back(), "sp|P02769|ALBU_BOVIN;sp|P12763|FETUA_BOVIN");
}

TEST(PinWriter, ChargeColumnsCoverTheHighestCharge) {
  ScratchDir dir("pin_charge");
  const SearchParameters params = fixture_parameters();
  auto psms = fixture_psms();
  psms[5].charge = 5;
  const auto rows = pin_rows(psms, fixture_context(&params, dir));
  EXPECT_EQ(rows[0][16], "Charge5");
  EXPECT_EQ(rows[6][16], "1");
  EXPECT_EQ(rows[6][13], "0");
}

}  // namespace
}  // namespace ionflow
