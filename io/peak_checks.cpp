// Shared peak-list checks; see peak_checks.hpp.
#include "io/peak_checks.hpp"

#include "io/number_text.hpp"

#include <charconv>
#include <cmath>
#include <string>

namespace ionflow {

bool parse_precursor_mz(std::string_view text, double& mz) {
  if (trim_blanks(text).empty()) {
    mz = 0.0;
    return true;
  }
  double value = 0.0;
  if (!parse_whole_double(text, value) || !std::isfinite(value) || value < 0.0) return false;
  mz = value;
  return true;
}

bool parse_ms_level(std::string_view text, int& level) {
  int64_t value = 0;
  if (!parse_whole_int(text, value) || value < 1 || value > 99) return false;
  level = static_cast<int>(value);
  return true;
}

ChargeText classify_precursor_charge(std::string_view text, int& charge) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  int sign = 0;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    sign = text.front() == '-' ? -1 : 1;
    text.remove_prefix(1);
  } else if (!text.empty() && (text.back() == '+' || text.back() == '-')) {
    sign = text.back() == '-' ? -1 : 1;
    text.remove_suffix(1);
  }
  if (text.empty() || text.front() < '0' || text.front() > '9') return ChargeText::kBad;
  int64_t z = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), z);
  if (ec != std::errc() || end != text.data() + text.size() || z > 1000) return ChargeText::kBad;
  if (z == 0) return ChargeText::kUnknown;
  charge = static_cast<int>(z) * (sign < 0 ? -1 : 1);
  return sign < 0 ? ChargeText::kNegative : ChargeText::kCharge;
}

const char* charge_skip_reason(ChargeText kind) {
  switch (kind) {
    case ChargeText::kBad:
      return kSkipBadCharge;
    case ChargeText::kNegative:
      return kSkipNegativeCharge;
    default:
      return nullptr;
  }
}

InvalidPeaks remove_invalid_peaks(RawSpectrum& spectrum) {
  InvalidPeaks found;
  const size_t n = std::min(spectrum.mz.size(), spectrum.intensity.size());
  size_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    const double mz = spectrum.mz[i];
    const float intensity = spectrum.intensity[i];
    if (!valid_peak_mz(mz)) {
      ++found.bad_mz;
      continue;
    }
    if (!valid_peak_intensity(intensity)) {
      ++found.bad_intensity;
      continue;
    }
    if (negative_peak_intensity(intensity)) {
      ++found.negative_intensity;
      continue;
    }
    spectrum.mz[kept] = mz;
    spectrum.intensity[kept] = intensity;
    ++kept;
  }
  if (found.bad_mz + found.bad_intensity + found.negative_intensity > 0) {
    spectrum.mz.resize(kept);
    spectrum.intensity.resize(kept);
  }
  return found;
}

void note_problem(ReadStats& stats, const char* problem, uint64_t count, std::string_view where) {
  if (count == 0) return;
  stats.problems[problem] += count;
  stats.first_problem_at.emplace(problem, std::string(where));
}

void check_peaks(RawSpectrum& spectrum, ReadStats& stats, std::string_view where) {
  check_peaks(spectrum, stats, where, where, where);
}

void check_peaks(RawSpectrum& spectrum, ReadStats& stats, std::string_view bad_mz_where,
                 std::string_view bad_intensity_where, std::string_view negative_intensity_where) {
  const InvalidPeaks bad = remove_invalid_peaks(spectrum);
  note_problem(stats, kDroppedBadMz, bad.bad_mz, bad_mz_where);
  note_problem(stats, kDroppedBadIntensity, bad.bad_intensity, bad_intensity_where);
  note_problem(stats, kDroppedNegativeIntensity, bad.negative_intensity, negative_intensity_where);
}

}  // namespace ionflow
