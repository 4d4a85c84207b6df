// E-value: the expected number of random peptides scoring at least as well as a PSM, from the
// spectrum's own distribution of candidate hyperscores — X!Tandem's survival-function fit
// (Fenyö & Beavis 2003, Anal. Chem. 75:768, "expectation values"; X!Tandem mhistogram.cpp
// count_histogram::model), which Comet also uses for its E-value (Eng et al. 2013, Proteomics
// 13:22, "E-value calculation").
//
// Method, for the null scores s_1..s_N of one spectrum (the top-scoring candidate excluded):
//  1. Histogram with bin width `bin_width` (hyperscore units); bin k holds scores in
//     [k·w, (k+1)·w).
//  2. Survival S_k = number of null scores >= k·w (a decreasing step function).
//  3. Linear least-squares fit of log10 S_k against the bin's lower edge k·w over the right
//     tail: the non-empty bins with S_k <= tail_fraction·N (tail_fraction = 0.5, as X!Tandem
//     starts its fit right of the distribution's mode) — at least 3 bins, slope < 0.
//  4. E(s) = 10^(a + b·s): the extrapolated count of null scores >= s.
// A fit that fails (fewer than 3 tail bins or slope >= 0) is reported as invalid; callers fall
// back to the empirical count (see SpectrumScorer).
//
// The p-value of a score is E(s)/N. How SpectrumScorer builds the null and turns fits into
// Psm::evalue is documented in scoring/spectrum_scorer.cpp.
//
// Thread-safe: SurvivalFitter is per-thread scratch (reuses its histogram); functions are pure.
#pragma once

#include <cstddef>
#include <vector>

namespace ionflow {

struct SurvivalFit {
  bool valid = false;
  double intercept = 0.0;         // a: log10 of the survival count at score 0
  double slope = 0.0;             // b (< 0 when valid), per hyperscore unit
  int points = 0;                 // tail bins used
  size_t null_count = 0;          // N
  double log10_null_count = 0.0;  // log10(N), set by SurvivalFitter::fit (0 when N = 0)

  // Expected count of null scores >= score: 10^(a + b·score). REQUIRES: valid.
  double expected_count(double score) const;
  // log10 of the p-value E(score)/N, capped at 0 (p <= 1). REQUIRES: valid, N > 0, the fit made
  // by SurvivalFitter::fit (which sets log10_null_count). Inline and free of logarithms: the
  // scorer calls it twice for each of the ~400 peptides it scores per query.
  double log10_p_value(double score) const {
    const double log_p = intercept + slope * score - log10_null_count;
    return log_p < 0.0 ? log_p : 0.0;
  }
};

class SurvivalFitter {
 public:
  explicit SurvivalFitter(double bin_width = 0.1, double tail_fraction = 0.5)
      : bin_width_(bin_width), tail_fraction_(tail_fraction) {}

  // Fits the survival function of `null_scores` (any order; scores < 0 count as 0).
  SurvivalFit fit(const std::vector<double>& null_scores);

 private:
  double bin_width_;
  double tail_fraction_;
  std::vector<int> histogram_;  // scratch
};

}  // namespace ionflow
