// results.tsv: exact lines for hand-made PSMs (see result_fixture.hpp), column names in Sage's
// order, escaping of tabs, unsorted input and stream errors.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <stdexcept>

#include "io/result_writer.hpp"
#include "result_fixture.hpp"

namespace ionflow {
namespace {

using result_testing::fixture_context;
using result_testing::fixture_parameters;
using result_testing::fixture_psms;
using result_testing::ScratchDir;
using result_testing::split;

std::vector<std::string> tsv_lines(const std::vector<Psm>& psms, const ResultContext& context) {
  std::ostringstream out;
  write_tsv(out, psms, context);
  auto lines = split(out.str(), '\n');
  EXPECT_EQ(lines.back(), "");  // ends with a newline
  lines.pop_back();
  return lines;
}

TEST(TsvWriter, HeaderHasSagesColumnsThenIonflows) {
  ScratchDir dir("tsv_header");
  const SearchParameters params = fixture_parameters();
  const auto lines = tsv_lines({}, fixture_context(&params, dir));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "psm_id\tfilename\tscannr\trank\tlabel\texpmass\tcalcmass\tcharge\tpeptide\tproteins\t"
            "peptide_len\tmissed_cleavages\tisotope_error\tprecursor_ppm\tfragment_ppm\t"
            "hyperscore\tdelta_next\tmatched_peaks\trt\tspectrum_q\tpeptide_q\tprotein_q\t"
            "evalue\tprecursor_mz\tscan\tdiscriminant_score");
}

TEST(TsvWriter, ExactLinesForModifiedTargetsAndDecoys) {
  ScratchDir dir("tsv_lines");
  const SearchParameters params = fixture_parameters();
  const auto lines = tsv_lines(fixture_psms(), fixture_context(&params, dir));
  ASSERT_EQ(lines.size(), 7u);
  // LVNELTEFAK: 1162.62339 Da, [M+2H]2+ 582.3190 (BSA tryptic peptide); rt 61.2 s = 1.02 min.
  EXPECT_EQ(
      lines[1],
      "1\tBSA1.mzML\tcontrollerType=0 controllerNumber=1 scan=2\t1\t1\t1162.62459\t"
      "1162.62339\t2\tLVNELTEFAK\tsp|P02769|ALBU_BOVIN\t10\t0\t0\t1.0321\t4.2500\t38.5000\t"
      "12.2500\t14\t1.0200\t0.001000\t0.002000\t0.000500\t3.200e-07\t582.319571\t2\t0.000000");
  EXPECT_EQ(lines[2],
            "2\tBSA1.mzML\tcontrollerType=0 controllerNumber=1 scan=2\t2\t-1\t1162.62459\t"
            "1162.62339\t2\tAFETLENVLK\trev_sp|P02769|ALBU_BOVIN\t10\t0\t0\t1.0321\t4.2500\t"
            "26.2500\t1.5000\t8\t1.0200\t0.500000\t0.600000\t0.700000\t3.100e-02\t582.319571\t2\t0."
            "000000");
  // YIC[Carbamidomethyl]DNQDTISSK: 1442.63476 Da, two proteins joined by ';'.
  EXPECT_EQ(
      lines[3],
      "3\tBSA1.mzML\tcontrollerType=0 controllerNumber=1 scan=7\t1\t1\t1442.63266\t"
      "1442.63476\t2\tYIC[UNIMOD:4]DNQDTISSK\tsp|P02769|ALBU_BOVIN;sp|P12763|FETUA_BOVIN\t12\t"
      "0\t0\t-1.4557\t4.2500\t41.0000\t20.5000\t17\t1.2500\t0.001000\t0.002000\t0.000500\t"
      "1.500e-09\t722.323606\t7\t0.000000");
  // Acetyl-N-term + Oxidation M: 2319.23371 Da; MGF title as scannr; no scan number.
  EXPECT_EQ(lines[4],
            "4\tBSA2.mgf\tBSA2.2.2.3 File:BSA2\t1\t1\t2319.23721\t2319.23371\t3\t"
            "[UNIMOD:1]-M[UNIMOD:35]KWVTFISLLLLFSSAYSR\tsp|P02769|ALBU_BOVIN\t19\t0\t0\t1.5091\t"
            "4.2500\t29.7500\t6.0000\t11\t2.0083\t0.004000\t0.004000\t0.000500\t4.200e-03\t"
            "774.086347\t\t0.000000");
  EXPECT_EQ(lines[5],
            "5\tBSA2.mgf\ttitle with <&> \"quotes\"\t1\t1\t1739.82224\t1739.82224\t2\t"
            "M[UNIMOD:35]PC[UNIMOD:4]TEDYLSLILNR\tsp|P02769|ALBU_BOVIN\t14\t0\t0\t0.0000\t4.2500\t"
            "35.0000\t9.7500\t15\t2.1708\t0.002000\t0.003000\t0.000500\t2.500e-06\t870."
            "918398\t44\t0.000000");
  EXPECT_EQ(lines[6],
            "6\tBSA2.mgf\tdecoy spectrum\t1\t-1\t1442.64286\t1442.63476\t2\t"
            "SSITDQNDC[UNIMOD:4]IYK\trev_sp|P02769|ALBU_BOVIN\t12\t0\t0\t5.6147\t4.2500\t18.5000\t"
            "0.2500\t6\t2.1833\t0.800000\t0.800000\t0.900000\t8.500e-01\t722.328706\t45\t0.000000");
}

TEST(TsvWriter, SortsUnorderedInputAndKeepsTabsOutOfFields) {
  ScratchDir dir("tsv_order");
  const SearchParameters params = fixture_parameters();
  auto psms = fixture_psms();
  std::swap(psms[0], psms[5]);
  psms[3].native_id = "a\tb";
  psms[3].proforma.clear();  // rebuilt from the modification list
  const auto lines = tsv_lines(psms, fixture_context(&params, dir));
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(split(lines[1], '\t')[8], "LVNELTEFAK");
  EXPECT_EQ(split(lines[6], '\t')[8], "SSITDQNDC[UNIMOD:4]IYK");
  const auto fields = split(lines[4], '\t');
  ASSERT_EQ(fields.size(), 26u);
  EXPECT_EQ(fields[2], "a b");
  EXPECT_EQ(fields[8], "[UNIMOD:1]-M[UNIMOD:35]KWVTFISLLLLFSSAYSR");
}

// The last column is the score the q-values follow (Psm::score: the rescored discriminant).
TEST(TsvWriter, LastColumnIsTheDiscriminantScore) {
  ScratchDir dir("tsv_score");
  const SearchParameters params = fixture_parameters();
  auto psms = fixture_psms();
  psms[0].score = 3.1415926;
  psms[5].score = -0.5;
  const auto lines = tsv_lines(psms, fixture_context(&params, dir));
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(split(lines[0], '\t').back(), "discriminant_score");
  EXPECT_EQ(split(lines[1], '\t').back(), "3.141593");
  EXPECT_EQ(split(lines[6], '\t').back(), "-0.500000");
}

// Two spectra files with one name in different folders: the column gives the paths as given,
// else their rows could not be told apart (a new-user test's d1/run.mzML and d2/run.mzML).
TEST(TsvWriter, FilenameIsThePathWhenTwoFilesShareAName) {
  ScratchDir dir("tsv_same_name");
  const SearchParameters params = fixture_parameters();
  ResultContext context = fixture_context(&params, dir);
  EXPECT_EQ(split(tsv_lines(fixture_psms(), context)[1], '\t')[1], "BSA1.mzML");
  context.spectra_paths = {"d1/BSA1.mzML", "d2/BSA1.mzML"};
  const auto lines = tsv_lines(fixture_psms(), context);
  std::set<std::string> names;
  for (size_t i = 1; i < lines.size(); ++i) names.insert(split(lines[i], '\t')[1]);
  EXPECT_EQ(names, (std::set<std::string>{"d1/BSA1.mzML", "d2/BSA1.mzML"}));
}

TEST(TsvWriter, ThrowsWhenTheStreamFails) {
  ScratchDir dir("tsv_fail");
  const SearchParameters params = fixture_parameters();
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  EXPECT_THROW(write_tsv(out, fixture_psms(), fixture_context(&params, dir)), std::runtime_error);
}

}  // namespace
}  // namespace ionflow
