#include "scoring/xcorr.hpp"

#include <algorithm>

namespace ionflow {

namespace {
constexpr double kLowResBinWidth = 1.0005079;  // Comet fragment_bin_tol for ion-trap data
constexpr double kLowResBinOffset = 0.4;       // Comet fragment_bin_offset
constexpr int kWindows = 10;                   // Comet NUM_SP_WINDOWS
constexpr float kWindowMax = 50.0f;
constexpr float kMinFraction = 0.05f;
constexpr int kXcorrOffset = 75;  // Comet iXcorrProcessingOffset
constexpr double kMaxMassDa = 20000.0;
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
  inverse_bin_width_ = 1.0 / width;
  one_minus_offset_ = 1.0 - offset;

  const int n = std::max(
      1, static_cast<int>((neutral_mass_da + 50.0) * inverse_bin_width_ + one_minus_offset_) + 1);
  binned_.assign(n, 0.0f);
  int highest_bin = 0;
  float highest = 0.0f;
  for (const Peak& p : peaks) {
    const int b = static_cast<int>(p.mz * inverse_bin_width_ + one_minus_offset_);
    if (b < 0 || b >= n) continue;
    binned_[b] = std::max(binned_[b], p.intensity);
    highest_bin = std::max(highest_bin, b);
    highest = std::max(highest, p.intensity);
  }

  // Window normalisation.
  processed_.assign(n, 0.0f);
  const int window = highest_bin / kWindows + 1;
  for (int w = 0; w < kWindows; ++w) {
    const int lo = w * window;
    const int hi = std::min(n, lo + window);
    float max_in_window = 0.0f;
    for (int i = lo; i < hi; ++i) max_in_window = std::max(max_in_window, binned_[i]);
    if (max_in_window <= 0.0f) continue;
    const float scale = kWindowMax / max_in_window;
    for (int i = lo; i < hi; ++i) {
      if (binned_[i] > highest * kMinFraction) processed_[i] = binned_[i] * scale;
    }
  }

  // Fast XCorr: subtract the mean of the ±75 neighbouring bins (sliding sum).
  binned_.swap(processed_);  // binned_ now holds the normalised values
  double sum = 0.0;
  for (int j = 0; j < std::min(n, kXcorrOffset); ++j) sum += binned_[j];
  for (int i = 0; i < n; ++i) {
    if (i + kXcorrOffset < n) sum += binned_[i + kXcorrOffset];
    if (i - kXcorrOffset - 1 >= 0) sum -= binned_[i - kXcorrOffset - 1];
    processed_[i] = static_cast<float>(binned_[i] - (sum - binned_[i]) / (2.0 * kXcorrOffset));
  }
  units_.assign(processed_.data(), processed_.size());
}

}  // namespace ionflow
