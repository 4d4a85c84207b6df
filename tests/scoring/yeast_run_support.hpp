// The yeast development set for scoring tests: ../shared/data/metamorpheus-yeast-smallcalib
// (a 118-spectrum Orbitrap Velos HCD run as mzML and MGF, SmallYeast.fasta, MetaMorpheus'
// identifications; its SOURCE.txt says whence). IONFLOW_SHARED_DATA overrides ../shared/data.
// Tests using it start with REQUIRE_YEAST_RUN(), which skips with the reason where the set is
// absent (a user's clone). Header-only; read_spectra and yeast_search throw what the readers throw.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "scoring/search.hpp"
#include "scoring_test_support.hpp"

namespace ionflow::yeast_run {

inline std::string directory() {
  const char* env = std::getenv("IONFLOW_SHARED_DATA");
  return (env != nullptr ? std::string(env) : std::string(IONFLOW_SOURCE_DIR) + "/../shared/data") +
         "/metamorpheus-yeast-smallcalib";
}

#define REQUIRE_YEAST_RUN()                                                            \
  if (!std::filesystem::exists(::ionflow::yeast_run::directory() +                     \
                               "/SmallCalibratible_Yeast.mzML")) {                     \
    GTEST_SKIP() << "development set not found: " << ::ionflow::yeast_run::directory() \
                 << " (../shared/data absent)";                                        \
  }

// Every spectrum of a peak list file (format detected from its first 4 KiB).
inline std::vector<RawSpectrum> read_spectra(const std::string& path) {
  const std::string content = scoring_test::read_file(path);
  auto reader = make_spectrum_reader(detect_peak_list_format(content.substr(0, 4096)), path, 0);
  std::vector<RawSpectrum> spectra;
  reader->feed(content, spectra);
  reader->finish(spectra);
  return spectra;
}

// The benchmark's high-res settings (perf/ident): 10 ppm, 0.02 Da, isotope errors 0/+1,
// Carbamidomethyl (C) fixed, Oxidation (M) variable, reversed-protein decoys.
inline SearchParameters parameters() {
  SearchParameters p;
  p.precursor_tolerance = Tolerance::Ppm(-10, 10);
  p.fragment_tolerance = Tolerance::Da(-0.02, 0.02);
  p.isotope_errors = {0, 1};
  p.database.decoy_generation = DecoyGeneration::kReverseProtein;
  p.database.fixed_modifications.push_back(scoring_test::carbamidomethyl());
  p.database.variable_modifications.push_back(scoring_test::oxidation());
  return p;
}

// Rank-1 PSMs by MS2 order of `spectra` searched against SmallYeast.fasta (rev_ decoys).
inline std::map<uint64_t, Psm> search(const std::vector<RawSpectrum>& spectra,
                                      const SearchParameters& params) {
  const std::string fasta = directory() + "/SmallYeast.fasta";
  PeptideIndexLimits limits;
  limits.threads = 2;
  auto index = build_peptide_index(
      parse_fasta(scoring_test::read_file(fasta), fasta, {"rev_", false}), params, nullptr, limits);
  return scoring_test::search_rank1(index, params, spectra);
}

}  // namespace ionflow::yeast_run
