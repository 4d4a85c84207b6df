// Spectrum jitter: a perturbed copy of a real MS2 spectrum, so that replicated spectra are not
// byte-identical (no cache or dedup can shortcut them) yet still identify as the original would.
//
//   precursor m/z  * (1 + N(0, precursor_ppm_sd) * 1e-6)     one draw per copy
//   fragment m/z   * (1 + N(0, fragment_ppm_sd) * 1e-6)      one draw per peak
//   intensity      * exp(N(0, intensity_log_sd))             one draw per peak (log-normal)
//
// Peaks keep their order (a few ppm cannot swap peaks further apart than that; readers must not
// rely on ascending m/z anyway, see io/spectrum_reader.hpp). Copy 0 of every seed is left
// unperturbed (`perturb` = false), so the first pass over the seeds is exactly the real data.
// Units: ppm, natural-log intensity. Header-only; deterministic for a given Random state.
#pragma once

#include <cmath>
#include <string>

#include "perf/scale/peak_list_writers.hpp"
#include "perf/scale/random.hpp"
#include "scoring/spectrum.hpp"

namespace ionflow::scale {

struct JitterSettings {
  double precursor_ppm_sd = 2.0;
  double fragment_ppm_sd = 2.0;
  double intensity_log_sd = 0.1;
};

inline void jitter_copy(const RawSpectrum& seed, const JitterSettings& settings, bool perturb,
                        Random& random, ScaleSpectrum& out) {
  out.precursor_mz = seed.precursor_mz;
  out.charges = seed.precursor_charges;
  out.mz = seed.mz;
  out.intensity = seed.intensity;
  if (!perturb) return;
  out.precursor_mz *= 1.0 + random.normal() * settings.precursor_ppm_sd * 1e-6;
  for (std::size_t i = 0; i < out.mz.size(); ++i) {
    out.mz[i] *= 1.0 + random.normal() * settings.fragment_ppm_sd * 1e-6;
    out.intensity[i] = static_cast<float>(out.intensity[i] *
                                          std::exp(random.normal() * settings.intensity_log_sd));
  }
}

}  // namespace ionflow::scale
