// The search as the pipeline calls it, stage by stage, with no actor code:
//   prepare_spectrum  (parsers)  RawSpectrum -> Queries, or a skip reason
//   SpectrumScorer    (scorers)  Query -> ranked PSMs against a shared PeptideIndex
//   finalize_psms     (writer)   all PSMs of a job -> best per spectrum, q-values
// The writer keeps a job's PSMs on disk (io/psm_spill.hpp) and finalizes only their facts
// (finalize_psm_facts, psm_facts.hpp); finalize_psms is the same on whole Psms in RAM.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "scoring/peptide_index.hpp"
#include "scoring/precursor_calibration.hpp"
#include "scoring/psm.hpp"
#include "scoring/psm_facts.hpp"
#include "scoring/query.hpp"
#include "scoring/rescoring.hpp"
#include "scoring/search_parameters.hpp"
#include "scoring/spectrum.hpp"

namespace ionflow {

struct PreparedSpectrum {
  std::vector<Query> queries;  // one per assumed charge; empty when skipped
  std::string skip_reason;     // "" or a short reason counted in the job summary, e.g.
                               // "too few peaks", "no precursor m/z", "not MS2"
};

// Top-N peaks, precursor peak removal, optional deisotoping, normalisation; one Query per charge
// (the file's, or each of [min_precursor_charge, max_precursor_charge] when unknown).
PreparedSpectrum prepare_spectrum(const RawSpectrum& spectrum, const SearchParameters& params);

class FragmentIndex;   // fragment_index.hpp
class FragmentSlices;  // fragment_slices.hpp

// SpectrumScorer's first pass (below) acts on queries whose precursor windows hold more than
// kFragmentPrefilterAbove peptides (4 x its 800-peptide null) and keeps kFragmentTopK of them
// (see scoring/spectrum_scorer.cpp for the measured choice).
inline constexpr size_t kFragmentPrefilterAbove = 3200;
inline constexpr size_t kFragmentTopK = 800;

// Scores queries against the index. Holds per-thread scratch space: use one per thread/actor.
class SpectrumScorer {
 public:
  // `fragments` (optional; built from `index` with params.ion_types, see fragment_index.hpp):
  // a query whose precursor windows hold more than kFragmentPrefilterAbove peptides (an open
  // or wide-window search) has only the kFragmentTopK of them sharing the most fragment peaks
  // scored in full — the first pass of MSFragger and Sage — instead of every one
  // (scoring/spectrum_scorer.cpp, step 1). Without it every window peptide is scored.
  // `slices` (optional, instead of `fragments`; planned over `index`, shared between scorers):
  // the same first pass over a fragment index too large for memory, searching the slices each
  // query's windows overlap and merging their top-K — the same candidates, bit for bit.
  // Throws std::invalid_argument for a null `index`, both `fragments` and `slices` given, or
  // slices of another PeptideIndex.
  SpectrumScorer(std::shared_ptr<const PeptideIndex> index, const SearchParameters& params,
                 std::shared_ptr<const FragmentIndex> fragments = nullptr,
                 std::shared_ptr<FragmentSlices> slices = nullptr);
  ~SpectrumScorer();
  SpectrumScorer(const SpectrumScorer&) = delete;
  SpectrumScorer& operator=(const SpectrumScorer&) = delete;

  // The best params.report_psms PSMs for `query` (rank 1 first); empty if no candidate.
  std::vector<Psm> score(const Query& query);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Keeps the best params.report_psms PSMs per spectrum across its charge queries (re-ranking),
// then assigns spectrum, peptide and protein q-values (see fdr.hpp). Order of the result:
// by file_index, spectrum_index, rank.
std::vector<Psm> finalize_psms(std::vector<Psm> psms, const SearchParameters& params);

// What finalizing learned from a job's PSMs (its summary reports both, described).
struct FinalizeReport {
  PrecursorCalibration precursor_calibration;
  RescoringOutcome rescoring;
};

// The same on facts: sorts `facts.facts` into that order, drops the PSMs that are not kept and
// fills rank, score (rescored when rescoring applied) and the q-values. finalize_psms(psms) ==
// the Psms of the facts of finalize_psm_facts(facts_of(psms)) with apply_psm_fact.
FinalizeReport finalize_psm_facts(PsmFacts& facts, const SearchParameters& params);

// Copies what finalizing changes (rank, score, spectrum/peptide/protein q) from `fact` to `psm`.
void apply_psm_fact(const PsmFact& fact, Psm& psm);

}  // namespace ionflow
