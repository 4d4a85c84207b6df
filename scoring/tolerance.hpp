// Tolerance: a mass window in Da or ppm with separate lower and upper bounds, as Sage writes
// `{"ppm": [-10, 10]}` or `{"da": [-0.5, 0.5]}`.
//
// Contract: lower <= upper; both are signed offsets added to the reference mass, so a symmetric
// window of 10 ppm is {Ppm, -10, 10}. bounds(m) returns the closed interval [lo, hi] in Da of
// masses that match m. Plain value type, thread-safe.
#pragma once

#include <utility>

namespace ionflow {

struct Tolerance {
  enum class Unit { kDa, kPpm };
  Unit unit = Unit::kPpm;
  double lower = -10.0;  // Da or ppm, <= upper
  double upper = 10.0;   // Da or ppm

  static Tolerance Da(double lower_da, double upper_da) { return {Unit::kDa, lower_da, upper_da}; }
  static Tolerance Ppm(double lower_ppm, double upper_ppm) {
    return {Unit::kPpm, lower_ppm, upper_ppm};
  }

  // The closed interval [lo, hi] (Da) of masses matching `mass_da`.
  std::pair<double, double> bounds(double mass_da) const {
    if (unit == Unit::kDa) return {mass_da + lower, mass_da + upper};
    return {mass_da + mass_da * lower * 1e-6, mass_da + mass_da * upper * 1e-6};
  }
  // Whether `observed_da` lies within the window around `reference_da`.
  bool contains(double reference_da, double observed_da) const {
    auto [lo, hi] = bounds(reference_da);
    return observed_da >= lo && observed_da <= hi;
  }
  // The inverse of bounds(): the closed interval [lo, hi] (Da, or Th for fragments) of
  // theoretical values t whose window contains `observed`: for Da, observed − upper <= t <=
  // observed − lower; for ppm, observed / (1 + upper·1e-6) <= t <= observed / (1 + lower·1e-6).
  // The precursor windows of the scorer and of the fragment index, and the fragment index's peak
  // windows, all use it, so they agree to the last bit.
  std::pair<double, double> theoretical_range(double observed) const {
    if (unit == Unit::kDa) return {observed - upper, observed - lower};
    return {observed / (1.0 + upper * 1e-6), observed / (1.0 + lower * 1e-6)};
  }
};

}  // namespace ionflow
