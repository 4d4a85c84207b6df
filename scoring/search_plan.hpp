// The database decisions of one job, made before and while its index is built (pure: no file
// access, no logging; the database actor logs what these return):
//   - whole or selected index: a narrow-window search indexes only the peptides its queries'
//     precursor windows reach, plus the null pool (scoring/precursor_selection.hpp);
//   - a searchable database: peptides, and both targets and decoys for target-decoy FDR;
//   - the fragment-ion prefilter of a wide-window (open) search: none, the whole fragment index,
//     or its slices within a memory budget (scoring/fragment_index.hpp, fragment_slices.hpp).
// Thread-safety: plain functions; build_* use `build_threads` threads of their own.
// Errors: std::runtime_error with a message naming the FASTA file; BuildCancelled when `cancel`
// is set during a build; std::bad_alloc is turned into out_of_memory_building's error.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "scoring/fragment_index.hpp"
#include "scoring/fragment_slices.hpp"
#include "scoring/peptide_index.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow {

// PrecursorSelection's bitmap takes 32 bytes per Da of peptide_max_mass: above 100,000 Da (no
// tryptic peptide weighs that much; a user may set 1e6 for "no limit") the whole index is built.
inline constexpr double kMaxSelectedPeptideMassDa = 100000.0;

// Whether a job indexes only the peptides its queries' windows reach: not when it asks for the
// whole index (`whole_index`), not with the fragment-ion prefilter (a wide window: it needs every
// window peptide), nor with modifications FormMassShifts does not model. Such a job does not use
// the index cache: on the BSA example a cache hit (loading 1.47 M forms) took 0.59 s for the
// whole job, the selected index 0.30 s.
bool selects_peptides(const SearchParameters& params, bool whole_index);

// The error for running out of memory while building the peptide index of `protein_count`
// proteins from `fasta_path`: names the settings to lower.
std::runtime_error out_of_memory_building(const std::string& fasta_path,
                                          const DatabaseParameters& db, size_t protein_count);

// A database the job cannot search meaningfully: no peptide at all, or (target-decoy FDR needs
// both kinds) no decoys or no targets. With decoys taken from the FASTA (generate_decoys false), a
// decoy tag that matches no accession made every PSM a target with q = 0 (a new user's job with
// "DECOY_" against a "rev_" database passed all 133 PSMs at 1% FDR). Throws std::runtime_error
// naming the file, the tag and an accession.
void check_searchable_database(const std::string& fasta_path, const DatabaseParameters& db,
                               const PeptideIndex& index);

// The index of a narrow-window search: only the peptides the queries' precursor windows reach
// (each query's candidates are exactly the whole index's) and the null pool. `scope` says what
// it kept (JobSummary::index_scope).
struct SelectedIndex {
  std::shared_ptr<const PeptideIndex> index;
  std::string scope;
  double covered_fraction = 0.0;  // of the mass range, 0..1 (PrecursorSelection)
};
SelectedIndex build_selected_index(DigestedDatabase digested,
                                   const std::vector<double>& query_masses_da,
                                   const SearchParameters& params, const std::string& fasta_path,
                                   int build_threads, const std::atomic<bool>* cancel);
// The same for one sorted run of a job's queries (a job that selects per run, actors/sorter.cpp):
// `digested` is not consumed and builds the next run's index too (every index shares the
// digest's proteins). Candidates and null pool of every query of the run are those of the whole
// index.
SelectedIndex build_run_index(const DigestedDatabase& digested,
                              const std::vector<double>& query_masses_da,
                              const SearchParameters& params, const std::string& fasta_path,
                              int build_threads, const std::atomic<bool>* cancel);

// Wide precursor windows (open search): the fragment-ion index of the scorers' first pass, built
// here when it fits `budget_bytes`; above it, its slices, which the scorers build on demand
// within that budget (MSFragger's split database). Both give the same candidates. Neither when
// the windows are narrow or hold few peptides. `status` is JobSummary::fragment_index; `info`
// and `warning` are for the job's log ("" = nothing to say); `build_seconds` the time spent.
struct FragmentPrefilter {
  std::shared_ptr<const FragmentIndex> whole;
  std::shared_ptr<FragmentSlices> slices;
  std::string status;
  std::string info;
  std::string warning;
  double build_seconds = 0.0;
};
// `stop`: the job's abort flag (stops a slice build by the scorers).
FragmentPrefilter build_fragment_prefilter(const std::shared_ptr<const PeptideIndex>& peptides,
                                           const SearchParameters& params, size_t budget_bytes,
                                           int build_threads, const std::atomic<bool>* cancel,
                                           std::shared_ptr<const std::atomic<bool>> stop);

// "12 MB", or "640 KB" below 1 MB (a tiny budget's slices read "0 MB" before).
std::string megabytes(size_t bytes);

}  // namespace ionflow
