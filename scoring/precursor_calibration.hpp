// Precursor calibration: a run's precursor mass errors, learned from its confident PSMs, added
// to the search statistic as a likelihood ratio. Correct PSMs of a high-resolution run have
// errors close to the instrument's offset (measured: BSA1-3 within about ±2 ppm of 0, E. coli
// 4.1 ± 1.1 ppm, the yeast Orbitrap run -1.8 ± 0.5 ppm), random ones spread over the whole
// window (the entrapment PSMs ionflow accepted on BSA2 had -5.6 to -8.4 ppm in a ±10 ppm
// window). Sage and MSFragger recalibrate precursor masses from confident PSMs the same way.
//
// Model (rank-1 PSMs only): the confident set = target PSMs with q <= 0.01 under Psm::score
// (fdr.hpp), or, when fewer than kMinConfidentForCalibration pass, the kFallbackConfident
// best-scoring targets (the estimates below are medians: they hold while at least half of the
// set is correct; a set of random matches has errors spread over the window, a wide sigma and
// no gain). Offset mu = their median precursor_ppm, spread sigma = 1.4826 x their median
// absolute deviation (at least kMinSigmaPpm), tail share t = the fraction of them more than 5
// sigma from mu, within [kMinTailShare, kMaxTailShare] (wrong monoisotopic picks, a drifting
// calibration; in an open search the modified peptides, at their mass shifts). The error of a
// correct PSM has density f(e) = (1 - t) N(e; mu, sigma) + t / W, a random PSM's is uniform 1 /
// W, W = the PSM's own precursor window in ppm: the tolerance's width for a ppm tolerance,
// width / calcmass x 1e6 for a Da tolerance (a +-1.2 Da window is 2400 ppm wide for a 1000 Da
// peptide, 800 ppm for a 3000 Da one; a random candidate is uniform over its own window). Every
// PSM's score (-log10 E-value) gains log10(f(e) W): at most log10((1 - t) W / (sigma sqrt(2
// pi)) + t) (+0.53 in a 20 ppm window with sigma 2 ppm and t = 0.2, +2.6 in a 2400 ppm one), at
// least log10(t) (-0.70 at t = 0.2). Under a uniform error 10^gain has mean 1 for every W and
// t, so the null tail of the score stays at that of -log10 E (fdr.hpp, kTailBounded). A
// function of the error and the window alone, the same for targets and decoys, so target-decoy
// competition stays fair. The gain (a positive log ratio) is given only to PSMs with E < 1
// (score > 0): at E >= 1 a random peptide is expected to match the fragments as well, and a
// precursor error near the offset (a random candidate lands within ±sigma of it in about 1 of
// 5 of a 20 ppm window) must not make it an identification — on the E. coli run with an
// appended proteome it made 3 impossible PSMs of 87 accepted, E-values 0.96-2.5 at 2.9-4.2 ppm
// (offset 4.1), 2 of which this rule drops. The penalty applies to every PSM. The tail floor
// was chosen on the entrapment check (perf/ident): sigma >= 0.5 ppm with a 5% tail accepted 3
// fewer PSMs on BSA1 and the same entrapment PSMs.
// The sigma floor is 2 ppm: the confident set is the run's best-scoring PSMs, mostly intense
// precursors measured most accurately, while the PSMs the ratio decides are the marginal ones,
// weaker precursors with wider errors (Orbitrap specifications: < 3 ppm RMS with external
// calibration). On HeLa the marginal PSMs that Comet and X!Tandem both accept sit at -3.5 and
// -5.7 ppm from a set whose MAD gives 1.3 ppm. perf/ident, own-q PSMs summed over its 40
// searches / searches at least the best peer / entrapment PSMs pooled over the own databases
// and the entrapment databases: floor 1 ppm 1,881 / 21 / 4 of 435 and 6 of 717; 1.5 ppm 1,915 /
// 22 / 4 and 6; 2 ppm 1,922 / 24 / 5 of 451 (1.2% [0.4-2.9]) and 6 of 742; 2.5 ppm 1,927 / 24
// / 8 (1.9%) and 5; 3 ppm 1,926 / 24 / 7 and 5. A Student t (nu 4 or 2) instead of the normal
// let random PSMs through (9 and 10 of ~445 on the own databases).
//
// Applied when it can be learned and means something: a confident set of at least
// kMinConfidentForCalibration and a median window at least 6 spreads wide (the measured spread,
// at least 1 ppm: a +-5 ppm search of tight errors is calibrated, with sigma 2 ppm). Wide windows
// gain the most: at +-1.2 Da (a TOF run searched so) perf/ident's charge-less HeLa run went from 14
// to 26 PSMs at 1% (Comet 21); an open search (+-500 Da) of BSA1 from 0 to 31 (Comet 7), of E. coli
// from 62 to 71, with no entrapment PSM. Until 2026-12-04 W was the span of the run's errors,
// windows over 100 ppm were left alone and the tail share was 0.2.
//
// Thread-safe: a pure function on the caller's vector.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "scoring/psm_facts.hpp"
#include "scoring/tolerance.hpp"

namespace ionflow {

inline constexpr int kMinConfidentForCalibration = 10;
inline constexpr double kMinSigmaPpm = 2.0;
inline constexpr double kMinSpreadPpm = 1.0;  // the floor of the spread the 6-sigma test uses
inline constexpr size_t kFallbackConfident = 20;
inline constexpr double kMinTailShare = 0.2;
inline constexpr double kMaxTailShare = 0.8;

struct PrecursorCalibration {
  bool applied = false;
  int confident = 0;                // confident rank-1 target PSMs the model was learned from
  double offset_ppm = 0;            // mu
  double sigma_ppm = 0;             // sigma of the density: the spread, at least kMinSigmaPpm
  double spread_ppm = 0;            // measured_spread_ppm, at least kMinSpreadPpm
  double measured_spread_ppm = 0;   // 1.4826 x MAD of the confident errors
  double window_ppm = 0;            // the median W over the rank-1 PSMs
  double window_da = 0;             // the median window in Da
  bool window_given_in_da = false;  // the search's window is a Da one (describe() says so)
  double tail_share = 0;            // t
  bool best_targets = false;        // the confident set is the best-scoring targets (too few at 1%)
};

// Adds the log10 likelihood ratio of its precursor error to every fact's score (all ranks)
// when the model applies; returns the model either way.
// `precursor_tolerance`: the search's (SearchParameters::precursor_tolerance); a Da tolerance
// needs PsmFact::calcmass_da (a fact without it gains nothing).
PrecursorCalibration calibrate_precursor_errors(std::vector<PsmFact>& facts,
                                                const Tolerance& precursor_tolerance);

// One line for the summary (results.json "precursor_calibration"), e.g. "applied: errors +4.04
// ppm +- 2.00 ppm (20% further) from 82 confident PSMs in a 20.0 ppm window" (the offset and the
// sigma of the density, at least kMinSigmaPpm) or "not applied: 4 rank-1 target PSMs, fewer
// than 10" or "not applied: a 4.0 ppm window, less than 6 x the errors' spread 1.00 ppm (1.4826
// x MAD 0.44 ppm, at least 1 ppm)". A Da window is named in Da, its ppm width after it: "a 300.0
// Da window (257583.1 ppm at the PSMs' median mass)".
std::string describe(const PrecursorCalibration& model);

}  // namespace ionflow
