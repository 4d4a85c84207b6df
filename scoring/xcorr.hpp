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
// Score of a candidate: XCorr = 0.005 · Σ_fragments y'_{bin(fragment m/z)} (b/y and the other
// selected ions at fragment charges 1..max; fragments outside the array count 0).
//
// prepare() visits only the bins within ±75 of a peak (their y' may be nonzero; elsewhere it is
// 0 to the bit: the sliding sum there is exactly 0.0), so high-resolution bins (0.04 Da: ~50,000
// per spectrum) cost about as little as Comet's 1 Da ones.
// Thread-safe per object; one XcorrSpectrum is per-thread scratch reused for every query.
#pragma once

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
    double sum = 0.0;
    const int n = bins_;
    for (const Fragment& f : fragments) {
      const int b = static_cast<int>(f.mz * inverse_bin_width_ + one_minus_offset_);
      if (b >= 0 && b < n) sum += processed_[b];
    }
    return sum * 0.005;
  }

  double bin_width() const { return 1.0 / inverse_bin_width_; }

  // For loops that score fragments as they make them (fragment_pass.hpp): Bins::value_at(mz)
  // is y' of mz's bin, 0 outside the array (adding 0.0 leaves a sum unchanged, to the bit), so
  // score() = 0.005 · Σ value_at(f.mz) added in fragment order.
  struct Bins {
    double inverse_bin_width;
    double one_minus_offset;
    int n;
    const float* values;  // n + 1: y', then 0 for bins outside the array
    float value_at(double mz) const {
      const int b = static_cast<int>(mz * inverse_bin_width + one_minus_offset);
      return values[b >= 0 && b < n ? static_cast<size_t>(b) : static_cast<size_t>(n)];
    }
  };
  Bins bins() const { return {inverse_bin_width_, one_minus_offset_, bins_, processed_.data()}; }

 private:
  double inverse_bin_width_ = 1.0 / 1.0005079;
  double one_minus_offset_ = 0.6;
  int bins_ = 0;
  std::vector<float> binned_;     // scratch
  std::vector<float> processed_;  // y' of bins_ bins, then a 0
  std::vector<int> peak_bins_;    // scratch: the bins that hold a peak, ascending
};

}  // namespace ionflow
