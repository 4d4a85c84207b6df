#include "scoring/charge_inference.hpp"

#include <algorithm>
#include <cmath>

namespace ionflow {

double intensity_fraction_below(const std::vector<double>& mz, const std::vector<float>& intensity,
                                double precursor_mz) {
  const size_t n = std::min(mz.size(), intensity.size());
  double below = 0.0;
  double total = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const double in = intensity[i];
    if (!std::isfinite(in) || !(in > 0.0) || !std::isfinite(mz[i])) continue;
    total += in;
    if (mz[i] < precursor_mz) below += in;
  }
  return total > 0.0 ? below / total : 1.0;
}

bool looks_singly_charged(const std::vector<double>& mz, const std::vector<float>& intensity,
                          double precursor_mz) {
  return intensity_fraction_below(mz, intensity, precursor_mz) > kSinglyChargedIntensityFraction;
}

std::vector<int> inferred_precursor_charges(const std::vector<double>& mz,
                                            const std::vector<float>& intensity,
                                            double precursor_mz, int min_charge, int max_charge) {
  const int lo = std::max(1, min_charge);
  std::vector<int> range;
  for (int z = lo; z <= max_charge; ++z) range.push_back(z);
  std::vector<int> picked;
  const bool singly = looks_singly_charged(mz, intensity, precursor_mz);
  for (int z : range) {
    if (singly ? z == 1 : z >= 2) picked.push_back(z);
  }
  return picked.empty() ? range : picked;
}

}  // namespace ionflow
