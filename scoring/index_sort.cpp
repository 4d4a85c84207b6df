// The mass permutation of the peptide-index build (index_sort.hpp).
#include "scoring/index_sort.hpp"

#include <cstring>

namespace ionflow {
namespace index_build {

std::vector<uint32_t> mass_order(const std::vector<double>& masses, int threads) {
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
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(items[i]);
  for (size_t i = 1; i < n; ++i) {
    const uint32_t v = order[i];
    size_t j = i;
    while (j > 0 && masses[order[j - 1]] > masses[v]) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = v;
  }
  return order;
}

}  // namespace index_build
}  // namespace ionflow
