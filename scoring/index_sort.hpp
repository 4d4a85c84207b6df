// Internal to the peptide-index build: its two sorts. mass_order is the permutation of the
// final mass sort; sort_records brings the digested records of all slices into sequence order.
// Both run on `threads` threads and give the same result for any thread count.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "scoring/index_records.hpp"
#include "scoring/parallel.hpp"

namespace ionflow {
namespace index_build {

// The permutation that sorts `masses` (all positive and finite) ascending, equal masses in
// index order. A stable LSD radix sort (2 passes of 16 bits, on `threads` threads) on the top 32
// bits of each double — for positive IEEE 754 doubles integer order is value order; 32 bits resolve
// about 0.001 Da at 1000-2000 Da — then a stable insertion sort on the exact values, which only
// moves the few peptides sharing such a bucket (on the values gathered in radix order, so
// without a random read per comparison: 42.6 M peptides of an open search took ~2.4 s of one
// thread in that step reading masses[order[j]]). Several times faster than std::sort on
// (mass, index) pairs at millions of peptides.
// Throws BuildCancelled between its passes once `cancel` (may be null) is set.
std::vector<uint32_t> mass_order(const std::vector<double>& masses, int threads,
                                 const std::atomic<bool>* cancel = nullptr);

// Sorts the records of all `slices` (consumed) into one vector with `less`, which must order by
// sequence first (Residues::compare): a counting sort on the first three residues (5 bits each,
// from key8) scatters each slice's records into their buckets in parallel (slice s after slice
// s - 1 within a bucket), then each bucket — a few hundred records, in cache — is sorted with
// `less`, the buckets spread over the threads. About twice as fast as one std::sort over
// millions of records.
// Throws BuildCancelled between buckets once `cancel` (may be null) is set: a semi-enzymatic
// digest's sort ran 12-20 s past a cancel before it did.
template <typename Less>
std::vector<Record> sort_records(std::vector<std::vector<Record>>& slices, int threads, Less less,
                                 const std::atomic<bool>* cancel = nullptr) {
  auto code = [](uint64_t key8, int shift) -> uint32_t {
    const auto c = static_cast<uint32_t>((key8 >> shift) & 0xff);
    return c == 0 ? 0 : (c - '@') & 31;  // '\0' (shorter peptide) < 'A' = 1 < ... < 'Z' = 26
  };
  auto bucket = [&](const Record& r) {
    return (code(r.key8, 56) << 10) | (code(r.key8, 48) << 5) | code(r.key8, 40);
  };
  constexpr size_t kBuckets = size_t{1} << 15;
  const size_t parts = slices.size();
  // next[p][b]: where slice p's next record of bucket b goes.
  std::vector<std::vector<uint32_t>> next(parts, std::vector<uint32_t>(kBuckets, 0));
  parallel_tasks(threads, parts, [&](size_t p) {
    for (const Record& r : slices[p]) ++next[p][bucket(r)];
  });
  check_cancel(cancel);
  std::vector<uint32_t> start(kBuckets + 1, 0);
  {
    uint64_t sum = 0;
    for (size_t b = 0; b < kBuckets; ++b) {
      start[b] = static_cast<uint32_t>(sum);
      for (size_t p = 0; p < parts; ++p) {
        const uint32_t count = next[p][b];
        next[p][b] = static_cast<uint32_t>(sum);
        sum += count;
      }
    }
    if (sum > UINT32_MAX)
      throw std::length_error("peptide index: more than 2^32 digested peptides");
    start[kBuckets] = static_cast<uint32_t>(sum);
  }
  std::vector<Record> records(start[kBuckets]);
  parallel_tasks(threads, parts, [&](size_t p) {
    for (const Record& r : slices[p]) records[next[p][bucket(r)]++] = r;
    std::vector<Record>().swap(slices[p]);
  });
  check_cancel(cancel);
  // The buckets in blocks handed out as threads become free: records crowd into some buckets.
  constexpr size_t kBucketsPerTask = 512;
  parallel_tasks(threads, kBuckets / kBucketsPerTask, [&](size_t task) {
    for (size_t b = task * kBucketsPerTask; b < (task + 1) * kBucketsPerTask; ++b) {
      check_cancel(cancel);
      if (start[b + 1] - start[b] > 1) {
        std::sort(records.begin() + start[b], records.begin() + start[b + 1], less);
      }
    }
  });
  return records;
}

}  // namespace index_build
}  // namespace ionflow
