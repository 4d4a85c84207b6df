// End-to-end: the demo searches of issue "pipeline" through the real `ionflow` binary.
// BSA1.mzML against the 18-protein target-decoy FASTA with examples/bsa_demo.json must report at
// least Comet's 39 target PSMs at 1% FDR; Ecoli_MS2_small.mzML against the E. coli target-decoy
// FASTA with examples/ecoli_demo.json at least 83. The --zstd run of the demo must decompress to
// the same bytes as the plain run's results.tsv.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "e2e_support.hpp"

namespace ionflow::e2e {
namespace {

const std::string kBsa1 = kExamplesDir + "/BSA/BSA1.mzML";
const std::string kBsaFasta =
    kExamplesDir +
    "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta";
const std::string kEcoliSpectra = kExamplesDir + "/ID/Ecoli_MS2_small.mzML";
const std::string kEcoliFasta =
    kExamplesDir + "/TOPPAS/data/Identification/target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta";

// Peptide column (ProForma) of every target PSM at 1% FDR.
std::multiset<std::string> accepted_peptides(const Table& table) {
  std::multiset<std::string> peptides;
  for (size_t r = 0; r < table.rows.size(); ++r) {
    if (table.cell(r, "rank") == "1" && table.cell(r, "label") == "1" &&
        std::stod(table.cell(r, "spectrum_q")) <= 0.01) {
      peptides.insert(table.cell(r, "peptide"));
    }
  }
  return peptides;
}

TEST(DemoSearch, Bsa1FindsAtLeastCometsPsmsAndZstdOutputIsTheSameBytes) {
  ASSERT_NO_FATAL_FAILURE(require_file(kIonflow));
  ASSERT_NO_FATAL_FAILURE(require_file(kBsa1));
  ASSERT_NO_FATAL_FAILURE(require_file(kBsaFasta));
  ASSERT_NO_FATAL_FAILURE(require_tool("zstd"));
  TempDir dir;
  const std::string job = kSourceDir + "/examples/bsa_demo.json";

  CommandResult plain =
      run_ionflow({"search", job, kBsa1, "-f", kBsaFasta, "-o", dir / "plain", "-q"}, dir);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.err.find("ionflow search: done"), std::string::npos) << plain.err;
  EXPECT_EQ(list_directory(dir / "plain"),
            (std::vector<std::string>{"results.json", "results.tsv"}));

  JsonValue results = read_json_file(dir / "plain/results.json");
  EXPECT_EQ(json_at(results, "software").as_string(), "ionflow");
  EXPECT_FALSE(json_at(results, "version").as_string().empty());
  // BSA1.mzML: 1684 spectra, 564 MS1, 1120 MS2 of which one has fewer than 15 peaks.
  EXPECT_EQ(json_at(results, "summary.spectra_read").as_integer(), 1684);
  EXPECT_EQ(json_at(results, "summary.spectra_skipped.MS level 1").as_integer(), 564);
  EXPECT_EQ(json_at(results, "summary.spectra_searched").as_integer(), 1119);
  // The effective parameters are the demo job's.
  EXPECT_EQ(json_at(results, "parameters.database.decoy_tag").as_string(), "_rev");
  EXPECT_EQ(json_at(results, "parameters.fixed_modifications")
                .as_array()
                .at(0)
                .find("mass_da")
                ->as_double(),
            57.021464);
  EXPECT_EQ(json_at(results, "parameters.isotope_errors").as_array().at(1).as_integer(), 1);
  // Input checksums: SHA-256 of Debian openms-doc's BSA1.mzML (sha256sum).
  const auto& inputs = json_at(results, "inputs").as_array();
  ASSERT_EQ(inputs.size(), 2u);
  EXPECT_EQ(inputs[0].find("kind")->as_string(), "spectra");
  EXPECT_EQ(inputs[0].find("sha256")->as_string(),
            "dc9ed61d595328d4ef2f1de47d21f41b83e2eae7c9145e1d9b88e910c8cec2f7");
  EXPECT_EQ(inputs[1].find("kind")->as_string(), "fasta");

  const std::string tsv_bytes = read_file(dir / "plain/results.tsv");
  Table table = read_tsv(tsv_bytes);
  const int64_t reported = json_at(results, "summary.psms_at_1pct_fdr").as_integer();
  EXPECT_GE(reported, 39) << "Comet finds 39 target PSMs at 1% FDR on BSA1";
  EXPECT_EQ(static_cast<size_t>(reported), count_target_psms_at_1pct(table));
  EXPECT_EQ(static_cast<size_t>(json_at(results, "summary.psms").as_integer()), table.rows.size());
  // The demo's summary as README.md states it: PSMs, peptides, protein groups (albumin,
  // transthyretin, trypsin, keratin: scoring/protein_groups.hpp) and the accessions they hold (a
  // keratin peptide maps to 7), in results.json and on the printed line.
  EXPECT_EQ(reported, 40);
  EXPECT_EQ(json_at(results, "summary.peptides_at_1pct_fdr").as_integer(), 17);
  EXPECT_EQ(json_at(results, "summary.protein_groups_at_1pct_fdr").as_integer(), 4);
  EXPECT_EQ(json_at(results, "summary.proteins_at_1pct_fdr").as_integer(), 11);
  EXPECT_NE(plain.err.find("40 PSMs, 17 peptides, 4 protein groups (11 proteins)\n"),
            std::string::npos)
      << plain.err;

  // Well-known tryptic peptides of bovine serum albumin (P02769) among the accepted PSMs
  // (YLYEIAR, accepted until the null peptides were mass-matched at their N-terminus, now has
  // spectrum_q 0.013: scoring/spectrum_scorer.cpp).
  std::multiset<std::string> accepted = accepted_peptides(table);
  for (const char* peptide : {"HLVDEPQNLIK", "LVTDLTK", "AEFVEVTK", "LVVSTQTALA", "DLGEEHFK",
                              "LC[UNIMOD:4]VLHEK", "YIC[UNIMOD:4]DNQDTISSK"}) {
    EXPECT_GE(accepted.count(peptide), 1u) << peptide;
  }
  for (size_t r = 0; r < table.rows.size(); ++r) {
    if (table.cell(r, "peptide") == "HLVDEPQNLIK" && table.cell(r, "label") == "1") {
      EXPECT_NE(table.cell(r, "proteins").find("ALBU_BOVIN"), std::string::npos);
      // H L V D E P Q N L I K + H2O, monoisotopic residue masses (Unimod), 1304.70883 Da.
      EXPECT_NEAR(std::stod(table.cell(r, "calcmass")), 1304.70883, 1e-4);
    }
  }

  // --zstd: the same search writes results.tsv.zst, which decompresses to the same bytes.
  CommandResult zstd =
      run_ionflow({"search", job, kBsa1, "-f", kBsaFasta, "-o", dir / "zstd", "-q", "--zstd"}, dir);
  ASSERT_EQ(zstd.exit_code, 0) << zstd.err;
  EXPECT_EQ(list_directory(dir / "zstd"),
            (std::vector<std::string>{"results.json", "results.tsv.zst"}));
  CommandResult unpacked =
      run_command("zstd -dc " + shell_quote(dir / "zstd/results.tsv.zst"), dir);
  ASSERT_EQ(unpacked.exit_code, 0) << unpacked.err;
  EXPECT_EQ(unpacked.out.size(), tsv_bytes.size());
  EXPECT_TRUE(unpacked.out == tsv_bytes) << "results.tsv.zst differs from results.tsv";
  EXPECT_TRUE(json_at(read_json_file(dir / "zstd/results.json"), "parameters.zstd").as_bool());
}

TEST(DemoSearch, EcoliSmallFindsAtLeastCometsPsms) {
  ASSERT_NO_FATAL_FAILURE(require_file(kIonflow));
  ASSERT_NO_FATAL_FAILURE(require_file(kEcoliSpectra));
  ASSERT_NO_FATAL_FAILURE(require_file(kEcoliFasta));
  TempDir dir;
  CommandResult run = run_ionflow({"search", kSourceDir + "/examples/ecoli_demo.json",
                                   kEcoliSpectra, "-f", kEcoliFasta, "-o", dir / "out", "-q"},
                                  dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  JsonValue results = read_json_file(dir / "out/results.json");
  EXPECT_EQ(json_at(results, "summary.spectra_read").as_integer(), 139);
  EXPECT_EQ(json_at(results, "parameters.database.decoy_tag").as_string(), "rev_");
  EXPECT_EQ(json_at(results, "parameters.decoy_tag_position").as_string(), "prefix");
  Table table = read_tsv(read_file(dir / "out/results.tsv"));
  const int64_t reported = json_at(results, "summary.psms_at_1pct_fdr").as_integer();
  EXPECT_GE(reported, 83) << "Comet finds 83 target PSMs at 1% FDR on Ecoli_MS2_small";
  EXPECT_EQ(static_cast<size_t>(reported), count_target_psms_at_1pct(table));
  // Decoys are the FASTA's own, prefixed rev_: every decoy PSM names only rev_ proteins.
  size_t decoys = 0;
  for (size_t r = 0; r < table.rows.size(); ++r) {
    if (table.cell(r, "label") == "-1") {
      ++decoys;
      EXPECT_EQ(table.cell(r, "proteins").rfind("rev_", 0), 0u) << table.cell(r, "proteins");
    }
  }
  EXPECT_GT(decoys, 0u);
}

}  // namespace
}  // namespace ionflow::e2e
