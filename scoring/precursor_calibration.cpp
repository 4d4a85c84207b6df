#include "scoring/precursor_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "scoring/fdr.hpp"

namespace ionflow {

namespace {

constexpr double kTailShare = 0.2;
constexpr double kConfidentFdr = 0.01;

double median(std::vector<double> v) {
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  if (v.size() % 2 == 1) return v[mid];
  const double upper = v[mid];
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

}  // namespace

PrecursorCalibration calibrate_precursor_errors(std::vector<PsmFact>& facts) {
  PrecursorCalibration model;
  std::vector<double> scores, errors;
  std::vector<bool> decoy;
  double low = 0, high = 0;
  bool any = false;
  for (const PsmFact& p : facts) {
    if (p.rank != 1) continue;
    scores.push_back(p.score);
    decoy.push_back(p.decoy);
    errors.push_back(p.precursor_ppm);
    low = any ? std::min(low, p.precursor_ppm) : p.precursor_ppm;
    high = any ? std::max(high, p.precursor_ppm) : p.precursor_ppm;
    any = true;
  }
  const std::vector<double> q = target_decoy_q_values(scores, decoy);
  std::vector<double> confident;
  for (size_t k = 0; k < q.size(); ++k) {
    if (!decoy[k] && q[k] <= kConfidentFdr) confident.push_back(errors[k]);
  }
  model.confident = static_cast<int>(confident.size());
  if (model.confident < kMinConfidentForCalibration) return model;
  model.offset_ppm = median(confident);
  std::vector<double> deviation;
  for (double e : confident) deviation.push_back(std::abs(e - model.offset_ppm));
  model.sigma_ppm = std::max(kMinSigmaPpm, 1.4826 * median(deviation));
  model.window_ppm = high - low;
  if (model.window_ppm < 6 * model.sigma_ppm || model.window_ppm > kMaxWindowPpm) return model;
  model.applied = true;
  const double norm = 1.0 / (model.sigma_ppm * std::sqrt(2 * std::numbers::pi));
  for (PsmFact& p : facts) {
    const double z = (p.precursor_ppm - model.offset_ppm) / model.sigma_ppm;
    const double correct =
        (1 - kTailShare) * norm * std::exp(-0.5 * z * z) + kTailShare / model.window_ppm;
    const double log_ratio = std::log10(correct * model.window_ppm);
    // The bonus only ranks PSMs the fragments already single out (E < 1); the penalty is kept.
    if (log_ratio < 0 || p.score > 0) p.score += log_ratio;
  }
  return model;
}

std::string describe(const PrecursorCalibration& m) {
  char line[200];
  if (m.applied) {
    std::snprintf(line, sizeof line,
                  "applied: errors %+.2f ppm +- %.2f ppm from %d confident PSMs in a %.1f ppm "
                  "window",
                  m.offset_ppm, m.sigma_ppm, m.confident, m.window_ppm);
  } else if (m.confident < kMinConfidentForCalibration) {
    std::snprintf(line, sizeof line, "not applied: %d confident PSMs, fewer than %d", m.confident,
                  kMinConfidentForCalibration);
  } else if (m.window_ppm > kMaxWindowPpm) {
    std::snprintf(line, sizeof line,
                  "not applied: the errors span %.1f ppm, more than %.0f (an open or "
                  "low-resolution window)",
                  m.window_ppm, kMaxWindowPpm);
  } else {
    std::snprintf(line, sizeof line,
                  "not applied: the errors span %.1f ppm, less than 6 x their spread %.2f ppm",
                  m.window_ppm, m.sigma_ppm);
  }
  return line;
}

}  // namespace ionflow
