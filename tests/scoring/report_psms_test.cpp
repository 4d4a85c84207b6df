// report_psms changes what is reported, never the answer: the rank-1 PSM of every spectrum and
// its q-values are the same with 1 or 5 PSMs per spectrum (issue 18). Rescoring and the FDR see
// the rank-1 PSMs only, and a charge query's lower-ranked PSMs cannot overtake its rank 1.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "scoring/search.hpp"
#include "scoring_test_support.hpp"

namespace ionflow {
namespace {

Psm psm(uint64_t spectrum, int charge, int rank, double score, double hyperscore,
        const std::string& proforma) {
  Psm p;
  p.spectrum_index = spectrum;
  p.charge = charge;
  p.rank = rank;
  p.score = score;
  p.hyperscore = hyperscore;
  p.sequence = proforma;
  p.proforma = proforma;
  p.evidence.push_back({"P1", 0, 'K', 'R', false});
  return p;
}

// BSA1 spectrum=2442's case: the scorer's rank 2 has the same E-value as its rank 1 (both
// saturated at the candidate count) and a higher hyperscore. Reported or not, it stays rank 2.
TEST(ReportPsms, AQuerysRankTwoWithTheSameScoreDoesNotTakeRankOne) {
  SearchParameters params;
  params.report_psms = 1;
  const std::vector<Psm> one = finalize_psms({psm(7, 3, 1, -2.6, 1.98, "FVYMRYGSSDDM")}, params);
  params.report_psms = 5;
  const std::vector<Psm> five = finalize_psms(
      {psm(7, 3, 1, -2.6, 1.98, "FVYMRYGSSDDM"), psm(7, 3, 2, -2.6, 2.16, "MMDGGSFDRESDR")},
      params);
  ASSERT_EQ(one.size(), 1u);
  ASSERT_EQ(five.size(), 2u);
  EXPECT_EQ(one[0].proforma, "FVYMRYGSSDDM");
  EXPECT_EQ(five[0].proforma, "FVYMRYGSSDDM");
  EXPECT_EQ(five[0].rank, 1);
  EXPECT_EQ(five[1].proforma, "MMDGGSFDRESDR");
  EXPECT_EQ(five[1].rank, 2);
}

// Across charge queries the better rank-1 PSM (by score, then hyperscore) still wins, and the
// list interleaves the queries' lists in that order.
TEST(ReportPsms, ChargeQueriesMergeByTheirRankedLists) {
  SearchParameters params;
  params.report_psms = 3;
  const std::vector<Psm> out =
      finalize_psms({psm(1, 2, 1, 5.0, 20, "AAAK"), psm(1, 2, 2, 1.0, 30, "CCCK"),
                     psm(1, 3, 1, 6.0, 10, "DDDK"), psm(1, 3, 2, 0.5, 9, "EEEK")},
                    params);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].proforma, "DDDK");
  EXPECT_EQ(out[1].proforma, "AAAK");
  EXPECT_EQ(out[2].proforma, "CCCK");
}

// The real case: BSA1.mzML (openms-doc, 1120 MS2) against the BSA example database with its
// decoys, demo settings; every rank-1 row identical with report_psms 1 and 5 (before the fix,
// 730 of 925 rank-1 spectrum_q values changed).
TEST(ReportPsms, Bsa1RankOneRowsAreTheSameForOneAndFivePsmsPerSpectrum) {
  const std::string examples = IONFLOW_EXAMPLES_DIR;
  const std::string mzml_path = examples + "/BSA/BSA1.mzML";
  const std::string fasta_path =
      examples +
      "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta";
  ASSERT_TRUE(std::filesystem::exists(mzml_path) && std::filesystem::exists(fasta_path))
      << "openms-doc examples not found under " << examples;
  SearchParameters params;
  params.isotope_errors = {0, 1};
  params.database.decoy_generation = DecoyGeneration::kNone;
  params.database.decoy_tag = "_rev";
  params.database.decoy_tag_is_suffix = true;
  params.database.fixed_modifications.push_back(scoring_test::carbamidomethyl());
  params.database.variable_modifications.push_back(scoring_test::oxidation());
  PeptideIndexLimits limits;
  limits.threads = 2;
  auto index = build_peptide_index(
      parse_fasta(scoring_test::read_file(fasta_path), fasta_path, {"_rev", true}), params, nullptr,
      limits);
  const std::string content = scoring_test::read_file(mzml_path);
  auto reader = make_spectrum_reader(PeakListFormat::kMzML, mzml_path, 0);
  std::vector<RawSpectrum> spectra;
  reader->feed(content, spectra);
  reader->finish(spectra);

  auto rank1 = [&](int report) {
    SearchParameters p = params;
    p.report_psms = report;
    return scoring_test::search_rank1(index, p, spectra);
  };
  const std::map<uint64_t, Psm> one = rank1(1);
  const std::map<uint64_t, Psm> five = rank1(5);
  ASSERT_EQ(one.size(), 926u);
  ASSERT_EQ(five.size(), one.size());
  size_t accepted = 0;
  for (const auto& [spectrum, a] : one) {
    SCOPED_TRACE(a.native_id);
    const Psm& b = five.at(spectrum);
    EXPECT_EQ(a.proforma, b.proforma);
    EXPECT_EQ(a.charge, b.charge);
    EXPECT_EQ(a.evalue, b.evalue);
    EXPECT_EQ(a.score, b.score);
    EXPECT_EQ(a.spectrum_q, b.spectrum_q);
    EXPECT_EQ(a.peptide_q, b.peptide_q);
    EXPECT_EQ(a.protein_q, b.protein_q);
    accepted += !a.decoy && a.spectrum_q <= 0.01;
  }
  EXPECT_EQ(accepted, 40u);  // the demo job's 40 target PSMs at 1% FDR (job_psms_test.cpp)
}

}  // namespace
}  // namespace ionflow
