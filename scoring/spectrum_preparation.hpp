// Spectrum preparation: RawSpectrum -> the peaks a scorer matches fragments against, and one
// Query per assumed precursor charge. Implements prepare_spectrum() declared in search.hpp.
//
// Steps, in order (each tested in tests/scoring/spectrum_preparation_test.cpp):
//  1. Skip: ms_level != 2 -> "not MS2"; precursor m/z <= 0 or not finite -> "no precursor m/z";
//     above kMaxPrecursorMz -> "precursor m/z above 100000" (an MGF's PEPMASS=1e308 was
//     searched, its neutral mass infinite);
//     every charge the file gives (>= 1) above kMaxPrecursorCharge (search_parameters.hpp) ->
//     "precursor charge above 10". Charges above the cap are dropped when others remain (a
//     spectrum listing 2, 3 and 99 is searched at 2+ and 3+).
//  2. Peaks with intensity <= 0 or non-finite m/z/intensity are dropped (the readers have dropped
//     and counted the non-finite, negative-intensity and non-positive m/z ones already:
//     io/peak_checks.hpp; what is left here is zero intensities).
//  3. Precursor removal (params.remove_precursor_peak): for every charge z tried, peaks within
//     the fragment tolerance of the precursor m/z and of its water and ammonia losses
//     (m/z − H2O/z, m/z − NH3/z) are removed. These unfragmented-precursor peaks are the most
//     intense in ion-trap CID spectra and match no b/y ion (as X!Tandem's "spectrum, use
//     neutral loss window" and Comet's remove_precursor_peak = 1 do). Measured with
//     perf/tool_core_search: the loss windows change little (BSA3 42 vs 39 PSMs at 1% FDR,
//     BSA1/BSA2/Ecoli unchanged); kept because they never hurt.
//  4. Optional deisotoping (params.deisotope): a peak lying C13/c (c = 1, 2; C13 spacing
//     1.0033548 Da) above a more intense peak, within the fragment tolerance, is removed.
//  5. Top-N: the params.max_peaks most intense peaks are kept (ties by lower m/z).
//  6. Normalisation: intensity' = 100 · sqrt(I) / sqrt(I_max). The square root damps the few
//     dominant peaks of ion-trap spectra, as Comet's XCorr preprocessing and Sage do; scaling
//     the base peak to 100 follows X!Tandem (so hyperscores are comparable between spectra).
//  7. Fewer than params.min_peaks peaks left -> "too few peaks".
//  8. Peaks sorted by ascending m/z; one Query per charge: the file's charges (values < 1 are
//     ignored, values above kMaxPrecursorCharge dropped), or, when the file gives none
//     (charge_from_file = false), the charges of [min_precursor_charge, max_precursor_charge]
//     that params.infer_precursor_charge keeps (charge_inference.hpp: Comet's rule on the raw
//     peaks of step 2, before any removal; every charge of the range when it is off).
//     neutral_mass = (precursor_mz − proton) · z.
//
// Thread-safe (pure function). Never throws for bad spectra: they are skipped with a reason.
#pragma once

#include <vector>

#include "scoring/query.hpp"
#include "scoring/search.hpp"

namespace ionflow {

// The largest precursor m/z searched. Peptide precursors lie below m/z ~20,000 on every
// instrument (Orbitrap and FT-ICR ranges end at 6,000-20,000); above 100,000 the value is a
// writer's error.
inline constexpr double kMaxPrecursorMz = 100000.0;

// The normalised intensity of step 6 for a raw intensity, given the spectrum's largest kept raw
// intensity (> 0). Exposed for tests and for the E-value/hyperscore documentation.
double normalised_intensity(double raw_intensity, double max_raw_intensity);

}  // namespace ionflow
