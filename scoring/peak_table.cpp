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
  intensities_.clear();
  const double lower = fragment_tolerance.lower;
  const double upper = fragment_tolerance.upper;
  if (fragment_tolerance.unit != Tolerance::Unit::kDa || !(upper > lower) || peaks.empty() ||
      peaks.size() >= kAmbiguous - 1) {
    return;
  }
  double max_mz = 0.0;
  for (const Peak& p : peaks) max_mz = std::max(max_mz, double(p.mz));
  const double width = (upper - lower) / kCellsPerWindow;
  inverse_cell_width_ = 1.0 / width;
  const double last_fragment_mz = max_mz - lower + kMarginTh;  // no match above it
  if (!(last_fragment_mz * inverse_cell_width_ < double(kMaxCells))) return;
  // + 2: the last cell (above every peak's reach) stays none_.
  const size_t n = static_cast<size_t>(std::max(0.0, last_fragment_mz * inverse_cell_width_)) + 2;
  none_ = static_cast<uint16_t>(peaks.size());
  cells_.assign(n, none_);
  intensities_.resize(peaks.size() + 1);
  for (size_t i = 0; i < peaks.size(); ++i) intensities_[i] = peaks[i].intensity;
  intensities_[peaks.size()] = 0.0f;
  intensity_units_.assign(intensities_.data(), peaks.size());  // units[none_] = 0
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
      } else if (cell == none_ || peaks[i].intensity > peaks[cell].intensity) {
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

// match()'s table path with the intensities summed as integers: the same FragmentMatches (the
// exact sum is the double sum in fragment order, exact_units.hpp). With `with_ppm` the matched
// fragments' ppm errors are added in fragment order, as the scan path adds them.
template <bool kWithPpm>
FragmentMatches PeakTable::match_exact(const std::vector<Fragment>& fragments) const {
  FragmentMatches m;
  const uint16_t* cells = cells_.data();
  const double last_cell = static_cast<double>(cells_.size() - 1);
  const double inverse = inverse_cell_width_;
  const int64_t* units = intensity_units_.data();
  const Peak* peaks = peaks_->data();
  const uint16_t none = none_;
  int64_t summed = 0;
  double summed_ppm = 0.0;
  const Fragment* f = fragments.data();
  const Fragment* const end = f + fragments.size();
  while (f != end) {
    // One run of one ion type (fragment_ions writes each type's fragments together).
    const IonType type = f->type;
    int run = 0;
    for (; f != end && f->type == type; ++f) {
      const double x = f->mz * inverse;
      uint16_t v = cells[static_cast<size_t>(x >= 0.0 && x < last_cell ? x : last_cell)];
      if (v == kAmbiguous) [[unlikely]] {
        const Peak* p = scan(f->mz);
        v = p == nullptr ? none : static_cast<uint16_t>(p - peaks);
      }
      summed += units[v];
      run += v != none;
      if constexpr (kWithPpm) {
        if (v != none) summed_ppm += std::abs(peaks[v].mz - f->mz) / f->mz * 1e6;
      }
    }
    m.matched[static_cast<int>(type)] += run;
    m.total_matched += run;
  }
  m.summed_intensity = intensity_units_.to_double(summed);
  m.summed_abs_ppm = summed_ppm;
  return m;
}

FragmentMatches PeakTable::match(const std::vector<Fragment>& fragments, bool with_ppm) const {
  FragmentMatches m;
  if (peaks_ == nullptr) return m;
  if (use_table_ && intensity_units_.exact_for(fragments.size())) {
    return with_ppm ? match_exact<true>(fragments) : match_exact<false>(fragments);
  }
  if (use_table_ && !with_ppm) {
    // The table path of best() without its branches: an m/z outside the table (negative, NaN,
    // above the last peak's reach) reads the last cell, which is none_; none_ adds intensity 0
    // (x + 0.0 == x, so the sum is the same to the bit) and no count. Locals, so that the
    // members are not reloaded after every store.
    const uint16_t* cells = cells_.data();
    const double last_cell = static_cast<double>(cells_.size() - 1);
    const double inverse = inverse_cell_width_;
    const float* intensity = intensities_.data();
    const uint16_t none = none_;
    // Matches are counted in a register per run of one ion type (fragment_ions writes each
    // type's fragments together), not in m.matched[type] for every fragment.
    double summed = 0.0;
    int run = 0;
    IonType run_type = fragments.empty() ? IonType::kB : fragments.front().type;
    for (const Fragment& f : fragments) {
      if (f.type != run_type) {
        m.matched[static_cast<int>(run_type)] += run;
        m.total_matched += run;
        run = 0;
        run_type = f.type;
      }
      const double x = f.mz * inverse;
      uint16_t v = cells[static_cast<size_t>(x >= 0.0 && x < last_cell ? x : last_cell)];
      if (v == kAmbiguous) [[unlikely]] {
        const Peak* p = scan(f.mz);
        v = p == nullptr ? none : static_cast<uint16_t>(p - peaks_->data());
      }
      summed += intensity[v];
      run += v != none;
    }
    m.matched[static_cast<int>(run_type)] += run;
    m.total_matched += run;
    m.summed_intensity = summed;
    return m;
  }
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
