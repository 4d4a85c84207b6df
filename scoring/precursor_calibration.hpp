// Precursor calibration: a run's precursor mass errors, learned from its confident PSMs, added
// to the search statistic as a likelihood ratio. Correct PSMs of a high-resolution run have
// errors close to the instrument's offset (measured: BSA1-3 within about ±2 ppm of 0, E. coli
// 4.1 ± 1.1 ppm, the yeast Orbitrap run -1.8 ± 0.5 ppm), random ones spread over the whole
// window (the entrapment PSMs ionflow accepted on BSA2 had -5.6 to -8.4 ppm in a ±10 ppm
// window). Sage and MSFragger recalibrate precursor masses from confident PSMs the same way.
//
// Model (rank-1 PSMs only): the confident set = target PSMs with q <= 0.01 under Psm::score
// (fdr.hpp). Offset mu = their median precursor_ppm, spread sigma = 1.4826 x their median
// absolute deviation (at least kMinSigmaPpm). The error of a correct PSM has density
// f(e) = 0.8 N(e; mu, sigma) + 0.2 / W (a 20% heavy tail: wrong monoisotopic picks, a drifting
// calibration), a random PSM's is uniform 1 / W, W = the span of precursor_ppm over all rank-1
// PSMs (the window). Every PSM's score (-log10 E-value) gains log10(f(e) W): at most
// log10(0.8 W / (sigma sqrt(2 pi)) + 0.2) (+0.84 in a 20 ppm window with sigma 1 ppm), at least
// log10(0.2) = -0.70. A function of the error alone, the same for targets and decoys, so
// target-decoy competition stays fair. The gain (a positive log ratio) is given only to PSMs
// with E < 1 (score > 0): at E >= 1 a random peptide is expected to match the fragments as well,
// and a precursor error near the offset (a random candidate lands within ±sigma of it in about
// 1 of 10 of a 20 ppm window) must not make it an identification — on the E. coli run with an
// appended proteome it made 3 impossible PSMs of 87 accepted, E-values 0.96-2.5 at 2.9-4.2 ppm
// (offset 4.1), 2 of which this rule drops. The penalty applies to every PSM. Both keep the
// null tail of the score at or below that of -log10 E (fdr.hpp, kTailBounded). The sigma floor and
// the tail were chosen on the entrapment check (perf/ident): sigma >= 0.5 ppm with a 5% tail
// accepted 3 fewer PSMs on BSA1 and the same entrapment PSMs.
//
// Applied only when it can be learned and means something: at least kMinConfident confident
// PSMs, and a window W between 6 sigma and kMaxWindowPpm (an open or low-resolution search,
// whose errors are mass shifts or noise, is left alone).
//
// Thread-safe: a pure function on the caller's vector.
#pragma once

#include <string>
#include <vector>

#include "scoring/psm_facts.hpp"

namespace ionflow {

inline constexpr int kMinConfidentForCalibration = 10;
inline constexpr double kMinSigmaPpm = 1.0;
inline constexpr double kMaxWindowPpm = 100.0;

struct PrecursorCalibration {
  bool applied = false;
  int confident = 0;      // confident rank-1 target PSMs the model was learned from
  double offset_ppm = 0;  // mu
  double sigma_ppm = 0;   // sigma
  double window_ppm = 0;  // W
};

// Adds the log10 likelihood ratio of its precursor error to every fact's score (all ranks)
// when the model applies; returns the model either way.
PrecursorCalibration calibrate_precursor_errors(std::vector<PsmFact>& facts);

// One line for the summary (results.json "precursor_calibration"), e.g. "applied: errors +4.10
// ppm +- 1.10 ppm from 52 confident PSMs in a 20.0 ppm window" or "not applied: 4 confident
// PSMs, fewer than 10".
std::string describe(const PrecursorCalibration& model);

}  // namespace ionflow
