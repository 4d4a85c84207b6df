// FragmentSlices (see fragment_slices.hpp): the plan, the build-once-and-wait protocol and the
// least-recently-used cache of built slices.
#include "scoring/fragment_slices.hpp"

#include <malloc.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ionflow {

FragmentSlices::FragmentSlices(std::shared_ptr<const PeptideIndex> peptides,
                               const SearchParameters& params, const FragmentIndexOptions& options,
                               size_t budget_bytes, std::shared_ptr<const std::atomic<bool>> cancel)
    : peptides_(std::move(peptides)),
      params_(params),
      options_(options),
      budget_bytes_(budget_bytes),
      cancel_(std::move(cancel)),
      counters_(std::make_shared<FragmentSliceCounters>()) {
  if (!peptides_) throw std::invalid_argument("FragmentSlices: null peptide index");
  if (budget_bytes == 0) throw std::invalid_argument("FragmentSlices: budget_bytes must be > 0");
  options_.memory_budget_bytes = std::max<size_t>(1, budget_bytes / kSlicesPerBudget);
  options_.cancel = cancel_.get();
  ranges_ = plan_slices(*peptides_, params_, options_);  // validates the options
  for (const auto& [first, last] : ranges_) {
    max_estimate_ = std::max(
        max_estimate_, estimate_fragment_index_bytes(*peptides_, params_, options_, first, last));
  }
  slots_.resize(ranges_.size());
  counters_->stats_.slices = ranges_.size();
}

FragmentSlices::~FragmentSlices() = default;

std::pair<size_t, size_t> FragmentSlices::overlapping(size_t first, size_t last) const {
  if (first >= last) return {0, 0};
  // First slice ending after `first`, first slice starting at or after `last`.
  const size_t a =
      std::partition_point(ranges_.begin(), ranges_.end(),
                           [&](const std::pair<size_t, size_t>& r) { return r.second <= first; }) -
      ranges_.begin();
  const size_t b =
      std::partition_point(ranges_.begin(), ranges_.end(),
                           [&](const std::pair<size_t, size_t>& r) { return r.first < last; }) -
      ranges_.begin();
  return {a, std::max(a, b)};
}

std::shared_ptr<const FragmentIndex> FragmentSlices::if_cached(size_t s) {
  std::lock_guard<std::mutex> lock(mutex_);
  Slot& slot = slots_.at(s);
  if (slot.index) slot.last_use = ++clock_;
  return slot.index;
}

std::shared_ptr<const FragmentIndex> FragmentSlices::acquire(size_t s) {
  if (s >= slots_.size()) {
    throw std::out_of_range("FragmentSlices::acquire: slice " + std::to_string(s) + " of " +
                            std::to_string(slots_.size()));
  }
  std::unique_lock<std::mutex> lock(mutex_);
  Slot& slot = slots_[s];
  built_.wait(lock, [&] { return slot.index || !slot.building; });
  slot.last_use = ++clock_;
  if (slot.index) return slot.index;

  slot.building = true;
  lock.unlock();
  std::shared_ptr<const FragmentIndex> built;
  try {
    auto index = std::make_unique<FragmentIndex>(
        FragmentIndex::build(*peptides_, params_, options_, ranges_[s].first, ranges_[s].second));
    const size_t bytes = index->bytes();
    {
      std::lock_guard<std::mutex> counters_lock(counters_->mutex_);
      FragmentSliceStats& st = counters_->stats_;
      st.held_bytes += bytes;
      st.peak_held_bytes = std::max(st.peak_held_bytes, st.held_bytes);
    }
    // The deleter keeps the counters alive: a holder may release the slice after this is gone.
    built = std::shared_ptr<const FragmentIndex>(
        index.release(), [counters = counters_, bytes](const FragmentIndex* p) {
          delete p;
          // Give the slice's pages back: glibc keeps freed blocks below its mmap threshold, and
          // a new user's small-budget runs held 2-3x the budget that way (E. coli ±500 Da at
          // 20 MB: 160 MB RSS against 96 MB without a fragment index).
          ::malloc_trim(0);
          std::lock_guard<std::mutex> counters_lock(counters->mutex_);
          counters->stats_.held_bytes -= bytes;
        });
  } catch (...) {
    lock.lock();
    slot.building = false;
    built_.notify_all();
    throw;
  }

  lock.lock();
  slot.building = false;
  slot.index = built;
  {
    std::lock_guard<std::mutex> counters_lock(counters_->mutex_);
    FragmentSliceStats& st = counters_->stats_;
    ++st.builds;
    if (slot.built_before) ++st.repeated_builds;
    st.max_slice_bytes = std::max(st.max_slice_bytes, built->bytes());
  }
  slot.built_before = true;
  cached_bytes_ += built->bytes();
  // Least recently acquired first, never the slice just built. Dropped references are released
  // after the lock: the last one frees the slice (and trims the heap), which must not hold up
  // the other scorers.
  std::vector<std::shared_ptr<const FragmentIndex>> dropped;
  while (cached_bytes_ > budget_bytes_) {
    Slot* oldest = nullptr;
    for (Slot& other : slots_) {
      if (&other == &slot || !other.index) continue;
      if (!oldest || other.last_use < oldest->last_use) oldest = &other;
    }
    if (!oldest) break;
    cached_bytes_ -= oldest->index->bytes();
    dropped.push_back(std::move(oldest->index));  // freed below, or when its last holder lets go
  }
  built_.notify_all();
  lock.unlock();
  dropped.clear();
  return built;
}

}  // namespace ionflow
