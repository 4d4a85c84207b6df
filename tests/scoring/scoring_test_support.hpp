// Shared by the scoring suite's tests: whole-file reads of the real example data, the E. coli
// example's queries and the modifications most tests use. Header-only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "io/fasta_reader.hpp"
#include "io/spectrum_reader.hpp"
#include "scoring/modification.hpp"
#include "scoring/peptide_index.hpp"
#include "scoring/search.hpp"

namespace ionflow::scoring_test {

// A reproducible 53-bit random number from `state` (xorshift64*, Vigna 2016), for tests that
// draw many random cases without <random>'s implementation-defined distributions.
inline uint64_t next_random(uint64_t& state) {
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return (state * 2685821657736338717ULL) >> 11;
}

// The whole file ("" if it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Unimod: Carbamidomethyl = UNIMOD:4 (+57.021464 Da), Oxidation = UNIMOD:35 (+15.994915 Da),
// Acetyl = UNIMOD:1 (+42.010565 Da).
inline Modification carbamidomethyl() {
  return {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true};
}
inline Modification oxidation() {
  return {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false};
}
inline Modification protein_n_acetyl() {
  return {"Acetyl", 1, 42.010565, ModificationPosition::kProteinNTerm, "", false};
}

// The E. coli example's search: its FASTA's decoys (prefix "rev_"), Carbamidomethyl (C) fixed,
// Oxidation (M) variable, isotope error 0, the given precursor window.
inline SearchParameters ecoli_parameters(Tolerance precursor) {
  SearchParameters p;
  p.database.decoy_generation = DecoyGeneration::kNone;
  p.database.decoy_tag = "rev_";
  p.database.fixed_modifications.push_back(carbamidomethyl());
  p.database.variable_modifications.push_back(oxidation());
  p.precursor_tolerance = precursor;
  p.isotope_errors = {0};
  return p;
}

// The whole peptide index of the E. coli target-decoy FASTA (IONFLOW_EXAMPLES_DIR), 2 threads.
inline std::shared_ptr<const PeptideIndex> ecoli_index(const SearchParameters& params) {
  const std::string path = std::string(IONFLOW_EXAMPLES_DIR) +
                           "/TOPPAS/data/Identification/target_decoy_Ecoli_K12_TaxID_83333."
                           "proteomes.fasta";
  FastaOptions options{"rev_", false};
  PeptideIndexLimits limits;
  limits.threads = 2;
  return build_peptide_index(parse_fasta(read_file(path), path, options), params, nullptr, limits);
}

// The prepared queries of the E. coli example's 139 MS2 spectra (ID/Ecoli_MS2_small.mzML under
// IONFLOW_EXAMPLES_DIR) with `params`, in file order, or in ascending neutral mass (the order in
// which the pipeline's scorers get them) when `by_mass`.
inline std::vector<Query> ecoli_queries(const SearchParameters& params, bool by_mass = false) {
  const std::string path = std::string(IONFLOW_EXAMPLES_DIR) + "/ID/Ecoli_MS2_small.mzML";
  const std::string content = read_file(path);
  auto reader = make_spectrum_reader(detect_peak_list_format(content.substr(0, 4096)), path, 0);
  std::vector<RawSpectrum> spectra;
  reader->feed(content, spectra);
  reader->finish(spectra);
  std::vector<Query> queries;
  for (const RawSpectrum& s : spectra) {
    for (Query& q : prepare_spectrum(s, params).queries) queries.push_back(std::move(q));
  }
  if (by_mass) {
    std::stable_sort(queries.begin(), queries.end(), [](const Query& a, const Query& b) {
      return a.neutral_mass < b.neutral_mass;
    });
  }
  return queries;
}

// Searches `spectra` against `index` as the pipeline does (prepare, score, finalize) and returns
// the rank-1 PSMs by spectrum_index.
inline std::map<uint64_t, Psm> search_rank1(std::shared_ptr<const PeptideIndex> index,
                                            const SearchParameters& params,
                                            const std::vector<RawSpectrum>& spectra) {
  SpectrumScorer scorer(std::move(index), params);
  std::vector<Psm> psms;
  for (const RawSpectrum& s : spectra) {
    for (const Query& q : prepare_spectrum(s, params).queries) {
      for (Psm& m : scorer.score(q)) psms.push_back(std::move(m));
    }
  }
  std::map<uint64_t, Psm> out;
  for (Psm& m : finalize_psms(std::move(psms), params)) {
    if (m.rank == 1) out.emplace(m.spectrum_index, std::move(m));
  }
  return out;
}

}  // namespace ionflow::scoring_test
