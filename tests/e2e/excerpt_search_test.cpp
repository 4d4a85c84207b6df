// End-to-end, fast: the demo job on a committed excerpt of BSA1.mzML (tests/data/
// BSA1_identified_excerpt.mzML, 15 MS2 spectra, 12 of which the full demo search identifies as
// BSA peptides) against the 8-entry excerpt of the 18-protein target-decoy FASTA
// (tests/data/bsa_target_decoy_excerpt.fasta: 4 targets incl. P02769 ALBU_BOVIN, 4 _rev decoys).
// Exact values: every one of the 12 peptides is found again, on the same spectrum, at q = 0.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "e2e_support.hpp"

namespace ionflow::e2e {
namespace {

TEST(ExcerptSearch, FindsTheTwelveBsaPeptidesOfTheExcerptExactly) {
  ASSERT_NO_FATAL_FAILURE(require_file(kIonflow));
  TempDir dir;
  const std::string spectra = kTestDataDir + "/BSA1_identified_excerpt.mzML";
  CommandResult run = run_ionflow({"search", kSourceDir + "/examples/bsa_demo.json", spectra, "-f",
                                   kTestDataDir + "/bsa_target_decoy_excerpt.fasta", "-o",
                                   dir / "out", "-q", "--output-formats", "tsv,pin"},
                                  dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // -q: no progress and no [info] log lines (the summary still goes to stdout).
  EXPECT_EQ(run.err.find("[info]"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("progress:"), std::string::npos) << run.err;
  JsonValue results = read_json_file(dir / "out/results.json");
  EXPECT_EQ(json_at(results, "summary.spectra_read").as_integer(), 15);
  EXPECT_EQ(json_at(results, "summary.spectra_searched").as_integer(), 15);
  EXPECT_EQ(json_at(results, "summary.psms").as_integer(), 12);
  EXPECT_EQ(json_at(results, "summary.psms_at_1pct_fdr").as_integer(), 12);
  EXPECT_EQ(json_at(results, "summary.peptides_at_1pct_fdr").as_integer(), 12);
  EXPECT_EQ(json_at(results, "summary.proteins_at_1pct_fdr").as_integer(), 1);
  EXPECT_EQ(json_at(results, "summary.protein_groups_at_1pct_fdr").as_integer(), 1);

  Table table = read_tsv(read_file(dir / "out/results.tsv"));
  ASSERT_EQ(table.rows.size(), 12u);
  // Spectrum → peptide, as the full demo search (BSA1 vs 18 proteins) assigns them.
  const std::map<std::string, std::string> expected = {
      {"spectrum=2458", "SHC[UNIMOD:4]IAEVEK"},
      {"spectrum=2548", "DDSPDLPK"},
      {"spectrum=2615", "EC[UNIMOD:4]C[UNIMOD:4]DKPLLEK"},
      {"spectrum=2619", "LC[UNIMOD:4]VLHEK"},
      {"spectrum=2624", "YIC[UNIMOD:4]DNQDTISSK"},
      {"spectrum=2716", "DLGEEHFK"},
      {"spectrum=2811", "LVTDLTK"},
      {"spectrum=2950", "AEFVEVTK"},
      {"spectrum=3097", "EAC[UNIMOD:4]FAVEGPK"},
      {"spectrum=3328", "YLYEIAR"},
      {"spectrum=3542", "HLVDEPQNLIK"},
      {"spectrum=3554", "LKPDPNTLC[UNIMOD:4]DEFK"}};
  std::map<std::string, std::string> found;
  size_t best = 0;
  for (size_t r = 0; r < table.rows.size(); ++r) {
    found[table.cell(r, "scannr")] = table.cell(r, "peptide");
    EXPECT_EQ(table.cell(r, "label"), "1");
    EXPECT_EQ(table.cell(r, "proteins"), "P02769|ALBU_BOVIN");
    EXPECT_EQ(std::stod(table.cell(r, "spectrum_q")), 0.0);
    EXPECT_EQ(table.cell(r, "filename"), "BSA1_identified_excerpt.mzML");
    if (std::stod(table.cell(r, "hyperscore")) > std::stod(table.cell(best, "hyperscore")))
      best = r;
  }
  EXPECT_EQ(found, expected);
  // The top PSM: HLVDEPQNLIK 3+ on spectrum=3542, neutral mass 1304.70883 Da (monoisotopic
  // residues + H2O, Unimod masses).
  EXPECT_EQ(table.cell(best, "peptide"), "HLVDEPQNLIK");
  EXPECT_EQ(table.cell(best, "charge"), "3");
  EXPECT_NEAR(std::stod(table.cell(best, "calcmass")), 1304.70883, 1e-4);
  EXPECT_NEAR(std::stod(table.cell(best, "hyperscore")), 11.1262, 1e-4);
  // The .pin has the same 12 PSMs, all targets.
  Table pin = read_tsv(read_file(dir / "out/results.pin"));
  ASSERT_EQ(pin.rows.size(), 12u);
  for (size_t r = 0; r < pin.rows.size(); ++r) EXPECT_EQ(pin.cell(r, "Label"), "1");
}

}  // namespace
}  // namespace ionflow::e2e
