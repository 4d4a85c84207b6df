#include "scoring/precursor_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "scoring/fdr.hpp"

namespace ionflow {

namespace {

constexpr double kConfidentFdr = 0.01;
constexpr double kFarSigmas = 5.0;  // a confident PSM this far from the offset is in the tail

double median(std::vector<double> v) {
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  if (v.size() % 2 == 1) return v[mid];
  const double upper = v[mid];
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

// The errors of the confident set: the rank-1 targets at q <= kConfidentFdr, or when there are
// fewer than kMinConfidentForCalibration of them the kFallbackConfident best-scoring rank-1
// targets (`best_targets` is then set).
std::vector<double> confident_errors(const std::vector<double>& scores,
                                     const std::vector<bool>& decoy,
                                     const std::vector<double>& errors, bool& best_targets) {
  const std::vector<double> q = target_decoy_q_values(scores, decoy);
  std::vector<double> confident;
  for (size_t k = 0; k < q.size(); ++k) {
    if (!decoy[k] && q[k] <= kConfidentFdr) confident.push_back(errors[k]);
  }
  best_targets = false;
  if (confident.size() >= static_cast<size_t>(kMinConfidentForCalibration)) return confident;
  std::vector<size_t> targets;
  for (size_t k = 0; k < scores.size(); ++k) {
    if (!decoy[k]) targets.push_back(k);
  }
  const size_t n = std::min(targets.size(), kFallbackConfident);
  std::partial_sort(
      targets.begin(), targets.begin() + static_cast<std::ptrdiff_t>(n), targets.end(),
      [&](size_t a, size_t b) { return scores[a] != scores[b] ? scores[a] > scores[b] : a < b; });
  confident.clear();
  for (size_t i = 0; i < n; ++i) confident.push_back(errors[targets[i]]);
  best_targets = true;
  return confident;
}

// The PSM's precursor window in ppm (W of the model), or 0 when unknown (a Da tolerance and no
// mass).
double window_ppm(const PsmFact& p, const Tolerance& tolerance) {
  const double width = tolerance.upper - tolerance.lower;
  if (tolerance.unit == Tolerance::Unit::kPpm) return width;
  return p.calcmass_da > 0 ? width / p.calcmass_da * 1e6 : 0.0;
}

// "20.0 ppm window", or for a Da window "300.0 Da window (257583.1 ppm at the PSMs' median mass)".
std::string window_text(const PrecursorCalibration& m) {
  char text[96];
  if (m.window_given_in_da) {
    std::snprintf(text, sizeof text, "%.1f Da window (%.1f ppm at the PSMs' median mass)",
                  m.window_da, m.window_ppm);
  } else {
    std::snprintf(text, sizeof text, "%.1f ppm window", m.window_ppm);
  }
  return text;
}

}  // namespace

PrecursorCalibration calibrate_precursor_errors(std::vector<PsmFact>& facts,
                                                const Tolerance& precursor_tolerance) {
  PrecursorCalibration model;
  model.window_given_in_da = precursor_tolerance.unit == Tolerance::Unit::kDa;
  std::vector<double> scores, errors, windows, windows_da;
  std::vector<bool> decoy;
  for (const PsmFact& p : facts) {
    if (p.rank != 1) continue;
    scores.push_back(p.score);
    decoy.push_back(p.decoy);
    errors.push_back(p.precursor_ppm);
    const double w = window_ppm(p, precursor_tolerance);
    if (w > 0) {
      windows.push_back(w);
      windows_da.push_back(w * 1e-6 * p.calcmass_da);
    }
  }
  std::vector<double> confident = confident_errors(scores, decoy, errors, model.best_targets);
  model.confident = static_cast<int>(confident.size());
  if (model.confident < kMinConfidentForCalibration || windows.empty()) return model;
  model.offset_ppm = median(confident);
  std::vector<double> deviation;
  for (double e : confident) deviation.push_back(std::abs(e - model.offset_ppm));
  // Whether the window says anything is judged on the errors' own spread (at least 1 ppm); the
  // density uses at least kMinSigmaPpm (see the header), so that a +-5 ppm search is still
  // calibrated when its errors are tight.
  model.measured_spread_ppm = 1.4826 * median(deviation);
  const double spread_ppm = std::max(kMinSpreadPpm, model.measured_spread_ppm);
  model.sigma_ppm = std::max(kMinSigmaPpm, spread_ppm);
  model.spread_ppm = spread_ppm;
  model.window_ppm = median(windows);
  model.window_da = median(windows_da);
  if (model.window_ppm < 6 * spread_ppm) return model;
  size_t far = 0;
  for (double e : confident) far += std::abs(e - model.offset_ppm) > kFarSigmas * model.sigma_ppm;
  model.tail_share = std::clamp(static_cast<double>(far) / static_cast<double>(confident.size()),
                                kMinTailShare, kMaxTailShare);
  model.applied = true;
  const double norm = 1.0 / (model.sigma_ppm * std::sqrt(2 * std::numbers::pi));
  for (PsmFact& p : facts) {
    const double w = window_ppm(p, precursor_tolerance);
    if (!(w > 0)) continue;
    const double z = (p.precursor_ppm - model.offset_ppm) / model.sigma_ppm;
    const double log_ratio =
        std::log10((1 - model.tail_share) * w * norm * std::exp(-0.5 * z * z) + model.tail_share);
    // The bonus only ranks PSMs the fragments already single out (E < 1); the penalty is kept.
    if (log_ratio < 0 || p.score > 0) p.score += log_ratio;
  }
  return model;
}

std::string describe(const PrecursorCalibration& m) {
  char line[320];
  const char* from = m.best_targets ? "best-scoring" : "confident";
  const std::string window = window_text(m);
  if (m.applied) {
    std::snprintf(line, sizeof line,
                  "applied: errors %+.2f ppm +- %.2f ppm (%.0f%% further) from %d %s PSMs in a %s",
                  m.offset_ppm, m.sigma_ppm, 100 * m.tail_share, m.confident, from, window.c_str());
  } else if (m.confident < kMinConfidentForCalibration) {
    std::snprintf(line, sizeof line, "not applied: %d rank-1 target PSM%s, fewer than %d",
                  m.confident, m.confident == 1 ? "" : "s", kMinConfidentForCalibration);
  } else {
    std::snprintf(line, sizeof line,
                  "not applied: a %s, less than 6 x the errors' spread %.2f ppm (1.4826 x MAD "
                  "%.2f ppm, at least %.0f ppm)",
                  window.c_str(), m.spread_ppm, m.measured_spread_ppm, kMinSpreadPpm);
  }
  return line;
}

}  // namespace ionflow
