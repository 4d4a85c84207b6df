// FragmentIndex build and search (see fragment_index.hpp for the layout and its sources).
#include "scoring/fragment_index.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

#include "scoring/ion_series.hpp"
#include "scoring/mass.hpp"
#include "scoring/precursor_window.hpp"

namespace ionflow {

namespace {

void validate(const FragmentIndexOptions& options) {
  if (options.bucket_size == 0) {
    throw std::invalid_argument("FragmentIndexOptions: bucket_size must be >= 1");
  }
  if (!(options.fragment_min_mz <= options.fragment_max_mz)) {
    throw std::invalid_argument(
        "FragmentIndexOptions: fragment_min_mz " + std::to_string(options.fragment_min_mz) +
        " Th exceeds fragment_max_mz " + std::to_string(options.fragment_max_mz) + " Th");
  }
}

int ion_type_count(IonTypes types) {
  int n = 0;
  for (int t = 0; t < kIonTypeCount; ++t) n += types.has(static_cast<IonType>(t)) ? 1 : 0;
  return n;
}

// Computes the charge-1 fragments of one peptide kept in the index's m/z range, as float.
class FragmentSource {
 public:
  FragmentSource(const PeptideIndex& peptides, const SearchParameters& params,
                 const FragmentIndexOptions& options)
      : peptides_(peptides), types_(IonTypes::parse(params.ion_types)), options_(options) {
    fragments_.reserve(256);
  }

  template <typename Emit>
  void for_each(size_t peptide, Emit emit) {
    modified_residue_masses(peptides_.peptide(peptide), peptides_.modifications, residues_);
    fragment_ions(residues_, types_, 1, fragments_);
    for (const Fragment& f : fragments_) {
      if (f.mz >= options_.fragment_min_mz && f.mz <= options_.fragment_max_mz) {
        emit(static_cast<float>(f.mz));
      }
    }
  }

 private:
  const PeptideIndex& peptides_;
  IonTypes types_;
  const FragmentIndexOptions& options_;
  ModifiedResidues residues_;
  std::vector<Fragment> fragments_;
};

// Calls fn(b, source) for every bucket b < n, on `threads` threads (0 = the hardware's count)
// taking contiguous bucket ranges; each thread gets its own copy of `source` (scratch buffers).
// Rethrows the first exception of a thread.
template <typename Fn>
void for_each_bucket_parallel(size_t n, unsigned threads, const FragmentSource& source, Fn fn) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<size_t>(threads, std::max<size_t>(n, 1)));
  if (threads <= 1) {
    FragmentSource local = source;
    for (size_t b = 0; b < n; ++b) fn(b, local);
    return;
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(threads);
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      try {
        FragmentSource local = source;
        for (size_t b = n * t / threads; b < n * (t + 1) / threads; ++b) fn(b, local);
      } catch (...) {
        errors[t] = std::current_exception();
      }
    });
  }
  for (std::thread& th : pool) th.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

bool entry_less(const FragmentEntry& a, const FragmentEntry& b) {
  if (a.mz != b.mz) return a.mz < b.mz;
  return a.peptide < b.peptide;
}

// Sorts entries [first, last) by entry_less. REQUIRES: filled in ascending peptide order, so a
// stable sort on m/z alone gives (m/z, peptide) order. A stable LSD radix sort on the float's
// bits (mapped so that unsigned order is numeric order), 3 passes of 11/11/10 bits through
// `scratch`: on BSA's 37 M entries 4.6 s -> 1.3 s of the whole build on one core (std::sort with
// the comparator as a function pointer was two thirds of it).
void sort_bucket(FragmentEntry* first, FragmentEntry* last, std::vector<FragmentEntry>& scratch) {
  const size_t n = static_cast<size_t>(last - first);
  if (n < 64) {
    std::sort(first, last, entry_less);
    return;
  }
  auto key = [](const FragmentEntry& e) {
    uint32_t bits;
    std::memcpy(&bits, &e.mz, sizeof bits);
    return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
  };
  scratch.resize(n);
  FragmentEntry* from = first;
  FragmentEntry* to = scratch.data();
  constexpr int kShift[3] = {0, 11, 22};
  constexpr uint32_t kMask[3] = {0x7FF, 0x7FF, 0x3FF};
  for (int pass = 0; pass < 3; ++pass) {
    size_t count[2048] = {};
    for (size_t i = 0; i < n; ++i) ++count[(key(from[i]) >> kShift[pass]) & kMask[pass]];
    size_t sum = 0;
    for (size_t& c : count) {
      const size_t here = c;
      c = sum;
      sum += here;
    }
    for (size_t i = 0; i < n; ++i)
      to[count[(key(from[i]) >> kShift[pass]) & kMask[pass]]++] = from[i];
    std::swap(from, to);
  }
  // Three passes: the result is in `scratch`; copy it back.
  std::memcpy(first, from, n * sizeof(FragmentEntry));
}

void check_range(const PeptideIndex& peptides, size_t first, size_t last) {
  if (first > last || last > peptides.size() || last > std::numeric_limits<uint32_t>::max()) {
    throw std::invalid_argument("FragmentIndex: peptide range [" + std::to_string(first) + ", " +
                                std::to_string(last) + ") outside the peptide index of " +
                                std::to_string(peptides.size()) + " peptides");
  }
}

}  // namespace

FragmentIndex FragmentIndex::build(const PeptideIndex& peptides, const SearchParameters& params,
                                   const FragmentIndexOptions& options, size_t first_peptide,
                                   size_t last_peptide) {
  validate(options);
  if (last_peptide == 0 && first_peptide == 0) last_peptide = peptides.size();
  check_range(peptides, first_peptide, last_peptide);
  FragmentSource source(peptides, params, options);

  FragmentIndex index;
  index.options_ = options;
  index.first_peptide_ = static_cast<uint32_t>(first_peptide);
  index.last_peptide_ = static_cast<uint32_t>(last_peptide);
  const size_t n = last_peptide - first_peptide;
  const size_t bucket_size = options.bucket_size;
  const size_t n_buckets = (n + bucket_size - 1) / bucket_size;
  index.buckets_.resize(n_buckets);

  for (size_t b = 0; b < n_buckets; ++b) {
    FragmentBucket& bucket = index.buckets_[b];
    bucket.min_peptide = static_cast<uint32_t>(first_peptide + b * bucket_size);
    bucket.max_peptide =
        static_cast<uint32_t>(std::min(last_peptide, first_peptide + (b + 1) * bucket_size) - 1);
  }

  // Pass 1: exact entry count per bucket, so the entry array is allocated once at its size.
  std::vector<uint64_t> counts(n_buckets, 0);
  auto check_cancel = [&options] {
    if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) {
      throw BuildCancelled();
    }
  };
  for_each_bucket_parallel(n_buckets, options.build_threads, source, [&](size_t b, auto& src) {
    check_cancel();
    const FragmentBucket& bucket = index.buckets_[b];
    uint64_t count = 0;
    for (size_t p = bucket.min_peptide; p <= bucket.max_peptide; ++p) {
      src.for_each(p, [&](float) { ++count; });
    }
    counts[b] = count;
  });
  uint64_t total = 0;
  for (size_t b = 0; b < n_buckets; ++b) {
    if (counts[b] > std::numeric_limits<uint32_t>::max()) {
      throw std::invalid_argument(
          "FragmentIndex: more than 2^32 entries in one bucket; lower "
          "bucket_size");
    }
    index.buckets_[b].offset = total;
    index.buckets_[b].count = static_cast<uint32_t>(counts[b]);
    total += counts[b];
  }

  // Pass 2: fill each bucket in place, then sort it by m/z (buckets are disjoint: no locking).
  index.entries_.resize(total);
  FragmentEntry* const entries = index.entries_.data();
  for_each_bucket_parallel(n_buckets, options.build_threads, source, [&](size_t b, auto& src) {
    check_cancel();
    const FragmentBucket& bucket = index.buckets_[b];
    FragmentEntry* out = entries + bucket.offset;
    for (size_t p = bucket.min_peptide; p <= bucket.max_peptide; ++p) {
      const uint32_t id = static_cast<uint32_t>(p);
      src.for_each(p, [&](float mz) { *out++ = FragmentEntry{mz, id}; });
    }
    thread_local std::vector<FragmentEntry> scratch;
    sort_bucket(entries + bucket.offset, out, scratch);
  });
  return index;
}

FragmentIndex FragmentIndex::from_parts(std::vector<FragmentEntry> entries,
                                        std::vector<FragmentBucket> buckets, uint32_t first_peptide,
                                        uint32_t last_peptide,
                                        const FragmentIndexOptions& options) {
  validate(options);
  if (first_peptide > last_peptide) {
    throw std::invalid_argument("FragmentIndex::from_parts: first peptide after last");
  }
  uint64_t offset = 0;
  uint64_t next_peptide = first_peptide;
  for (size_t b = 0; b < buckets.size(); ++b) {
    const FragmentBucket& bucket = buckets[b];
    const std::string where = "FragmentIndex::from_parts: bucket " + std::to_string(b) + ": ";
    if (bucket.offset != offset) throw std::invalid_argument(where + "offset does not follow");
    if (bucket.min_peptide != next_peptide || bucket.max_peptide < bucket.min_peptide ||
        bucket.max_peptide >= last_peptide) {
      throw std::invalid_argument(where + "peptide range does not tile the slice");
    }
    if (offset + bucket.count > entries.size()) {
      throw std::invalid_argument(where + "entries past the end");
    }
    for (uint64_t i = offset; i < offset + bucket.count; ++i) {
      const FragmentEntry& e = entries[i];
      if (e.peptide < bucket.min_peptide || e.peptide > bucket.max_peptide) {
        throw std::invalid_argument(where + "entry " + std::to_string(i) +
                                    " names a peptide outside the bucket");
      }
      if (i > offset && entry_less(e, entries[i - 1])) {
        throw std::invalid_argument(where + "entry " + std::to_string(i) + " out of m/z order");
      }
    }
    offset += bucket.count;
    next_peptide = uint64_t{bucket.max_peptide} + 1;
  }
  if (offset != entries.size()) {
    throw std::invalid_argument("FragmentIndex::from_parts: entries not covered by buckets");
  }
  if (next_peptide != last_peptide) {
    throw std::invalid_argument("FragmentIndex::from_parts: buckets do not reach the last peptide");
  }
  FragmentIndex index;
  index.entries_ = std::move(entries);
  index.buckets_ = std::move(buckets);
  index.first_peptide_ = first_peptide;
  index.last_peptide_ = last_peptide;
  index.options_ = options;
  return index;
}

size_t FragmentIndex::bytes() const {
  return entries_.capacity() * sizeof(FragmentEntry) + buckets_.capacity() * sizeof(FragmentBucket);
}

double FragmentIndex::bytes_per_entry() const {
  return entries_.empty() ? 0.0 : static_cast<double>(bytes()) / entries_.size();
}

bool wide_precursor_window(const SearchParameters& params) {
  const Tolerance& t = params.precursor_tolerance;
  const double width_da =
      t.unit == Tolerance::Unit::kDa ? t.upper - t.lower : 2000.0 * (t.upper - t.lower) * 1e-6;
  return width_da > 1.0;
}

uint32_t suggested_bucket_size(const SearchParameters& params) {
  return wide_precursor_window(params) ? 8192 : 128;
}

size_t estimate_fragment_index_bytes(const PeptideIndex& peptides, const SearchParameters& params,
                                     const FragmentIndexOptions& options, size_t first,
                                     size_t last) {
  validate(options);
  check_range(peptides, first, last);
  const size_t types = static_cast<size_t>(ion_type_count(IonTypes::parse(params.ion_types)));
  size_t fragments = 0;
  for (size_t p = first; p < last; ++p) {
    const size_t len = peptides.length(p);
    fragments += len > 1 ? types * (len - 1) : 0;
  }
  const size_t buckets = (last - first + options.bucket_size - 1) / options.bucket_size;
  return fragments * sizeof(FragmentEntry) + buckets * sizeof(FragmentBucket);
}

std::vector<std::pair<size_t, size_t>> plan_slices(const PeptideIndex& peptides,
                                                   const SearchParameters& params,
                                                   const FragmentIndexOptions& options) {
  validate(options);
  const size_t n = peptides.size();
  std::vector<std::pair<size_t, size_t>> slices;
  if (n == 0) return slices;
  if (options.memory_budget_bytes == 0) return {{0, n}};
  const size_t types = static_cast<size_t>(ion_type_count(IonTypes::parse(params.ion_types)));
  const size_t budget = options.memory_budget_bytes;
  size_t first = 0;
  size_t bytes = 0;
  for (size_t p = 0; p < n; ++p) {
    const size_t len = peptides.length(p);
    size_t add = (len > 1 ? types * (len - 1) : 0) * sizeof(FragmentEntry);
    // A new bucket starts at every bucket_size-th peptide of the slice.
    if ((p - first) % options.bucket_size == 0) add += sizeof(FragmentBucket);
    if (p > first && bytes + add > budget) {
      slices.emplace_back(first, p);
      first = p;
      bytes = (len > 1 ? types * (len - 1) : 0) * sizeof(FragmentEntry) + sizeof(FragmentBucket);
      continue;
    }
    bytes += add;
  }
  slices.emplace_back(first, n);
  return slices;
}

void precursor_windows(const PeptideIndex& peptides, const SearchParameters& params,
                       const Query& query, std::vector<PrecursorWindow>& out) {
  out.clear();
  // Each isotope error's range, then painted so that the smallest |k| wins (few windows: a
  // quadratic sweep over their end points is cheapest).
  PrecursorWindow raw[16];
  size_t n_raw = 0;
  for (int k : params.isotope_errors) {
    const auto [lo, hi] = precursor_window_da(params, query.neutral_mass, k);
    const auto [first, last] = peptides.mass_range(lo, hi);
    if (first >= last) continue;
    if (n_raw == 16) throw std::invalid_argument("precursor_windows: more than 16 isotope errors");
    raw[n_raw++] = PrecursorWindow{first, last, k};
  }
  if (n_raw == 0) return;
  size_t points[32];
  size_t n_points = 0;
  for (size_t i = 0; i < n_raw; ++i) {
    points[n_points++] = raw[i].first;
    points[n_points++] = raw[i].last;
  }
  std::sort(points, points + n_points);
  n_points = std::unique(points, points + n_points) - points;
  auto better = [](int a, int b) {  // isotope error a preferred over b
    return std::abs(a) != std::abs(b) ? std::abs(a) < std::abs(b) : a < b;
  };
  for (size_t i = 0; i + 1 < n_points; ++i) {
    const size_t lo = points[i], hi = points[i + 1];
    bool covered = false;
    int k = 0;
    for (size_t w = 0; w < n_raw; ++w) {
      if (raw[w].first <= lo && hi <= raw[w].last &&
          (!covered || better(raw[w].isotope_error, k))) {
        k = raw[w].isotope_error;
        covered = true;
      }
    }
    if (!covered) continue;
    if (!out.empty() && out.back().last == lo && out.back().isotope_error == k) {
      out.back().last = hi;
    } else {
      out.push_back(PrecursorWindow{lo, hi, k});
    }
  }
}

FragmentSearcher::FragmentSearcher(const PeptideIndex& peptides, const SearchParameters& params,
                                   size_t top_k)
    : peptides_(peptides), params_(params), top_k_(top_k) {
  if (top_k == 0) throw std::invalid_argument("FragmentSearcher: top_k must be >= 1");
  windows_.reserve(16);
  heap_.reserve(top_k + 1);
  merged_.reserve(2 * top_k);
}

void FragmentSearcher::collect(const FragmentIndex& index, const Query& query, size_t first,
                               size_t last, int isotope_error) {
  const size_t lo = std::max<size_t>(first, index.first_peptide());
  const size_t hi = std::min<size_t>(last, index.last_peptide());
  if (lo >= hi || index.buckets().empty()) return;
  const size_t span = hi - lo;
  counters_.assign(span, Counter{});

  const size_t bucket_size = index.options().bucket_size;
  const size_t b_first = (lo - index.first_peptide()) / bucket_size;
  const size_t b_last = (hi - 1 - index.first_peptide()) / bucket_size;
  const std::vector<Peak>& peaks = query.peaks;
  const Tolerance& tol = params_.fragment_tolerance;
  for (size_t b = b_first; b <= b_last; ++b) {
    const FragmentBucket& bucket = index.buckets()[b];
    const FragmentEntry* begin = index.entries().data() + bucket.offset;
    const FragmentEntry* end = begin + bucket.count;
    const FragmentEntry* pos = begin;
    for (size_t i = 0; i < peaks.size(); ++i) {
      const auto [f_lo, f_hi] = tol.theoretical_range(peaks[i].mz);
      // Peaks ascend in m/z, so each lower bound is at or after the previous one: gallop from
      // the previous position, then binary-search the last doubling step.
      const size_t remaining = static_cast<size_t>(end - pos);
      size_t step = 1;
      while (step < remaining && static_cast<double>(pos[step].mz) < f_lo) step *= 2;
      pos = std::lower_bound(
          pos + std::min(step / 2, remaining), pos + std::min(step, remaining), f_lo,
          [](const FragmentEntry& e, double mz) { return static_cast<double>(e.mz) < mz; });
      const uint32_t stamp = static_cast<uint32_t>(i + 1);
      for (const FragmentEntry* e = pos; e < end && static_cast<double>(e->mz) <= f_hi; ++e) {
        const size_t slot = static_cast<size_t>(e->peptide) - lo;  // wraps when e->peptide < lo
        if (slot >= span) continue;
        Counter& c = counters_[slot];
        if (c.last_peak == stamp) continue;
        c.last_peak = stamp;
        ++c.matched;
        c.intensity += peaks[i].intensity;
      }
    }
  }

  // Keep the best top_k in a heap whose front is the worst kept candidate.
  for (size_t s = 0; s < span; ++s) {
    const Counter& c = counters_[s];
    if (c.matched == 0) continue;
    FragmentCandidate cand;
    cand.peptide = static_cast<uint32_t>(lo + s);
    cand.matched_peaks = static_cast<uint16_t>(std::min<uint32_t>(c.matched, 65535));
    cand.isotope_error = static_cast<int8_t>(isotope_error);
    cand.summed_intensity = c.intensity;
    if (heap_.size() < top_k_) {
      heap_.push_back(cand);
      std::push_heap(heap_.begin(), heap_.end(), ranks_before);
    } else if (ranks_before(cand, heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), ranks_before);
      heap_.back() = cand;
      std::push_heap(heap_.begin(), heap_.end(), ranks_before);
    }
  }
}

void FragmentSearcher::search(const FragmentIndex& index, const Query& query,
                              FragmentCandidates& out) {
  out.top.clear();
  out.window_candidates = 0;
  heap_.clear();
  precursor_windows(peptides_, params_, query, windows_);
  for (const PrecursorWindow& w : windows_) {
    out.window_candidates += w.last - w.first;
    if (!query.peaks.empty()) collect(index, query, w.first, w.last, w.isotope_error);
  }
  std::sort_heap(heap_.begin(), heap_.end(), ranks_before);
  out.top.assign(heap_.begin(), heap_.end());
}

void FragmentSearcher::search_and_merge(const FragmentIndex& index, const Query& query,
                                        FragmentCandidates& inout) {
  // Slices partition the peptide ids, so no peptide appears in both lists.
  merged_.assign(inout.top.begin(), inout.top.end());
  search(index, query, inout);
  merged_.insert(merged_.end(), inout.top.begin(), inout.top.end());
  const size_t keep = std::min(top_k_, merged_.size());
  std::partial_sort(merged_.begin(), merged_.begin() + keep, merged_.end(), ranks_before);
  inout.top.assign(merged_.begin(), merged_.begin() + keep);
}

std::vector<FragmentCandidates> search_in_slices(const PeptideIndex& peptides,
                                                 const SearchParameters& params,
                                                 const FragmentIndexOptions& options,
                                                 const std::vector<Query>& queries, size_t top_k,
                                                 SlicedSearchStats* stats) {
  std::vector<FragmentCandidates> results(queries.size());
  FragmentSearcher searcher(peptides, params, top_k);
  SlicedSearchStats local;
  for (const auto& [first, last] : plan_slices(peptides, params, options)) {
    const FragmentIndex slice = FragmentIndex::build(peptides, params, options, first, last);
    ++local.slices;
    local.entries += slice.entries().size();
    local.max_slice_bytes = std::max(local.max_slice_bytes, slice.bytes());
    for (size_t q = 0; q < queries.size(); ++q) {
      searcher.search_and_merge(slice, queries[q], results[q]);
    }
  }
  if (stats) *stats = local;
  return results;
}

FragmentCandidates brute_force_candidates(const PeptideIndex& peptides,
                                          const SearchParameters& params,
                                          const FragmentIndexOptions& options, const Query& query,
                                          size_t top_k) {
  validate(options);
  if (top_k == 0) throw std::invalid_argument("brute_force_candidates: top_k must be >= 1");
  FragmentCandidates out;
  std::vector<PrecursorWindow> windows;
  precursor_windows(peptides, params, query, windows);
  FragmentSource source(peptides, params, options);
  std::vector<float> mzs;
  std::vector<FragmentCandidate> all;
  for (const PrecursorWindow& w : windows) {
    out.window_candidates += w.last - w.first;
    for (size_t p = w.first; p < w.last; ++p) {
      mzs.clear();
      source.for_each(p, [&](float mz) { mzs.push_back(mz); });
      std::sort(mzs.begin(), mzs.end());
      FragmentCandidate c;
      c.peptide = static_cast<uint32_t>(p);
      c.isotope_error = static_cast<int8_t>(w.isotope_error);
      uint32_t matched = 0;
      for (const Peak& peak : query.peaks) {
        const auto [f_lo, f_hi] = params.fragment_tolerance.theoretical_range(peak.mz);
        auto it = std::lower_bound(mzs.begin(), mzs.end(), f_lo,
                                   [](float f, double mz) { return static_cast<double>(f) < mz; });
        if (it != mzs.end() && static_cast<double>(*it) <= f_hi) {
          ++matched;
          c.summed_intensity += peak.intensity;
        }
      }
      c.matched_peaks = static_cast<uint16_t>(std::min<uint32_t>(matched, 65535));
      if (matched > 0) all.push_back(c);
    }
  }
  const size_t keep = std::min(top_k, all.size());
  std::partial_sort(all.begin(), all.begin() + keep, all.end(), ranks_before);
  out.top.assign(all.begin(), all.begin() + keep);
  return out;
}

}  // namespace ionflow
