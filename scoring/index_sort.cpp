// The mass permutation of the peptide-index build (index_sort.hpp).
#include "scoring/index_sort.hpp"

#include <atomic>
#include <cstring>

namespace ionflow {
namespace index_build {

namespace {

// Sorts [first, last) of `bits` (full IEEE 754 bit patterns of positive doubles, in the radix
// order, so runs of equal top 32 bits) by the exact value, stably, moving `order` alongside: an
// insertion sort, as a run holds the few peptides within ~1 ppm of each other and nothing
// crosses a run boundary. Reads and writes [first, last) only; both must be run boundaries.
void sort_runs(std::vector<uint64_t>& bits, std::vector<uint32_t>& order, size_t first,
               size_t last) {
  for (size_t i = first + 1; i < last; ++i) {
    const uint64_t b = bits[i];
    if (bits[i - 1] <= b) continue;  // in place (the common case: no search, no moves)
    const uint32_t v = order[i];
    size_t j = i;
    while (j > first && bits[j - 1] > b) {
      bits[j] = bits[j - 1];
      order[j] = order[j - 1];
      --j;
    }
    bits[j] = b;
    order[j] = v;
  }
}

// The first index >= i (and <= n) where a new top-32-bit key starts in `keys` (the radix
// order's (key << 32) | index items, read-only while the runs are sorted).
size_t run_start_at_or_after(const std::vector<uint64_t>& keys, size_t i) {
  const size_t n = keys.size();
  while (i > 0 && i < n && (keys[i] >> 32) == (keys[i - 1] >> 32)) ++i;
  return i;
}

}  // namespace

std::vector<uint32_t> mass_order(const std::vector<double>& masses, int threads,
                                 const std::atomic<bool>* cancel) {
  const size_t n = masses.size();
  std::vector<uint64_t> items(n), buffer(n);  // (key << 32) | index
  parallel_slices(threads, n, [&](size_t, size_t first, size_t last) {
    for (size_t i = first; i < last; ++i) {
      uint64_t bits;
      std::memcpy(&bits, &masses[i], sizeof bits);
      items[i] = (bits & 0xffffffff00000000ull) | i;
    }
  });
  // Parallel stable LSD passes: each thread counts its contiguous part, the offsets are laid
  // out digit-major then part-major, and each thread scatters its part in order.
  const size_t parts = std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(threads), n));
  std::vector<std::vector<uint32_t>> count(parts, std::vector<uint32_t>(1u << 16));
  for (int shift = 32; shift < 64; shift += 16) {
    check_cancel(cancel);
    parallel_slices(static_cast<int>(parts), n, [&](size_t part, size_t first, size_t last) {
      std::fill(count[part].begin(), count[part].end(), 0);
      for (size_t i = first; i < last; ++i) ++count[part][(items[i] >> shift) & 0xffff];
    });
    size_t nonempty = 0;
    uint64_t sum = 0;
    for (size_t d = 0; d < (1u << 16); ++d) {
      uint64_t digit_total = 0;
      for (size_t part = 0; part < parts; ++part) {
        const uint32_t c = count[part][d];
        count[part][d] = static_cast<uint32_t>(sum);
        sum += c;
        digit_total += c;
      }
      nonempty += digit_total > 0 ? 1 : 0;
    }
    if (nonempty <= 1) continue;  // every key has this digit: the pass would not move anything
    parallel_slices(static_cast<int>(parts), n, [&](size_t part, size_t first, size_t last) {
      for (size_t i = first; i < last; ++i) {
        const uint64_t v = items[i];
        buffer[count[part][(v >> shift) & 0xffff]++] = v;
      }
    });
    items.swap(buffer);
  }
  check_cancel(cancel);
  // The exact values, gathered once in radix order (independent reads, on every thread), then
  // each run of equal top keys sorted locally: no random read per comparison. For positive
  // doubles the bit patterns order as the values do.
  std::vector<uint32_t> order(n);
  std::vector<uint64_t>& bits = buffer;
  parallel_slices(threads, n, [&](size_t, size_t first, size_t last) {
    for (size_t i = first; i < last; ++i) {
      order[i] = static_cast<uint32_t>(items[i]);
      std::memcpy(&bits[i], &masses[order[i]], sizeof(uint64_t));
    }
  });
  check_cancel(cancel);
  parallel_slices(threads, n, [&](size_t, size_t first, size_t last) {
    // Each slice sorts the runs that start in it (a run crossing its end is its own).
    sort_runs(bits, order, run_start_at_or_after(items, first), run_start_at_or_after(items, last));
  });
  return order;
}

}  // namespace index_build
}  // namespace ionflow
