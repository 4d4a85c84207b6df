#include "scoring/evalue.hpp"

#include <algorithm>
#include <cmath>

namespace ionflow {

double SurvivalFit::expected_count(double score) const {
  return std::pow(10.0, intercept + slope * score);
}

namespace {

// log10 of the survival counts 0..kLog10Counts-1 (a fit takes one per tail bin, ~3 fits per
// query); the same values as std::log10, computed once.
constexpr size_t kLog10Counts = 4096;

struct Log10Table {
  double values[kLog10Counts];
  Log10Table() {
    values[0] = -HUGE_VAL;
    for (size_t n = 1; n < kLog10Counts; ++n) values[n] = std::log10(static_cast<double>(n));
  }
};

double log10_count(long n) {
  static const Log10Table table;
  return n >= 0 && static_cast<size_t>(n) < kLog10Counts ? table.values[n]
                                                         : std::log10(static_cast<double>(n));
}

}  // namespace

SurvivalFit SurvivalFitter::fit(const std::vector<double>& null_scores) {
  SurvivalFit fit;
  fit.null_count = null_scores.size();
  if (null_scores.empty()) return fit;
  fit.log10_null_count = log10_count(static_cast<long>(null_scores.size()));

  double max_score = 0.0;
  for (double s : null_scores) max_score = std::max(max_score, s);
  const size_t bins = static_cast<size_t>(max_score / bin_width_) + 1;
  histogram_.assign(bins, 0);
  for (double s : null_scores) {
    const size_t k = s > 0.0 ? std::min(bins - 1, static_cast<size_t>(s / bin_width_)) : 0;
    ++histogram_[k];
  }

  // Walk from the top bin down, accumulating the survival count; fit the tail bins.
  const double limit = tail_fraction_ * static_cast<double>(null_scores.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int n = 0;
  long survival = 0;
  for (size_t k = bins; k-- > 0;) {
    survival += histogram_[k];
    if (histogram_[k] == 0) continue;
    if (static_cast<double>(survival) > limit) break;
    const double x = static_cast<double>(k) * bin_width_;
    const double y = log10_count(survival);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
    ++n;
  }
  fit.points = n;
  if (n < 3) return fit;
  const double denom = n * sxx - sx * sx;
  if (denom <= 0.0) return fit;
  fit.slope = (n * sxy - sx * sy) / denom;
  fit.intercept = (sy - fit.slope * sx) / n;
  fit.valid = fit.slope < 0.0;
  return fit;
}

}  // namespace ionflow
