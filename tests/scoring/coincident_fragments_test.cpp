// XCorr of a peptide whose fragments coincide, on a real high-resolution spectrum: scan 25800
// of Comet's HeLa fixture (tests/data/hela_fixture_scan25800.mgf; tests/data/tools/README.md
// says whence), 3+ at m/z 391.5591. Searched at ±1.2 Da with 0.02 Da fragments (perf/ident's
// HeLa-wide settings), the reversed human peptide RDASLSVDPGR ranks first: its b5 and y5 are
// both 543.2885 (RDASL and VDPGR have the same residue sum), b6 and y6 630.3206, and b2+, b5++
// and y5++ fall on one peak at 272.148, so 11 matched fragments sit on 7 peaks. XCorr counts a
// high-resolution bin once per peptide (xcorr.hpp): 1.21, near Comet's 1.249 for this PSM
// (its pep.xml, the same spectrum and settings); counting each fragment gave 1.85.
#include <gtest/gtest.h>

#include "scoring/search.hpp"
#include "scoring_test_support.hpp"

namespace ionflow {
namespace {

TEST(CoincidentFragments, HighResolutionXcorrCountsTheirSharedPeaksOnce) {
  const std::string mgf = IONFLOW_TEST_DATA_DIR "/hela_fixture_scan25800.mgf";
  auto reader = make_spectrum_reader(PeakListFormat::kMgf, mgf, 0);
  std::vector<RawSpectrum> spectra;
  reader->feed(scoring_test::read_file(mgf), spectra);
  reader->finish(spectra);
  ASSERT_EQ(spectra.size(), 1u);

  SearchParameters p;
  p.precursor_tolerance = Tolerance::Da(-1.2, 1.2);
  p.fragment_tolerance = Tolerance::Da(-0.02, 0.02);
  p.isotope_errors = {0};
  p.deisotope = true;
  p.database.enzyme.missed_cleavages = 2;
  p.database.decoy_generation = DecoyGeneration::kNone;
  p.database.fixed_modifications.push_back(scoring_test::carbamidomethyl());
  const std::string fasta = ">rev_sp|A8MQ27|NEU1B_HUMAN excerpt\nRDASLSVDPGR\n";
  auto index = build_peptide_index(parse_fasta(fasta, "excerpt.fasta", {"rev_", false}), p);

  const std::map<uint64_t, Psm> psms = scoring_test::search_rank1(index, p, spectra);
  ASSERT_EQ(psms.size(), 1u);
  const Psm& psm = psms.begin()->second;
  EXPECT_EQ(psm.sequence, "RDASLSVDPGR");
  EXPECT_NEAR(psm.calcmass, 1171.5945, 1e-3);
  EXPECT_EQ(psm.matched_peaks, 11);  // the hyperscore still counts each fragment's match
  EXPECT_NEAR(psm.xcorr, 1.21, 0.01);
}

}  // namespace
}  // namespace ionflow
