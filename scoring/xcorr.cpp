#include "scoring/xcorr.hpp"

#include <algorithm>
#include <cstddef>

namespace ionflow {

namespace {
constexpr double kLowResBinWidth = 1.0005079;  // Comet fragment_bin_tol for ion-trap data
constexpr double kLowResBinOffset = 0.4;       // Comet fragment_bin_offset
constexpr int kWindows = 10;                   // Comet NUM_SP_WINDOWS
constexpr float kWindowMax = 50.0f;
constexpr float kMinFraction = 0.05f;
constexpr int kXcorrOffset = 75;  // Comet iXcorrProcessingOffset
constexpr double kMaxMassDa = 20000.0;
// Comet's smallest fragment_bin_tol ("The minimum allowed value is 0.01", Comet parameter
// documentation): a narrower window keeps 0.01 Da bins. A bin per window width made a ±0.001
// ppm window 1e9 bins per spectrum (gigabytes for one query).
constexpr double kMinBinWidthDa = 0.01;
}  // namespace

void XcorrSpectrum::prepare(const std::vector<Peak>& peaks, double neutral_mass_da,
                            const Tolerance& fragment_tolerance) {
  double width;
  double offset = 0.0;
  if (fragment_tolerance.unit == Tolerance::Unit::kDa) {
    width = fragment_tolerance.upper - fragment_tolerance.lower;
    if (width >= 0.9) {
      width = kLowResBinWidth;
      offset = kLowResBinOffset;
    }
  } else {
    width = (fragment_tolerance.upper - fragment_tolerance.lower) * 1e-6 * 1000.0;
  }
  if (width <= 0.0) width = kLowResBinWidth;
  width = std::max(width, kMinBinWidthDa);
  count_bin_once_ = width != kLowResBinWidth;
  inverse_bin_width_ = 1.0 / width;
  one_minus_offset_ = 1.0 - offset;

  const double last_mass_da = std::min(neutral_mass_da, kMaxMassDa) + 50.0;
  const int n =
      std::max(1, static_cast<int>(last_mass_da * inverse_bin_width_ + one_minus_offset_) + 1);
  bins_ = n;
  binned_.assign(n, 0.0f);
  peak_bins_.clear();
  int highest_bin = 0;
  float highest = 0.0f;
  for (const Peak& p : peaks) {
    const int b = static_cast<int>(p.mz * inverse_bin_width_ + one_minus_offset_);
    if (b < 0 || b >= n) continue;
    binned_[b] = std::max(binned_[b], p.intensity);
    highest_bin = std::max(highest_bin, b);
    highest = std::max(highest, p.intensity);
    // Ascending m/z gives ascending bins; a bin shared by two peaks is listed once.
    if (peak_bins_.empty() || peak_bins_.back() != b) peak_bins_.push_back(b);
  }
  if (!std::is_sorted(peak_bins_.begin(), peak_bins_.end())) {  // peaks out of order: be safe
    std::sort(peak_bins_.begin(), peak_bins_.end());
    peak_bins_.erase(std::unique(peak_bins_.begin(), peak_bins_.end()), peak_bins_.end());
  }

  // Window normalisation: only bins with a peak are nonzero, so the maxima and the scaling
  // visit those (a window's maximum over zeros and its peaks' bins is the same).
  processed_.assign(n + 1, 0.0f);
  if (stamps_.size() < static_cast<size_t>(n) + 1) stamps_.resize(static_cast<size_t>(n) + 1, 0);
  stamped_bins_ = std::max(stamped_bins_, static_cast<size_t>(n) + 1);
  const int window = highest_bin / kWindows + 1;
  size_t first = 0;  // of the window's peak bins in peak_bins_
  for (int w = 0; w < kWindows; ++w) {
    const int lo = w * window;
    const int hi = std::min(n, lo + window);
    while (first < peak_bins_.size() && peak_bins_[first] < lo) ++first;
    size_t last = first;
    float max_in_window = 0.0f;
    for (; last < peak_bins_.size() && peak_bins_[last] < hi; ++last) {
      max_in_window = std::max(max_in_window, binned_[peak_bins_[last]]);
    }
    if (max_in_window <= 0.0f) continue;
    const float scale = kWindowMax / max_in_window;
    for (size_t k = first; k < last; ++k) {
      const int i = peak_bins_[k];
      if (binned_[i] > highest * kMinFraction) processed_[i] = binned_[i] * scale;
    }
  }

  // Fast XCorr: subtract the mean of the ±75 neighbouring bins (sliding sum). Where the sum is
  // exactly 0.0 and no peak bin lies within reach, every y' until the next peak bin comes within
  // 75 bins is 0 − (0 − 0)/150 = 0 (as assigned): those bins are skipped.
  binned_.swap(processed_);  // binned_ now holds the normalised values (and a trailing 0)
  processed_.assign(n + 1, 0.0f);
  double sum = 0.0;
  for (int j = 0; j < std::min(n, kXcorrOffset); ++j) sum += binned_[j];
  size_t next = 0;  // the first peak bin >= i - kXcorrOffset - 1
  for (int i = 0; i < n; ++i) {
    if (sum == 0.0) {
      while (next < peak_bins_.size() && peak_bins_[next] < i - kXcorrOffset - 1) ++next;
      // Before bin i the window is [i − 76, i + 74]; the next bin to enter is i + 75.
      if (next == peak_bins_.size()) break;
      const int skip_to = peak_bins_[next] - kXcorrOffset;
      if (skip_to > i && peak_bins_[next] > i + kXcorrOffset - 1) i = skip_to;
    }
    if (i + kXcorrOffset < n) sum += binned_[i + kXcorrOffset];
    if (i - kXcorrOffset - 1 >= 0) sum -= binned_[i - kXcorrOffset - 1];
    processed_[i] = static_cast<float>(binned_[i] - (sum - binned_[i]) / (2.0 * kXcorrOffset));
  }
}

XcorrSpectrum::Bins XcorrSpectrum::bins() const {
  if (++candidate_ == 0) {  // wrapped: a stamp of 255 candidates ago would read as this one's
    std::fill(stamps_.begin(), stamps_.begin() + static_cast<std::ptrdiff_t>(stamped_bins_), 0);
    stamped_bins_ = static_cast<size_t>(bins_) + 1;
    candidate_ = 1;
  }
  // Candidates are numbered 1-255 and a wrap clears every stamp written since the last one: a
  // stamp equals candidate_ only where this candidate wrote it. Without count_bin_once
  // first_value_at() neither reads nor writes stamps.
  return {inverse_bin_width_, one_minus_offset_, bins_,          processed_.data(),
          stamps_.data(),     candidate_,        count_bin_once_};
}

}  // namespace ionflow
