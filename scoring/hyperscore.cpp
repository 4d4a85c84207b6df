#include "scoring/hyperscore.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ionflow {

namespace {

constexpr int kTableSize = 256;

struct Log10FactorialTable {
  std::array<double, kTableSize> values{};
  Log10FactorialTable() {
    values[0] = 0.0;
    for (int n = 1; n < kTableSize; ++n) values[n] = values[n - 1] + std::log10(double(n));
  }
};

const Log10FactorialTable& table() {
  static const Log10FactorialTable t;
  return t;
}

}  // namespace

double log10_factorial(int n) {
  if (n <= 1) return 0.0;
  if (n < kTableSize) return table().values[n];
  // Stirling: ln n! = n ln n − n + ½ ln(2πn) + 1/(12n).
  const double x = n;
  const double ln =
      x * std::log(x) - x + 0.5 * std::log(2.0 * std::numbers::pi * x) + 1.0 / (12 * x);
  return ln / std::numbers::ln10;
}

FragmentMatches match_fragments(const std::vector<Peak>& peaks,
                                const std::vector<Fragment>& fragments,
                                const Tolerance& fragment_tolerance) {
  FragmentMatches m;
  const Peak* begin = peaks.data();
  const Peak* end = begin + peaks.size();
  // Fragments come in runs of ascending m/z (one per ion type and charge, ion_series.hpp): within
  // a run the search start only moves forward; a smaller m/z starts a new run (binary search).
  const Peak* p = begin;
  double previous_mz = 0.0;
  for (const Fragment& f : fragments) {
    auto [lo, hi] = fragment_tolerance.bounds(f.mz);
    const float lo_f = static_cast<float>(lo);
    if (f.mz < previous_mz) {
      p = std::lower_bound(begin, end, lo_f, [](const Peak& peak, float v) { return peak.mz < v; });
    } else {
      while (p != end && p->mz < lo_f) ++p;
    }
    previous_mz = f.mz;
    const Peak* best = nullptr;
    for (const Peak* q = p; q != end && q->mz <= hi; ++q) {
      if (best == nullptr || q->intensity > best->intensity) best = q;
    }
    if (best == nullptr) continue;
    m.summed_intensity += best->intensity;
    ++m.matched[static_cast<int>(f.type)];
    ++m.total_matched;
    m.summed_abs_ppm += std::abs(best->mz - f.mz) / f.mz * 1e6;
  }
  return m;
}

size_t hyperscore_peak_count(const Tolerance& fragment_tolerance) {
  const double width = fragment_tolerance.upper - fragment_tolerance.lower;
  const double width_da =
      fragment_tolerance.unit == Tolerance::Unit::kDa ? width : width * 1e-6 * 1000.0;
  return width_da <= kHighResolutionWindowDa ? kHighResolutionHyperscorePeaks : kHyperscorePeaks;
}

void select_hyperscore_peaks(const std::vector<Peak>& peaks, size_t count, std::vector<Peak>& out) {
  out = peaks;
  if (out.size() <= count) return;
  std::nth_element(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(count), out.end(),
                   [](const Peak& a, const Peak& b) {
                     return a.intensity != b.intensity ? a.intensity > b.intensity : a.mz < b.mz;
                   });
  out.resize(count);
  std::sort(out.begin(), out.end(), [](const Peak& a, const Peak& b) { return a.mz < b.mz; });
}

double hyperscore(const FragmentMatches& matches) {
  if (matches.total_matched == 0 || matches.summed_intensity <= 0.0) return 0.0;
  double score = std::log10(matches.summed_intensity);
  for (int n : matches.matched) score += log10_factorial(n);
  return score;
}

}  // namespace ionflow
