// FragmentIndex: an inverted index from theoretical fragment m/z to peptide, for fast candidate
// pre-filtering — the fragment-ion index of MSFragger (Kong et al. 2017, Nat. Methods 14:513)
// in the bucketed layout of Sage (Lazear 2023, J. Proteome Res. 22:3652).
//
// Layout: the peptides of a PeptideIndex (ascending neutral mass) are cut into buckets of
// `bucket_size` consecutive peptides (Sage's `bucket_size`, default 8192). Every theoretical
// fragment of params.ion_types ("by" by default) at fragment charge 1 (as Sage indexes them;
// ion_series.hpp computes the masses) with m/z in [fragment_min_mz, fragment_max_mz] becomes one
// 8-byte FragmentEntry {float m/z, uint32 peptide id}; within a bucket the entries are sorted by
// m/z. A query then visits only the buckets whose peptide-id range overlaps its precursor
// window(s), binary-searches each peak's fragment tolerance window, and counts hits of the
// peptides inside the window.
//
// Slices: a FragmentIndex covers the peptide ids [first_peptide, last_peptide) of one slice. When
// the whole index would exceed FragmentIndexOptions::memory_budget_bytes, plan_slices() cuts the
// peptide list into slices that fit, and search_in_slices() builds one slice at a time, searches
// a batch of queries against it and merges each slice's top-K (MSFragger's "split database"
// mode). Slices partition the peptide ids, so the merged top-K equals the unsliced one exactly.
//
// Thread-safety: a built FragmentIndex is immutable and may be shared between threads. A
// FragmentSearcher holds scratch space: use one per thread (like SpectrumScorer).
// Errors: std::invalid_argument for impossible options (bucket_size 0, min m/z > max m/z, an
// unknown ion type letter, a slice range outside the peptide index, top_k 0).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "scoring/peptide_index.hpp"
#include "scoring/query.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow {

struct FragmentIndexOptions {
  // Fragment m/z range kept in the index, Th (fragment charge 1). Sage's defaults are 150..2000.
  double fragment_min_mz = 150.0;
  double fragment_max_mz = 2000.0;
  // Consecutive peptides (by neutral mass) per bucket; Sage's default bucket_size 8192. For
  // narrow precursor windows use suggested_bucket_size() (128): 2-8x faster, see below.
  uint32_t bucket_size = 8192;
  // Threads building the index (buckets are independent); 0 = std::thread::hardware_concurrency.
  // The result is identical for any count.
  unsigned build_threads = 1;
  // Upper limit on the bytes of one built slice (entries + bucket table); 0 = no limit.
  // plan_slices() plans against an upper bound of the entry count (every fragment kept).
  size_t memory_budget_bytes = 0;
  // When set (not owned), FragmentIndex::build reads it before each bucket and throws
  // BuildCancelled (peptide_index.hpp) once it is true: a job cancelled during the build stops
  // within one bucket instead of after the whole index (seconds at a few hundred MB). Not
  // part of the index's identity (index cache keys ignore it).
  const std::atomic<bool>* cancel = nullptr;
};

// One indexed fragment: 8 bytes.
struct FragmentEntry {
  float mz = 0.0f;       // Th, fragment charge 1
  uint32_t peptide = 0;  // peptide id: PeptideIndex::peptide(id)
};
static_assert(sizeof(FragmentEntry) == 8, "FragmentEntry must stay 8 bytes");

// Bucket b holds entries [offset, offset + count), sorted by m/z (ties: peptide id), of the
// peptides [min_peptide, max_peptide] (inclusive; consecutive ids).
struct FragmentBucket {
  uint64_t offset = 0;
  uint32_t count = 0;
  uint32_t min_peptide = 0;
  uint32_t max_peptide = 0;
  uint32_t reserved = 0;  // explicit padding (24 bytes, no indeterminate bytes when stored)
};
static_assert(sizeof(FragmentBucket) == 24, "FragmentBucket layout is stored by io/index_cache");

class FragmentIndex {
 public:
  FragmentIndex() = default;
  FragmentIndex(FragmentIndex&&) = default;
  FragmentIndex& operator=(FragmentIndex&&) = default;
  FragmentIndex(const FragmentIndex&) = delete;
  FragmentIndex& operator=(const FragmentIndex&) = delete;

  // Indexes peptides [first_peptide, last_peptide) of `peptides`; both 0 (the default) means
  // the whole index.
  // Ion types from params.ion_types. Throws std::invalid_argument (see header).
  static FragmentIndex build(const PeptideIndex& peptides, const SearchParameters& params,
                             const FragmentIndexOptions& options, size_t first_peptide = 0,
                             size_t last_peptide = 0);

  // Rebuilds from stored parts (io/index_cache). Checks that buckets tile `entries` and the id
  // range, and that each bucket is sorted; throws std::invalid_argument naming the first defect.
  static FragmentIndex from_parts(std::vector<FragmentEntry> entries,
                                  std::vector<FragmentBucket> buckets, uint32_t first_peptide,
                                  uint32_t last_peptide, const FragmentIndexOptions& options);

  const std::vector<FragmentEntry>& entries() const { return entries_; }
  const std::vector<FragmentBucket>& buckets() const { return buckets_; }
  uint32_t first_peptide() const { return first_peptide_; }
  uint32_t last_peptide() const { return last_peptide_; }  // exclusive
  const FragmentIndexOptions& options() const { return options_; }

  // Memory held: entries + bucket table, bytes. bytes_per_entry() = bytes() / entries (8 + the
  // bucket table's share).
  size_t bytes() const;
  double bytes_per_entry() const;

 private:
  std::vector<FragmentEntry> entries_;
  std::vector<FragmentBucket> buckets_;
  uint32_t first_peptide_ = 0;
  uint32_t last_peptide_ = 0;
  FragmentIndexOptions options_;
};

// A bucket size for the precursor window of `params`: 128 peptides when the window is at most
// 1 Da wide at 2000 Da (ppm windows up to ±250 ppm, Da windows up to 1 Da), else Sage's 8192.
// Small buckets make a narrow-window query scan few entries per peak; wide (open) windows span
// many buckets, where per-bucket overhead dominates. Measured with perf/bench_fragment_index
// (E. coli target-decoy, 937k peptides, 139 real spectra, top-50, one core, CPU time):
//   10 ppm precursor, 0.5 Da fragments:  B=8192 12.7k q/s, 512 67k, 128 98k; brute force 43k
//   10 ppm precursor, 20 ppm fragments:  B=8192 23.8k q/s, 512 99k, 128 147k; brute force 33k
//   ±100 Da precursor, 0.5 Da fragments: B=8192 1065 q/s, 2048 691, 128 374; brute force 29
uint32_t suggested_bucket_size(const SearchParameters& params);

// Whether the precursor window of `params` is wide — more than 1 Da across at 2000 Da (above
// ±250 ppm, or a Da window wider than 1 Da): the rule of suggested_bucket_size(), and when a job
// builds a FragmentIndex for the scorers' first pass (SpectrumScorer, search.hpp). Narrow windows
// hold a few hundred peptides, fewer than the scorer's null needs, so the index cannot save work.
bool wide_precursor_window(const SearchParameters& params);

// Upper bound of the bytes a FragmentIndex over peptides [first, last) takes: every fragment of
// the ion types (n − 1 per type and peptide of length n) kept, plus the bucket table.
size_t estimate_fragment_index_bytes(const PeptideIndex& peptides, const SearchParameters& params,
                                     const FragmentIndexOptions& options, size_t first,
                                     size_t last);

// Consecutive half-open peptide ranges covering the whole PeptideIndex, each estimated to fit
// options.memory_budget_bytes (one range when the budget is 0 or the whole index fits). A range
// holds at least one peptide even when that one alone exceeds the budget.
std::vector<std::pair<size_t, size_t>> plan_slices(const PeptideIndex& peptides,
                                                   const SearchParameters& params,
                                                   const FragmentIndexOptions& options);

// One pre-filtered candidate.
struct FragmentCandidate {
  uint32_t peptide = 0;           // peptide id: PeptideIndex::peptide(id)
  uint16_t matched_peaks = 0;     // query peaks matching >= 1 indexed fragment of the peptide
  int8_t isotope_error = 0;       // the params.isotope_errors entry of smallest |k| reaching it
  float summed_intensity = 0.0f;  // sum of the matched peaks' intensities (each peak once)
};

// Candidates of one query, best first: matched_peaks descending, then summed_intensity
// descending, then peptide id ascending (a total order: results are deterministic).
struct FragmentCandidates {
  std::vector<FragmentCandidate> top;  // at most top_k, only peptides with matched_peaks >= 1
  size_t window_candidates = 0;        // peptides of the whole PeptideIndex in the windows
};

// Whether `a` ranks before `b` in FragmentCandidates::top.
inline bool ranks_before(const FragmentCandidate& a, const FragmentCandidate& b) {
  if (a.matched_peaks != b.matched_peaks) return a.matched_peaks > b.matched_peaks;
  if (a.summed_intensity != b.summed_intensity) return a.summed_intensity > b.summed_intensity;
  return a.peptide < b.peptide;
}

// The precursor windows of `query` as disjoint ascending half-open peptide-id ranges, each with
// the isotope error of smallest |k| (ties: the smaller k) whose window holds it: for each k of
// params.isotope_errors the peptides of neutral mass m with query.neutral_mass − k·C13 inside
// params.precursor_tolerance.bounds(m) (the rule of spectrum_scorer.cpp; C13 spacing from
// mass.hpp). `out` is cleared first. Throws std::invalid_argument for more than 16 isotope
// errors.
struct PrecursorWindow {
  size_t first = 0;
  size_t last = 0;
  int isotope_error = 0;
};
void precursor_windows(const PeptideIndex& peptides, const SearchParameters& params,
                       const Query& query, std::vector<PrecursorWindow>& out);

// Searches queries against a FragmentIndex. Holds reusable scratch (per-candidate counters for
// the window only, window list, selection heap): no allocation per query once grown.
// A peak matches an indexed fragment of m/z f when its m/z lies in
// params.fragment_tolerance.bounds(f) (the hyperscore.hpp rule), f compared as stored (float).
class FragmentSearcher {
 public:
  // `peptides` must outlive the searcher. Throws std::invalid_argument when top_k == 0.
  FragmentSearcher(const PeptideIndex& peptides, const SearchParameters& params, size_t top_k);
  FragmentSearcher(const FragmentSearcher&) = delete;
  FragmentSearcher& operator=(const FragmentSearcher&) = delete;

  // Replaces `out` with the top-K candidates of `query` among the peptides of `index` (a slice
  // holds only its own), and the window candidate count over the whole PeptideIndex.
  // REQUIRES: `index` was built from the same PeptideIndex and params.ion_types; query.peaks
  // ascending in m/z (the Query contract; prepare_spectrum guarantees it).
  void search(const FragmentIndex& index, const Query& query, FragmentCandidates& out);

  // Like search(), but merges this slice's candidates into `inout` (kept top-K; window
  // candidate count set). For slices of one PeptideIndex searched one after the other.
  void search_and_merge(const FragmentIndex& index, const Query& query, FragmentCandidates& inout);

  size_t top_k() const { return top_k_; }

 private:
  struct Counter {
    uint32_t last_peak = 0;  // 1 + the index of the last peak counted (each peak counts once)
    uint32_t matched = 0;
    float intensity = 0.0f;
  };
  void collect(const FragmentIndex& index, const Query& query, size_t first, size_t last,
               int isotope_error);

  const PeptideIndex& peptides_;
  SearchParameters params_;
  size_t top_k_;
  std::vector<PrecursorWindow> windows_;
  std::vector<Counter> counters_;
  std::vector<FragmentCandidate> heap_;  // min-heap under ranks_before: worst on top
  std::vector<FragmentCandidate> merged_;
};

// Statistics of a sliced search.
struct SlicedSearchStats {
  size_t slices = 0;
  size_t entries = 0;          // summed over slices
  size_t max_slice_bytes = 0;  // the largest slice built
};

// MSFragger-style batch search within a memory budget: for each slice of plan_slices(), builds
// the slice's FragmentIndex, searches every query, merges into that query's top-K, frees the
// slice. Returns one FragmentCandidates per query (same order). Throws as build/FragmentSearcher.
std::vector<FragmentCandidates> search_in_slices(const PeptideIndex& peptides,
                                                 const SearchParameters& params,
                                                 const FragmentIndexOptions& options,
                                                 const std::vector<Query>& queries, size_t top_k,
                                                 SlicedSearchStats* stats = nullptr);

// The reference path without an index: precursor_windows(), then for every candidate its
// fragments (same ion types, charge 1, same m/z range, m/z rounded to float as stored) matched
// against every peak. Same output and order as FragmentSearcher::search on the whole index; for
// tests and the benchmark. `scratch`-free, allocates.
FragmentCandidates brute_force_candidates(const PeptideIndex& peptides,
                                          const SearchParameters& params,
                                          const FragmentIndexOptions& options, const Query& query,
                                          size_t top_k);

}  // namespace ionflow
