// FragmentSlices: the fragment-ion index of a PeptideIndex that does not fit a memory budget,
// kept as slices built on demand — MSFragger's "split database" mode (Kong et al. 2017, Nat.
// Methods 14:513) for scorers that take their queries in ascending precursor mass.
//
// The peptide ids are cut by plan_slices() (fragment_index.hpp) into consecutive ranges, each
// estimated to take at most budget_bytes / kSlicesPerBudget, so several slices fit in the budget
// at once. acquire(s) returns slice s, building it on first use; built slices stay in memory
// while their total is at most budget_bytes, and the least recently used ones are dropped
// beyond it (a later acquire builds them again: a "repeated build"). The scorers process chunks
// of queries in ascending precursor mass, so the slices they need slide slowly along the ids and
// each is usually built once. Slices partition the peptide ids: searching every slice a query's
// precursor windows overlap and merging their top-K (FragmentSearcher::search_and_merge) gives
// exactly the candidates of the whole FragmentIndex.
//
// Thread-safety: every member function may be called from any number of threads. Two threads
// acquiring the same unbuilt slice build it once (the second waits); different slices build in
// parallel. A returned shared_ptr keeps its slice alive (and counted in the held bytes) after it
// is dropped from the cache, until the holder lets go: memory may exceed the budget by the slices
// in use, at most one per searching thread beyond the cache.
// Errors: the constructor throws std::invalid_argument for a null PeptideIndex, a budget of 0 or
// the options FragmentIndex::build refuses; acquire() throws std::out_of_range for a slice
// number >= size() and rethrows FragmentIndex::build's exceptions
// (BuildCancelled once the cancel flag is set) to the thread that asked, and the slice may be
// asked for again.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "scoring/fragment_index.hpp"
#include "scoring/peptide_index.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow {

// Slices planned per budget: each slice is estimated at most budget / 4 (an upper bound: E.
// coli's whole index takes 114 MB of its 173 MB estimate), so at least four fit at once.
inline constexpr size_t kSlicesPerBudget = 4;

struct FragmentSliceStats {
  size_t slices = 0;           // planned
  size_t builds = 0;           // FragmentIndex::build calls that completed
  size_t repeated_builds = 0;  // builds of a slice built before and dropped since
  size_t held_bytes = 0;       // built slices alive now (cached or in use), FragmentIndex::bytes
  size_t peak_held_bytes = 0;  // the most held_bytes ever
  size_t max_slice_bytes = 0;  // the largest slice built
};

// The counters of one FragmentSlices, shared: they outlive it, so a job can read them after its
// slices (and their peptide index) are freed. Thread-safe.
class FragmentSliceCounters {
 public:
  FragmentSliceStats snapshot() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
  }

 private:
  friend class FragmentSlices;
  mutable std::mutex mutex_;
  FragmentSliceStats stats_;
};

class FragmentSlices {
 public:
  // Plans the slices of `peptides` (ion types from params.ion_types) for a total of
  // `budget_bytes` (> 0) of built slices. `options` as for FragmentIndex::build (bucket size,
  // m/z range, build threads of each on-demand build); its memory_budget_bytes and cancel are
  // replaced. `cancel` (optional, shared so that it outlives this object): once true, a build
  // stops within one bucket with BuildCancelled. Throws std::invalid_argument (see header).
  FragmentSlices(std::shared_ptr<const PeptideIndex> peptides, const SearchParameters& params,
                 const FragmentIndexOptions& options, size_t budget_bytes,
                 std::shared_ptr<const std::atomic<bool>> cancel = nullptr);
  ~FragmentSlices();
  FragmentSlices(const FragmentSlices&) = delete;
  FragmentSlices& operator=(const FragmentSlices&) = delete;

  // Number of slices, and slice s's peptide ids [first, last). REQUIRES: s < size().
  size_t size() const { return ranges_.size(); }
  const std::pair<size_t, size_t>& range(size_t s) const { return ranges_[s]; }
  // The slices whose ranges overlap peptide ids [first, last), as slice numbers [a, b) (a == b
  // when none: an empty range).
  std::pair<size_t, size_t> overlapping(size_t first, size_t last) const;

  // Total budget and the per-slice budget the plan used, bytes.
  size_t budget_bytes() const { return budget_bytes_; }
  size_t slice_budget_bytes() const { return options_.memory_budget_bytes; }
  // The largest estimate (estimate_fragment_index_bytes, an upper bound) of a planned slice.
  size_t max_estimated_slice_bytes() const { return max_estimate_; }

  // Slice s, built now if it is not in memory (blocking until built; another thread's build of
  // the same slice is waited for). REQUIRES: s < size(). Throws as FragmentIndex::build.
  std::shared_ptr<const FragmentIndex> acquire(size_t s);

  // Slice s if it is in memory now (counted as a use), else null: never builds or waits. A
  // searcher that needs several slices takes the cached ones first and acquire()s the rest, so
  // that a window wider than the cache drops what it has searched rather than what it still
  // needs. REQUIRES: s < size().
  std::shared_ptr<const FragmentIndex> if_cached(size_t s);

  FragmentSliceStats stats() const { return counters_->snapshot(); }
  std::shared_ptr<const FragmentSliceCounters> counters() const { return counters_; }

  const PeptideIndex& peptides() const { return *peptides_; }

 private:
  struct Slot {
    std::shared_ptr<const FragmentIndex> index;  // null when not cached
    bool building = false;
    bool built_before = false;
    uint64_t last_use = 0;  // clock_ at the last acquire
  };

  std::shared_ptr<const PeptideIndex> peptides_;
  SearchParameters params_;
  FragmentIndexOptions options_;
  size_t budget_bytes_ = 0;
  std::shared_ptr<const std::atomic<bool>> cancel_;
  std::vector<std::pair<size_t, size_t>> ranges_;
  size_t max_estimate_ = 0;

  mutable std::mutex mutex_;  // slots_, clock_, cached_bytes_
  std::condition_variable built_;
  std::vector<Slot> slots_;
  uint64_t clock_ = 0;
  size_t cached_bytes_ = 0;  // of slots_[*].index
  // Shared with each slice's deleter, which may run after this object is gone.
  std::shared_ptr<FragmentSliceCounters> counters_;
};

}  // namespace ionflow
