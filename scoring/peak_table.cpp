#include "scoring/peak_table.hpp"

#include <algorithm>
#include <cmath>

namespace ionflow {

namespace {
// Largest table built (cells); beyond it (m/z > ~250,000 Th at ±0.5 Da) every lookup scans.
constexpr size_t kMaxCells = size_t{1} << 22;
}  // namespace

void PeakTable::prepare(const std::vector<Peak>& peaks, const Tolerance& fragment_tolerance) {
  peaks_ = &peaks;
  tolerance_ = fragment_tolerance;
  use_table_ = false;
  cells_.clear();
  const double lower = fragment_tolerance.lower;
  const double upper = fragment_tolerance.upper;
  if (fragment_tolerance.unit != Tolerance::Unit::kDa || !(upper > lower) || peaks.empty() ||
      peaks.size() >= kAmbiguous) {
    return;
  }
  double max_mz = 0.0;
  for (const Peak& p : peaks) max_mz = std::max(max_mz, double(p.mz));
  const double width = (upper - lower) / kCellsPerWindow;
  inverse_cell_width_ = 1.0 / width;
  const double last_fragment_mz = max_mz - lower + kMarginTh;  // no match above it
  if (!(last_fragment_mz * inverse_cell_width_ < double(kMaxCells))) return;
  const size_t n = static_cast<size_t>(std::max(0.0, last_fragment_mz * inverse_cell_width_)) + 2;
  cells_.assign(n, kNone);
  for (size_t i = 0; i < peaks.size(); ++i) {
    const double mz = peaks[i].mz;
    // Fragment m/z f sees this peak when f + lower <= mz <= f + upper.
    const double certain_lo = mz - upper + kMarginTh;
    const double certain_hi = mz - lower - kMarginTh;
    const long first =
        static_cast<long>(std::floor((mz - upper - kMarginTh) * inverse_cell_width_));
    const long last = static_cast<long>(std::floor((mz - lower + kMarginTh) * inverse_cell_width_));
    for (long c = std::max(0L, first); c <= last && c < static_cast<long>(n); ++c) {
      uint16_t& cell = cells_[c];
      if (cell == kAmbiguous) continue;
      const bool certain = c * width >= certain_lo && (c + 1) * width <= certain_hi;
      if (!certain) {
        cell = kAmbiguous;
      } else if (cell == kNone || peaks[i].intensity > peaks[cell].intensity) {
        cell = static_cast<uint16_t>(i);  // ascending m/z: a tie keeps the lower m/z
      }
    }
  }
  use_table_ = true;
}

const Peak* PeakTable::scan(double mz) const {
  const Peak* begin = peaks_->data();
  const Peak* end = begin + peaks_->size();
  auto [lo, hi] = tolerance_.bounds(mz);
  const float lo_f = static_cast<float>(lo);
  const Peak* p =
      std::lower_bound(begin, end, lo_f, [](const Peak& peak, float v) { return peak.mz < v; });
  const Peak* best = nullptr;
  for (const Peak* q = p; q != end && q->mz <= hi; ++q) {
    if (best == nullptr || q->intensity > best->intensity) best = q;
  }
  return best;
}

FragmentMatches PeakTable::match(const std::vector<Fragment>& fragments, bool with_ppm) const {
  FragmentMatches m;
  if (peaks_ == nullptr) return m;
  for (const Fragment& f : fragments) {
    const Peak* best = this->best(f.mz);
    if (best == nullptr) continue;
    m.summed_intensity += best->intensity;
    ++m.matched[static_cast<int>(f.type)];
    ++m.total_matched;
    if (with_ppm) m.summed_abs_ppm += std::abs(best->mz - f.mz) / f.mz * 1e6;
  }
  return m;
}

}  // namespace ionflow
