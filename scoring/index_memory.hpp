// Index memory: an estimate, before any index is built, of the memory the peptide index of a
// database will take, so that a job whose settings blow it up (semi-enzymatic digestion, many
// missed cleavages, many variable modifications) is refused in seconds with the numbers instead
// of being killed by the kernel's OOM killer after minutes.
//
// What it counts (the build's phases, peptide_index.cpp; the peak is the larger phase):
//   - digest phase: the proteins' residues (and their generated decoys) plus one record per
//     digested peptide occurrence: kDigestRecordBytes (24, the Record struct) for a whole index,
//     kDigestRangeBytes (8, DigestedPeptideRange) for a narrow-window job that indexes only the
//     peptides its queries reach, times kDigestPhaseFactor for the sort's second buffer and
//     the allocator's slack.
//   - index phase (whole index only): peptide forms x kIndexBytesPerForm, plus the digest
//     records still alive while the index columns are filled.
// Occurrences are counted exactly by running the digestion without keeping its output (the
// digest of the human-size scale database takes ~1 s per 100 M occurrences on one core), or for
// an unspecific digest from each start's count; selected_index_memory_bound gives an upper
// bound instead, without digesting.
// Peptide forms are estimated from ModificationPlacer::form_count_bound (an upper bound per
// sequence) on a deterministic sample of the occurrences (one in kFormSampleStride), scaled
// to all of them: identical sequences are not merged here, so it over-counts where the
// database repeats itself.
// Source of each constant: kDigestRecordBytes and kDigestRangeBytes are sizeof of the structs
// (exact). kIndexBytesPerForm is measured: the built index keeps 54.5 bytes per form
// (peptide_index.hpp), but the build's peak RSS per *estimated* form (merge and mass-sort
// buffers, placed modifications) reached 73-80 bytes on five settings, so 80 keeps the estimate
// at or above the peak (estimate / peak RSS 1.0-1.5, perf/tool_index_memory.cpp, perf/README.md
// "Index memory: estimate against peak RSS"). kDigestPhaseFactor (records + the sort's second
// buffer) and kBaseBytes (the process, Unimod, I/O buffers) are assumptions, not fitted: the
// index phase was the peak in every measured setting.
//
// Thread-safety: pure functions of their arguments. Errors: std::invalid_argument from the
// enzyme and modification set-up (as build_peptide_index); IndexMemoryExceeded (below).
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "scoring/protein.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow {

inline constexpr double kDigestRecordBytes = 24.0;      // sizeof(Record) in peptide_index.cpp
inline constexpr double kDigestRangeBytes = 8.0;        // sizeof(DigestedPeptideRange)
inline constexpr double kDigestPhaseFactor = 2.0;       // assumed: records + sort buffer
inline constexpr double kIndexBytesPerForm = 80.0;      // measured: build peak per estimated form
inline constexpr double kBaseBytes = 64.0 * (1 << 20);  // assumed: process, Unimod, buffers
inline constexpr uint64_t kFormSampleStride = 16;
inline constexpr uint64_t kMaxUnspecificFormSamples = 64;  // per protein

struct IndexMemoryEstimate {
  uint64_t proteins = 0;       // searched, generated decoys included
  uint64_t residues = 0;       // of those proteins
  uint64_t occurrences = 0;    // digested peptide occurrences (targets and decoys): exact, or
                               // an upper bound from selected_index_memory_bound
  uint64_t peptide_forms = 0;  // estimated upper bound (unmodified forms included)
  bool whole_index = true;     // false: only the peptides the queries reach are indexed
  uint64_t digest_bytes = 0;   // digest phase
  uint64_t index_bytes = 0;    // index phase (0 when !whole_index: bounded at build time)
  uint64_t peak_bytes() const { return digest_bytes > index_bytes ? digest_bytes : index_bytes; }
};

// Estimates the peptide index of `proteins` (as parsed from the FASTA, decoys flagged) under
// `params`. `whole_index` false: a narrow-window job that indexes only the peptides its
// queries reach (peptide forms then counted but not charged; the build checks them against
// max_peptide_forms_within). Runs the digestion once without keeping its output, on `threads`
// threads (slices of the proteins; the estimate is the same for any thread count); an
// unspecific digest (no-enzyme) is counted per start instead, its forms sampled on at most
// kMaxUnspecificFormSamples occurrences per protein. Throws BuildCancelled (peptide_index.hpp)
// when `cancel` is set.
IndexMemoryEstimate estimate_index_memory(const std::vector<Protein>& proteins,
                                          const SearchParameters& params, bool whole_index,
                                          int threads = 1,
                                          const std::atomic<bool>* cancel = nullptr);

// An upper bound of estimate_index_memory(proteins, params, false) in O(proteins), without
// digesting: each residue starts at most (missed_cleavages + 1) fully specific peptides (a
// clipped N-terminal Met's extra start included), or max_len semi-specific or unspecific ones;
// generated decoys double their targets. occurrences is that bound, peptide_forms 0. A
// narrow-window job whose bound fits its budget needs no exact count: the digest cannot exceed
// it (the BSA demo's exact estimate was ~17 ms of CPU of a 0.2 s search).
IndexMemoryEstimate selected_index_memory_bound(const std::vector<Protein>& proteins,
                                                const SearchParameters& params);

// The most peptide forms an index may hold so that the build stays within `budget_bytes`
// (for PeptideIndexLimits::max_peptide_forms), at least 1.
uint64_t max_peptide_forms_within(const IndexMemoryEstimate& estimate, uint64_t budget_bytes);

// The error for an estimate above `budget_bytes`: the estimate, the budget, and the settings
// that drive it (semi-enzymatic, missed cleavages, lengths, variable modifications and
// max_variable_mods, decoys), with what to lower. `budget_source` says where the budget came
// from (e.g. "--max-memory").
std::string index_memory_error(const IndexMemoryEstimate& estimate, uint64_t budget_bytes,
                               const SearchParameters& params, const std::string& budget_source);

// The decision the database stage takes before it digests: `budget_bytes` 0 = no budget.
// Returns the PeptideIndexLimits::max_peptide_forms to build with (the smaller of
// `default_max_forms` and max_peptide_forms_within). Throws IndexMemoryExceeded
// (index_memory_error's text) when the estimate's peak is above the budget.
class IndexMemoryExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
uint64_t check_index_memory(const IndexMemoryEstimate& estimate, uint64_t budget_bytes,
                            const SearchParameters& params, const std::string& budget_source,
                            uint64_t default_max_forms);

// "1.5 GiB", "340 MiB": bytes for messages.
std::string memory_size_text(uint64_t bytes);

}  // namespace ionflow
