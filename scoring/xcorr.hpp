// XCorr: SEQUEST's cross-correlation score (Eng, McCormack & Yates 1994, J. Am. Soc. Mass
// Spectrom. 5:976) in the "fast XCorr" form of Eng et al. 2008 (J. Proteome Res. 7:4598) as
// Comet computes it (Eng, Jahan & Hoopmann 2013, Proteomics 13:22; Comet's MakeCorrData and
// fast-XCorr preprocessing). It is the most discriminating of the classic scores on low-resolution
// (ion-trap) fragment spectra, where the hyperscore's intensity product is noisy.
//
// Preprocessing of one spectrum (XcorrSpectrum::prepare), on m/z bins of width w and offset o:
//   bin(m) = floor(m / w + (1 − o)); w = 1.0005079 Da and o = 0.4 for fragment windows of about
//   1 Da (Comet's low-resolution defaults), else w = the fragment window width (Da; for ppm the
//   width at 1000 Th), at least 0.01 Da (Comet's smallest fragment_bin_tol), and o = 0.
//   1. y_bin = max over peaks in the bin of the peak intensity (the prepared intensities are
//      already square-rooted, as Comet does), for bins below bin(neutral mass + 50 Da)
//      (capped at 20000 Da).
//   2. Ten equal windows over [0, highest peak bin]: each is scaled to a maximum of 50; values
//      below 5% of the spectrum's largest intensity are zeroed.
//   3. Fast XCorr: y'_i = y_i − (Σ_{j=i−75..i+75} y_j − y_i) / 150.
// Score of a candidate: XCorr = 0.005 · Σ y'_{bin(fragment m/z)} over its fragments (b/y and
// the other selected ions at fragment charges 1..max; fragments outside the array count 0),
// where, with high-resolution bins (every binning but Comet's 1 Da low-resolution one), a bin
// reached by two of the candidate's fragments counts once: b5 and y5 of RDASLSVDPGR have the
// same m/z (RDASL and VDPGR the same residue sum), b2+ and y5++ fall on one peak, and that peak
// is one observation, not two. SEQUEST's theoretical spectrum has one value per bin, and Comet
// counts a bin once at every bin width (pbDuplFragment); with Comet's low-resolution bins each
// fragment still counts here, by measurement (perf/ident, 40 searches, E-value / own-q PSMs at
// 1%; perf/ident/README.md):
//   every fragment counted (until 2026-12-05)              1,784 / 1,932
//   once at high resolution                                 1,856 / 1,942: HeLa at ±1.2 Da by
//     E-value 15 -> 26, where the decoy RDASLSVDPGR above (XCorr 1.85 per fragment, Comet 1.25)
//     had won its window with E 8e-4 (Comet 1.2)
//   once everywhere (Comet's rule)                          1,854 / 1,962: at low resolution
//     the narrow windows reshuffle (BSA1 loses 4 of its 40 at the 1% boundary, Comet 39; the
//     pooled run's E-value 142 -> 129 while its own q gains 162 -> 184), the ±1.2 Da and ±500
//     Da windows gain (BSA1 15 -> 29 and 8 -> 15 by E-value)
//   once at low resolution only for the fragment prefilter's candidates: 1,872 / 1,949, dropped:
//     no reason ties the gain to the prefilter (it counts a peak once per peptide), and one job
//     would mix two XCorrs (the prefilter serves only windows of more than 3,200 peptides) in
//     the features rescoring standardises together.
// A ±0.3 Da window's 0.6 Da bins count once too.
//
// prepare() visits only the bins within ±75 of a peak (their y' may be nonzero; elsewhere it is
// 0 to the bit: the sliding sum there is exactly 0.0), so high-resolution bins (0.04 Da: ~50,000
// per spectrum) cost about as little as Comet's 1 Da ones.
// Not thread-safe, score() and bins() included (they keep which bins a candidate reached): one
// XcorrSpectrum is per-thread scratch reused for every query.
#pragma once

#include <cstdint>
#include <vector>

#include "scoring/ion_series.hpp"
#include "scoring/query.hpp"
#include "scoring/tolerance.hpp"

namespace ionflow {

class XcorrSpectrum {
 public:
  // Builds the preprocessed array for `peaks` (ascending m/z) of a precursor of neutral mass
  // `neutral_mass_da`, binned for `fragment_tolerance`.
  void prepare(const std::vector<Peak>& peaks, double neutral_mass_da,
               const Tolerance& fragment_tolerance);

  // XCorr of a candidate's fragments (formula above). REQUIRES: prepare() called.
  double score(const std::vector<Fragment>& fragments) const {
    const Bins b = bins();
    double sum = 0.0;
    for (const Fragment& f : fragments) sum += b.first_value_at(f.mz);
    return sum * 0.005;
  }

  double bin_width() const { return 1.0 / inverse_bin_width_; }

  // For loops that score fragments as they make them (fragment_pass.hpp): the Bins of one
  // candidate, score() = 0.005 · Σ first_value_at(f.mz) added in fragment order. Each bins()
  // call starts a new candidate (no bin reached yet); a Bins is used by one candidate only.
  struct Bins {
    double inverse_bin_width;
    double one_minus_offset;
    int n;
    const float* values;  // n + 1: y', then 0 for bins outside the array
    uint8_t* stamps;      // n + 1: `candidate` where this candidate has reached the bin
    uint8_t candidate;
    bool count_bin_once;  // high-resolution bins (formula above)
    // y' of mz's bin (0 outside the array); with count_bin_once, 0 after the first time the
    // candidate's fragments reach that bin. Adding 0.0 leaves a sum unchanged, to the bit.
    float first_value_at(double mz) const {
      const int b = static_cast<int>(mz * inverse_bin_width + one_minus_offset);
      const size_t i = b >= 0 && b < n ? static_cast<size_t>(b) : static_cast<size_t>(n);
      if (count_bin_once) {
        if (stamps[i] == candidate) return 0.0f;
        stamps[i] = candidate;
      }
      return values[i];
    }
  };
  Bins bins() const;

 private:
  double inverse_bin_width_ = 1.0 / 1.0005079;
  double one_minus_offset_ = 0.6;
  int bins_ = 0;
  std::vector<float> binned_;     // scratch
  std::vector<float> processed_;  // y' of bins_ bins, then a 0
  std::vector<int> peak_bins_;    // scratch: the bins that hold a peak, ascending
  // Bins::first_value_at's record: stamps_[bin] == candidate_ when the current candidate has
  // reached the bin. Kept across queries (grown, never cleared but when candidate_ wraps, and
  // then only its first stamped_bins_, the most bins a query has had since), so that a query's
  // prepare() costs nothing for it.
  mutable std::vector<uint8_t> stamps_;
  mutable uint8_t candidate_ = 0;
  mutable size_t stamped_bins_ = 0;
  bool count_bin_once_ = false;
};

}  // namespace ionflow
