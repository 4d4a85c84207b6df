// Profile detection and centroiding; see profile_spectrum.hpp.
#include "io/profile_spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "io/peak_checks.hpp"

namespace ionflow {
namespace {

constexpr size_t kMinProfilePoints = 32;
constexpr double kMaxMedianSpacing = 0.1;  // Th
constexpr double kRegularSpacing = 0.1;    // consecutive gaps within 10% of each other
constexpr double kRunBreak = 3.0;          // a gap 3x the apex spacing ends a peak
constexpr size_t kApexWindow = 2;          // an apex is the largest of 5 neighbouring points
constexpr float kRiseFraction = 0.02f;     // a rise of 2% of the apex starts the next peak
constexpr float kTopFraction = 0.8f;       // the centroid is taken over the top 20% of a peak

bool is_sorted_ascending(const std::vector<double>& mz) {
  return std::is_sorted(mz.begin(), mz.end());
}

}  // namespace

bool looks_like_profile(const std::vector<double>& unsorted) {
  if (unsorted.size() < kMinProfilePoints) return false;
  std::vector<double> mz;
  const std::vector<double>* sorted = &unsorted;
  if (!is_sorted_ascending(unsorted)) {
    mz = unsorted;
    std::sort(mz.begin(), mz.end());
    sorted = &mz;
  }
  std::vector<double> gaps;
  gaps.reserve(sorted->size() - 1);
  for (size_t i = 1; i < sorted->size(); ++i) gaps.push_back((*sorted)[i] - (*sorted)[i - 1]);
  size_t regular = 0;
  for (size_t i = 1; i < gaps.size(); ++i) {
    const double a = gaps[i - 1];
    const double b = gaps[i];
    if (a > 0.0 && std::fabs(a - b) <= kRegularSpacing * a) ++regular;
  }
  std::vector<double> ordered = gaps;
  std::nth_element(ordered.begin(), ordered.begin() + ordered.size() / 2, ordered.end());
  const double median = ordered[ordered.size() / 2];
  return median < kMaxMedianSpacing && 2 * regular >= gaps.size() - 1;
}

void centroid_profile(RawSpectrum& spectrum) {
  const size_t n = std::min(spectrum.mz.size(), spectrum.intensity.size());
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return spectrum.mz[a] < spectrum.mz[b]; });
  std::vector<double> mz(n);
  std::vector<float> in(n);
  for (size_t i = 0; i < n; ++i) {
    mz[i] = spectrum.mz[order[i]];
    in[i] = spectrum.intensity[order[i]];
  }
  // Apex candidates: points with intensity > 0 that are the largest within kApexWindow points
  // on each side (this passes over the small bumps of a noisy peak top).
  std::vector<size_t> apexes;
  for (size_t i = 0; i < n; ++i) {
    if (!(in[i] > 0.0f)) continue;
    const size_t lo = i >= kApexWindow ? i - kApexWindow : 0;
    const size_t hi = std::min(n - 1, i + kApexWindow);
    bool apex = true;
    for (size_t k = lo; k <= hi && apex; ++k) {
      apex = k == i || in[k] < in[i] || (in[k] == in[i] && k > i);
    }
    if (apex) apexes.push_back(i);
  }
  // Highest first; each peak takes the points of its top, and an apex inside points taken
  // already is part of that peak.
  std::stable_sort(apexes.begin(), apexes.end(), [&](size_t a, size_t b) { return in[a] > in[b]; });
  std::vector<bool> taken(n, false);
  std::vector<std::pair<double, float>> peaks;
  for (size_t i : apexes) {
    if (taken[i]) continue;
    double spacing = INFINITY;
    if (i > 0) spacing = std::min(spacing, mz[i] - mz[i - 1]);
    if (i + 1 < n) spacing = std::min(spacing, mz[i + 1] - mz[i]);
    const double max_gap = kRunBreak * spacing;
    const float top = kTopFraction * in[i];
    const float rise = kRiseFraction * in[i];
    // Outwards from the apex while the points stay in the peak's top, do not climb more
    // than `rise` above the lowest point passed (the flank of the next peak) and are not spread
    // out (a gap ends the run of samples).
    auto extends = [&](size_t from, size_t to, float& low) {
      if (taken[to] || in[to] < top || in[to] > low + rise) return false;
      if (std::fabs(mz[to] - mz[from]) > max_gap) return false;
      low = std::min(low, in[to]);
      return true;
    };
    size_t lo = i;
    float low = in[i];
    while (lo > 0 && extends(lo, lo - 1, low)) --lo;
    size_t hi = i;
    low = in[i];
    while (hi + 1 < n && extends(hi, hi + 1, low)) ++hi;
    double weight = 0.0;
    double sum = 0.0;
    for (size_t k = lo; k <= hi; ++k) {
      taken[k] = true;
      weight += in[k];
      sum += in[k] * mz[k];
    }
    peaks.emplace_back(sum / weight, in[i]);
  }
  std::sort(peaks.begin(), peaks.end());
  spectrum.mz.resize(peaks.size());
  spectrum.intensity.resize(peaks.size());
  for (size_t k = 0; k < peaks.size(); ++k) {
    spectrum.mz[k] = peaks[k].first;
    spectrum.intensity[k] = peaks[k].second;
  }
}

void settle_peak_mode(RawSpectrum& spectrum, PeakMode declared, ReadStats& stats,
                      std::string_view where) {
  const bool profile = declared == PeakMode::kProfile ||
                       (declared == PeakMode::kUnknown && looks_like_profile(spectrum.mz));
  if (!profile) return;
  centroid_profile(spectrum);
  note_problem(stats, kProfileCentroided, 1, where);
}

}  // namespace ionflow
