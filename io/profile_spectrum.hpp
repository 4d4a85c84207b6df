// Profile-mode spectra: detection and centroiding, applied by every reader to each MS2 spectrum
// it emits, so that a profile file is searched on its peaks instead of yielding nothing.
//
// Detection: a spectrum is profile when its file says so (mzML MS:1000128 "profile spectrum",
// mzXML scan@centroided="0"), centroid when its file says so (MS:1000127, centroided="1"), and
// otherwise (MGF, MS2, and XML without the term) when looks_like_profile() holds: at least 32
// points, sorted by m/z, of which the median spacing is below 0.1 Th and at least half of the
// consecutive spacing pairs agree within 10% (an instrument samples a profile at nearly regular
// m/z steps; the gaps between centroids are irregular). Measured on the OpenMS examples: all
// MS2 spectra of BSA1 and Ecoli_MS2_small (centroided) are not profile; the profile spectrum of
// peakpicker_tutorial_1.mzML (120,544 points) is, and OpenMS PeakPicker's 94 peaks of it are not.
//
// Centroiding (centroid_profile): points are sorted by m/z. Apex candidates are points with
// intensity > 0 that are the largest of the 5 points around them; from the highest down, each
// takes the points next to it that are at least 80% of its intensity, rise no more than 2% of it
// above the lowest point passed (that would be the flank of the next peak) and are no more than
// 3 apex spacings apart; an apex inside points taken already belongs to that peak. The centroid
// m/z is the intensity-weighted mean of the points taken, its intensity the apex intensity. A
// "top of the peak" weighted centroid with non-maximum suppression; no deconvolution of
// overlapping peaks. Measured against OpenMS PeakPicker on peakpicker_tutorial_1.mzML (a
// MALDI-TOF profile, 1000-5000 m/z): each of its 94 peaks has one of our centroids within
// 28.1 ppm, the median is 4.4 ppm (top 50% instead of 20%: 9.9 and 54.4 ppm; a 3-point
// Gaussian apex fit: 5.0 and 29.4 ppm).
//
// A spectrum centroided here is counted in ReadStats::problems as "profile spectra centroided"
// (reported in the job summary, so the user learns the file was profile). Plain functions,
// thread-safe; nothing throws.
#pragma once

#include <string_view>
#include <vector>

#include "io/spectrum_reader.hpp"

namespace ionflow {

enum class PeakMode { kUnknown, kCentroid, kProfile };

inline constexpr const char* kProfileCentroided = "profile spectra centroided";

// The detection heuristic above, on `mz` (need not be sorted) and `intensity`.
bool looks_like_profile(const std::vector<double>& mz);

// Replaces the points of `spectrum` by their centroids (ascending m/z).
void centroid_profile(RawSpectrum& spectrum);

// Applies detection (when `declared` is kUnknown) and centroiding, counting a centroided
// spectrum in `stats` with `where`.
void settle_peak_mode(RawSpectrum& spectrum, PeakMode declared, ReadStats& stats,
                      std::string_view where);

}  // namespace ionflow
