#include "scoring/spectrum_preparation.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "scoring/charge_inference.hpp"
#include "scoring/mass.hpp"

namespace ionflow {

double normalised_intensity(double raw_intensity, double max_raw_intensity) {
  if (raw_intensity <= 0.0 || max_raw_intensity <= 0.0) return 0.0;
  return 100.0 * std::sqrt(raw_intensity / max_raw_intensity);
}

namespace {

struct RawPeak {
  double mz;
  double intensity;
};

// Fragment tolerance window [lo, hi] (Th) around an m/z.
std::pair<double, double> window(const Tolerance& tol, double mz) {
  return tol.bounds(mz);
}

// The charges to search. `above_cap` is set when the file gave charges >= 1 but every one of
// them is above kMaxPrecursorCharge (the result is then empty: the spectrum is skipped).
std::vector<int> charges_to_try(const RawSpectrum& spectrum, const SearchParameters& params,
                                bool& from_file, bool& above_cap) {
  std::vector<int> charges;
  above_cap = false;
  for (int z : spectrum.precursor_charges) {
    if (z > kMaxPrecursorCharge) {
      above_cap = true;
      continue;
    }
    if (z >= 1 && std::find(charges.begin(), charges.end(), z) == charges.end()) {
      charges.push_back(z);
    }
  }
  from_file = !charges.empty();
  if (above_cap) {
    if (charges.empty()) return charges;  // only unbelievable charges: not guessed either
    above_cap = false;                    // e.g. 2, 3, 99: 2 and 3 are searched
  }
  if (!charges.empty()) return charges;
  if (params.infer_precursor_charge) {
    return inferred_precursor_charges(spectrum.mz, spectrum.intensity, spectrum.precursor_mz,
                                      params.min_precursor_charge, params.max_precursor_charge);
  }
  for (int z = std::max(1, params.min_precursor_charge); z <= params.max_precursor_charge; ++z) {
    charges.push_back(z);
  }
  return charges;
}

void remove_precursor_peaks(std::vector<RawPeak>& peaks, double precursor_mz,
                            const std::vector<int>& charges, const Tolerance& fragment_tolerance) {
  std::vector<std::pair<double, double>> windows;
  for (int z : charges) {
    for (double loss : {0.0, mass::kWater, mass::kAmmonia}) {
      windows.push_back(window(fragment_tolerance, precursor_mz - loss / z));
    }
  }
  auto in_window = [&](const RawPeak& p) {
    for (auto [lo, hi] : windows) {
      if (p.mz >= lo && p.mz <= hi) return true;
    }
    return false;
  };
  peaks.erase(std::remove_if(peaks.begin(), peaks.end(), in_window), peaks.end());
}

// REQUIRES: peaks sorted by m/z.
void deisotope(std::vector<RawPeak>& peaks, const Tolerance& fragment_tolerance) {
  std::vector<char> drop(peaks.size(), 0);
  for (size_t i = 0; i < peaks.size(); ++i) {
    for (int c = 1; c <= 2; ++c) {
      const double expected = peaks[i].mz + mass::kC13C12Spacing / c;
      auto [lo, hi] = window(fragment_tolerance, expected);
      for (size_t j = i + 1; j < peaks.size() && peaks[j].mz <= hi; ++j) {
        if (peaks[j].mz >= lo && peaks[j].intensity < peaks[i].intensity) drop[j] = 1;
      }
    }
  }
  size_t out = 0;
  for (size_t i = 0; i < peaks.size(); ++i) {
    if (!drop[i]) peaks[out++] = peaks[i];
  }
  peaks.resize(out);
}

// The peaks with finite, positive m/z and intensity.
std::vector<RawPeak> usable_peaks(const RawSpectrum& spectrum) {
  const size_t n = std::min(spectrum.mz.size(), spectrum.intensity.size());
  std::vector<RawPeak> peaks;
  peaks.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const double mz = spectrum.mz[i];
    const double intensity = spectrum.intensity[i];
    if (std::isfinite(mz) && std::isfinite(intensity) && intensity > 0.0 && mz > 0.0) {
      peaks.push_back({mz, intensity});
    }
  }
  return peaks;
}

// Peak lists are nearly always stored in ascending m/z: strictly ascending peaks have one sorted
// order (themselves), so the sort is skipped for them with the same result.
void sort_by_mz(std::vector<RawPeak>& peaks) {
  const bool strictly_ascending =
      std::adjacent_find(peaks.begin(), peaks.end(), [](const RawPeak& a, const RawPeak& b) {
        return !(a.mz < b.mz);
      }) == peaks.end();
  if (strictly_ascending) return;
  std::sort(peaks.begin(), peaks.end(),
            [](const RawPeak& a, const RawPeak& b) { return a.mz < b.mz; });
}

// Keeps the `keep` most intense peaks, ties at the lowest m/z, in m/z order: the threshold
// intensity is the keep-th largest; then one pass in m/z order keeps every peak above it and the
// first peaks at it. (The same set as selecting on (intensity desc, m/z asc) and sorting it again
// by m/z, without the sort.)
void keep_most_intense(std::vector<RawPeak>& peaks, size_t keep) {
  if (peaks.size() <= keep) return;
  if (keep == 0) {
    peaks.clear();
    return;
  }
  thread_local std::vector<double> intensities;
  intensities.clear();
  for (const RawPeak& p : peaks) intensities.push_back(p.intensity);
  std::nth_element(intensities.begin(), intensities.begin() + (keep - 1), intensities.end(),
                   std::greater<double>());
  const double threshold = intensities[keep - 1];
  size_t above = 0;
  for (const RawPeak& p : peaks) above += p.intensity > threshold ? 1 : 0;
  size_t ties_left = keep - above;
  size_t kept = 0;
  for (const RawPeak& p : peaks) {
    if (p.intensity > threshold || (p.intensity == threshold && ties_left > 0 && ties_left--)) {
      peaks[kept++] = p;
    }
  }
  peaks.resize(kept);
}

// The peaks as floats, intensities normalised to the most intense peak.
std::vector<Peak> normalised_peaks(const std::vector<RawPeak>& peaks) {
  double max_intensity = 0.0;
  for (const RawPeak& p : peaks) max_intensity = std::max(max_intensity, p.intensity);
  std::vector<Peak> prepared;
  prepared.reserve(peaks.size());
  for (const RawPeak& p : peaks) {
    prepared.push_back({static_cast<float>(p.mz),
                        static_cast<float>(normalised_intensity(p.intensity, max_intensity))});
  }
  return prepared;
}

Query query_for_charge(const RawSpectrum& spectrum, const std::vector<Peak>& peaks, int charge,
                       bool charge_from_file) {
  Query q;
  q.file_index = spectrum.file_index;
  q.spectrum_index = spectrum.spectrum_index;
  q.native_id = spectrum.native_id;
  q.scan = spectrum.scan;
  q.rt_seconds = spectrum.rt_seconds;
  q.precursor_mz = spectrum.precursor_mz;
  q.charge = charge;
  q.charge_from_file = charge_from_file;
  q.neutral_mass = mass::neutral_from_mz(spectrum.precursor_mz, charge);
  q.peaks = peaks;
  return q;
}

}  // namespace

PreparedSpectrum prepare_spectrum(const RawSpectrum& spectrum, const SearchParameters& params) {
  PreparedSpectrum result;
  if (spectrum.ms_level != 2) {
    result.skip_reason = "not MS2";
    return result;
  }
  if (!(spectrum.precursor_mz > 0.0) || !std::isfinite(spectrum.precursor_mz)) {
    result.skip_reason = "no precursor m/z";
    return result;
  }
  if (spectrum.precursor_mz > kMaxPrecursorMz) {
    result.skip_reason =
        "precursor m/z above " + std::to_string(static_cast<int64_t>(kMaxPrecursorMz));
    return result;
  }
  bool charge_from_file = true;
  bool charge_above_cap = false;
  const std::vector<int> charges =
      charges_to_try(spectrum, params, charge_from_file, charge_above_cap);
  if (charge_above_cap) {
    result.skip_reason = "precursor charge above " + std::to_string(kMaxPrecursorCharge);
    return result;
  }
  if (charges.empty()) {
    result.skip_reason = "no precursor charge";
    return result;
  }

  std::vector<RawPeak> peaks = usable_peaks(spectrum);
  if (params.remove_precursor_peak) {
    remove_precursor_peaks(peaks, spectrum.precursor_mz, charges, params.fragment_tolerance);
  }
  sort_by_mz(peaks);
  if (params.deisotope) deisotope(peaks, params.fragment_tolerance);
  keep_most_intense(peaks, static_cast<size_t>(std::max(0, params.max_peaks)));
  if (peaks.empty() || peaks.size() < static_cast<size_t>(std::max(1, params.min_peaks))) {
    result.skip_reason = "too few peaks";
    return result;
  }
  const std::vector<Peak> prepared = normalised_peaks(peaks);
  result.queries.reserve(charges.size());
  for (int z : charges) {
    result.queries.push_back(query_for_charge(spectrum, prepared, z, charge_from_file));
    result.queries.back().charges_tried = static_cast<int>(charges.size());
  }
  return result;
}

}  // namespace ionflow
