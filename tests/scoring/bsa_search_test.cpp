// The done-test: real ion-trap spectra of BSA1.mzML (openms-doc examples, via
// IONFLOW_EXAMPLES_DIR) searched with the demo settings against bovine serum albumin (P02769,
// from the BSA FASTA of the examples) plus reversed-peptide decoys. The spectra are ones OMSSA
// identified with q-value <= 0.035 in BSA/BSA1_OMSSA.idXML (matched by retention time and
// precursor m/z); our rank-1 peptide must be the same target peptide, with a small E-value.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/fasta_reader.hpp"
#include "io/spectrum_reader.hpp"
#include "scoring/fdr.hpp"
#include "scoring/search.hpp"
#include "scoring_test_support.hpp"

namespace ionflow {
namespace {

const std::string kExamples = IONFLOW_EXAMPLES_DIR;
const std::string kMzml = kExamples + "/BSA/BSA1.mzML";
const std::string kFasta =
    kExamples +
    "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta";

using scoring_test::read_file;

SearchParameters demo_parameters() {
  SearchParameters params;  // trypsin, 1 missed cleavage, ±10 ppm, ±0.5 Da, b/y
  params.isotope_errors = {0, 1};
  params.database.decoy_generation = DecoyGeneration::kReversePeptide;
  // Unimod: Carbamidomethyl UNIMOD:4 +57.021464 Da; Oxidation UNIMOD:35 +15.994915 Da.
  params.database.fixed_modifications.push_back(
      {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true});
  params.database.variable_modifications.push_back(
      {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false});
  return params;
}

struct Expected {
  double rt_seconds;
  double precursor_mz;
  const char* proforma;
};

// From BSA1_OMSSA.idXML (RT, MZ, best hit; OMSSA q-value 0 unless noted).
const Expected kExpected[] = {
    {1804.158, 722.3247, "YIC[UNIMOD:4]DNQDTISSK"},
    {1933.405, 395.2393, "LVTDLTK"},
    {2015.593, 461.7475, "AEFVEVTK"},
    {2098.175, 554.2606, "EAC[UNIMOD:4]FAVEGPK"},
    {2321.499, 464.2502, "YLYEIAR"},
    {2488.038, 435.9101, "HLVDEPQNLIK"},
    {2010.879, 379.7148, "GAC[UNIMOD:4]LLPK"},
    {1738.033, 443.7112, "DDSPDLPK"},  // OMSSA q 0.034
    {1875.547, 487.7323, "DLGEEHFK"},  // OMSSA q 0.034
};

TEST(BsaSearch, OmssaConfirmedSpectraRankTheirPeptideFirst) {
  // The test command fetches openms-doc (scripts/fetch-data.sh); missing data is a failure.
  ASSERT_TRUE(std::filesystem::exists(kMzml) && std::filesystem::exists(kFasta))
      << "openms-doc examples not found under " << kExamples;
  std::vector<Protein> proteins;
  for (Protein& p : parse_fasta(read_file(kFasta), kFasta, {"_rev", true})) {
    if (p.accession.starts_with("P02769") && !p.is_decoy) proteins.push_back(std::move(p));
  }
  ASSERT_EQ(proteins.size(), 1u);
  ASSERT_EQ(proteins[0].sequence.size(), 607u);  // ALBU_BOVIN precursor, UniProt P02769
  const SearchParameters params = demo_parameters();
  auto index = build_peptide_index(std::move(proteins), params);

  const std::string mzml = read_file(kMzml);
  auto reader = make_spectrum_reader(PeakListFormat::kMzML, kMzml, 0);
  std::vector<RawSpectrum> spectra;
  reader->feed(mzml, spectra);
  reader->finish(spectra);
  ASSERT_EQ(spectra.size(), 1120u);  // MS2 spectra of BSA1

  SpectrumScorer scorer(index, params);
  for (const Expected& e : kExpected) {
    SCOPED_TRACE(e.proforma);
    const RawSpectrum* found = nullptr;
    for (const RawSpectrum& s : spectra) {
      if (std::abs(s.rt_seconds - e.rt_seconds) < 0.01 &&
          std::abs(s.precursor_mz - e.precursor_mz) < 0.01) {
        found = &s;
      }
    }
    ASSERT_NE(found, nullptr);
    PreparedSpectrum prepared = prepare_spectrum(*found, params);
    ASSERT_EQ(prepared.skip_reason, "");
    std::vector<Psm> psms;
    for (const Query& q : prepared.queries) {
      for (Psm& p : scorer.score(q)) psms.push_back(std::move(p));
    }
    std::vector<Psm> best = finalize_psms(psms, params);
    ASSERT_EQ(best.size(), 1u);
    EXPECT_EQ(best[0].proforma, e.proforma);
    EXPECT_FALSE(best[0].decoy);
    EXPECT_EQ(best[0].evidence.at(0).protein_accession.substr(0, 6), "P02769");
    EXPECT_LT(std::abs(best[0].precursor_ppm), 10.0);
    // A one-protein database scores only ~200 peptides per spectrum, so E-values (expected
    // counts among them) stay modest. Its null is the protein's other peptides moved to the
    // precursor mass (mass-matched at the N-terminus, scoring/spectrum_scorer.cpp), among them
    // the answer's missed-cleavage neighbours and the peptides sharing its C-terminal residues,
    // whose y ions then match the answer's: these nine have E-values 0.20-0.62 (0.23-0.54 when
    // the nulls' y ions were the ones moved, all below 0.2 before mass-matching), each clear of
    // the next candidate.
    EXPECT_LT(best[0].evalue, 0.7);
    EXPECT_GT(best[0].delta_next, 0.0);
    EXPECT_GE(best[0].matched_peaks, 5);
  }
}

}  // namespace
}  // namespace ionflow
