// Peak-list checks every reader (mzML, mzXML, MGF, MS2) applies the same way, so that one bad
// value gives the same result whatever the file format:
//  - MS level text: parse_ms_level();
//  - precursor charge text: classify_precursor_charge() ("2", "+2", "2+" are 2; "0" means
//    unknown; "-2", "2-" are negative-mode charges; "2.5", "abc", "" and overflows are bad);
//  - peaks: remove_invalid_peaks() drops a peak whose m/z is NaN, infinite, zero or negative, or
//    whose intensity is NaN, infinite or negative, and the reader counts them as a data problem
//    (ReadStats::problems) under kDroppedBadMz / kDroppedBadIntensity /
//    kDroppedNegativeIntensity;
//  - the skip reasons of those decisions, the keys of ReadStats::skipped.
// Plain functions, thread-safe; nothing throws.
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

#include "io/spectrum_reader.hpp"

namespace ionflow {

// Skip reasons shared by the readers.
inline constexpr const char* kSkipBadCharge = "bad precursor charge";
inline constexpr const char* kSkipNegativeCharge =
    "negative precursor charge (negative mode is not searched)";
inline constexpr const char* kSkipTruncated = "truncated at end of file";
inline constexpr const char* kSkipNoPeaks = "no peaks";
// An MS level that is not a whole number in 1-99 ("two", "2.0", "-1"): the spectrum's kind is
// unknown, so it is not guessed to be MS2 (mzML ms level, mzXML msLevel).
inline constexpr const char* kSkipInvalidMsLevel = "invalid MS level";
// A precursor m/z given but not a finite number >= 0 (mzML selected ion m/z, mzXML precursorMz:
// "nan", "-445.1", "445.1x"): not taken as missing, for the isolation target would be searched
// in its place (mzML) or the spectrum lost as having none (mzXML). An empty value is missing.
inline constexpr const char* kSkipInvalidPrecursorMz = "invalid precursor m/z";

// Reads a precursor m/z value as above: true with `mz` set (0 when empty or blank), false for an
// invalid one.
bool parse_precursor_mz(std::string_view text, double& mz);

// The most peaks a spectrum may declare or decode to: 4,194,304 (2^22). An MS2 spectrum, even in
// profile mode, has far fewer (Orbitrap profile MS2: 10^4-10^5 points); the bound keeps a small
// file from decoding to gigabytes (a 1.6 MB mzML whose zlib array declared and held 50 M values
// took 2.3 GB), at most ~100 MB per spectrum. Larger spectra are skipped under kSkipTooManyPeaks
// before anything is allocated for them.
inline constexpr uint64_t kMaxPeaksPerSpectrum = uint64_t{1} << 22;
inline constexpr const char* kSkipTooManyPeaks = "more than 4194304 peaks";

// Data problems (ReadStats::problems) that do not skip the spectrum; counts are peaks.
inline constexpr const char* kDroppedBadMz = "peaks dropped: m/z NaN, infinite or not positive";
// An intensity is stored as a 32-bit float: a finite value beyond its range (3.4e38, e.g. 1e300)
// becomes infinite and is dropped under the same reason, which says so.
inline constexpr const char* kDroppedBadIntensity =
    "peaks dropped: intensity NaN or infinite (as a 32-bit float: beyond 3.4e38)";
// A negative intensity is no signal: spectrum preparation never used one (it keeps intensities
// > 0), so such peaks were dropped there without a word and a spectrum of only negative
// intensities was skipped as "too few peaks". They are dropped here instead, counted like NaN
// ones; a zero intensity (a profile's empty points, padding) is no problem and is left to
// preparation. -0.0 is zero.
inline constexpr const char* kDroppedNegativeIntensity = "peaks dropped: intensity negative";
inline constexpr const char* kPeakWithoutIntensity =
    "peak lines without an intensity (given intensity 1)";
// Counted once per file that ends inside its document or inside a spectrum.
inline constexpr const char* kFileEndsEarly = "file ends early (truncated?)";

enum class ChargeText {
  kCharge,    // a charge >= 1 in `charge`
  kUnknown,   // "0": the writer did not know it
  kNegative,  // a negative-mode charge ("-2", "2-"); `charge` holds it, negative
  kBad,       // not an integer: "2.5", "abc", "", "2+3", an overflow
};

// Classifies one charge value: optional blanks, an optional sign before or after the digits
// (MGF writes "2+", mzML and mzXML "2"). Values above 1000 are kBad.
ChargeText classify_precursor_charge(std::string_view text, int& charge);

// Parses an MS level: true and `level` set for a whole number in 1-99 (blanks and a '+' allowed,
// as number_text.hpp reads numbers); false otherwise (kSkipInvalidMsLevel).
bool parse_ms_level(std::string_view text, int& level);

// The skip reason for a charge that is neither a charge nor unknown, or nullptr.
const char* charge_skip_reason(ChargeText kind);

struct InvalidPeaks {
  uint64_t bad_mz = 0;              // NaN, infinite, zero or negative m/z
  uint64_t bad_intensity = 0;       // NaN or infinite intensity
  uint64_t negative_intensity = 0;  // finite intensity below 0
};

// The peak rule: an m/z must be finite and positive, an intensity (as stored, a float) finite
// and not negative. A peak that breaks several is counted once, in this order: m/z, then
// intensity (NaN/infinite before negative: -inf is infinite).
inline bool valid_peak_mz(double mz) {
  return std::isfinite(mz) && mz > 0.0;
}
inline bool valid_peak_intensity(float intensity) {
  return std::isfinite(intensity);
}
inline bool negative_peak_intensity(float intensity) {
  return intensity < 0.0f;
}

// The lines of a spectrum's first invalid peaks of each kind, for the readers of line-based
// formats (MGF, MS2), whose warnings name the peak's line: note() every peak as it is read (the
// intensity as stored); 0 while there is none.
struct FirstInvalidPeakLines {
  uint64_t bad_mz = 0;
  uint64_t bad_intensity = 0;
  uint64_t negative_intensity = 0;
  void note(double mz, float intensity, uint64_t line) {
    if (!valid_peak_mz(mz)) {
      if (bad_mz == 0) bad_mz = line;
    } else if (!valid_peak_intensity(intensity)) {
      if (bad_intensity == 0) bad_intensity = line;
    } else if (negative_peak_intensity(intensity) && negative_intensity == 0) {
      negative_intensity = line;
    }
  }
};

// Drops the invalid peaks of `spectrum` in place (order of the others kept) and says how many.
InvalidPeaks remove_invalid_peaks(RawSpectrum& spectrum);

// Counts `peaks` (when > 0) under `problem` in `stats`, remembering `where` for the first one.
void note_problem(ReadStats& stats, const char* problem, uint64_t count, std::string_view where);

// remove_invalid_peaks() and note_problem() for each kind, `where` the spectrum's location, or
// for each kind the location of its first invalid peak (`bad_mz_where`, `bad_intensity_where`,
// `negative_intensity_where`).
void check_peaks(RawSpectrum& spectrum, ReadStats& stats, std::string_view where);
void check_peaks(RawSpectrum& spectrum, ReadStats& stats, std::string_view bad_mz_where,
                 std::string_view bad_intensity_where, std::string_view negative_intensity_where);

}  // namespace ionflow
