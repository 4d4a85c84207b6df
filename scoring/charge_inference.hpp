// Charge inference: which precursor charges to try for a spectrum whose file gives none, from
// its peaks, as Comet does (CometSearch/CometPreprocess.cpp, UWPR/Comet at 819171b, the
// "1+ or 2+/3+" rule of the charge-state loop in LoadAndPreprocessSpectra): a singly charged
// precursor cannot give fragments above its own m/z (a fragment of a 1+ ion carries at most
// the whole ion's mass and its one charge), so when more than 95% of the spectrum's summed
// intensity lies strictly below the precursor m/z (or the spectrum has no intensity) it is
// taken as singly charged; otherwise as multiply charged (Comet then tries 2+ and 3+, or the
// configured precursor_charge range with override_charge 3).
//
// ionflow keeps the configured range [min_precursor_charge, max_precursor_charge] as the
// bound: singly charged -> {1} if the range holds 1; multiply charged -> the range's charges
// >= 2. When that leaves nothing (a singly charged spectrum and a range of [2, 3]; a multiply
// charged one and a range of [1, 1]) the whole range is tried, as without inference. Each
// charge becomes its own query and its own E-value (the candidates of one charge compete with
// each other only); finalize.cpp reports the best across a spectrum's charges.
//
// Pure functions, thread-safe, never throw.
#pragma once

#include <vector>

namespace ionflow {

// Comet's threshold on the fraction of intensity below the precursor m/z (CometPreprocess.cpp:
// `(dSumBelow/dSumTotal) > 0.95`).
inline constexpr double kSinglyChargedIntensityFraction = 0.95;

// The fraction (0..1) of the summed intensity of peaks with m/z strictly below `precursor_mz`
// (Th). Peaks with non-finite or non-positive intensity are ignored; `mz` and `intensity` are
// read up to the shorter length. Returns 1 when no peak has positive intensity (Comet takes
// such a spectrum as singly charged).
double intensity_fraction_below(const std::vector<double>& mz, const std::vector<float>& intensity,
                                double precursor_mz);

// Whether the peaks say singly charged: intensity_fraction_below(...) >
// kSinglyChargedIntensityFraction.
bool looks_singly_charged(const std::vector<double>& mz, const std::vector<float>& intensity,
                          double precursor_mz);

// The charges to try (ascending) for a spectrum without a charge, by the rule above, within
// [max(1, min_charge), max_charge]. Empty only when that range is empty.
std::vector<int> inferred_precursor_charges(const std::vector<double>& mz,
                                            const std::vector<float>& intensity,
                                            double precursor_mz, int min_charge, int max_charge);

}  // namespace ionflow
