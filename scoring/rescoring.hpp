// Rescoring: a semi-supervised linear discriminant over PSM features that replaces Psm::score
// when it separates targets from decoys better — Sage's LDA rescoring (Lazear 2023, J. Proteome
// Res. 22:3652, "linear discriminant analysis") in the spirit of Percolator (Käll et al. 2007,
// Nat. Methods 4:923), which learns the same kind of linear score with an SVM.
//
// Features of each rank-1 PSM (standardised to mean 0, s.d. 1):
//   Psm::score (−log10 E-value), hyperscore, delta_next, matched_peaks,
//   matched fraction = matched_peaks / theoretical_peaks, |precursor_ppm|, fragment_ppm,
//   charge, peptide length, missed_cleavages, |isotope_error|, log10(candidates).
// Training (3 iterations): negatives = all decoys, positives = targets with q <= 0.01 under the
// current score; Fisher's discriminant w = (S_w + 1e-3·I)^-1 (μ_pos − μ_neg), S_w the pooled
// within-class covariance.
// Cross-validation as Percolator does (Granholm et al. 2012, BMC Bioinformatics 13(Suppl 16):S3):
// PSMs are split into 3 folds by spectrum_index mod 3; each fold is scored by the model trained
// on the other two, then normalised so that the training split's 1%-FDR threshold is 0 and its
// median decoy −1 (from the training split, not the fold: normalising on the fold's own labels
// let each small fold cut just above its best decoy). Lower-ranked PSMs get their spectrum's
// fold model. So no PSM's score depends on its own label.
// Safeguards: nothing changes below kMinRescorePsms (1000) rank-1 PSMs (the entrapment check of
// perf/ident: rescoring the 139 E. coli spectra against a database with an appended proteome
// accepted 15 impossible PSMs of 102, the search statistic 0 of 73), when a training split has
// fewer than 10 positives or 10 decoys, or when the learned score accepts fewer targets at
// q <= 0.01 than the input score (as mokapot falls back). So the openms-doc and development
// runs (118 to 1166 spectra) keep their statistic; the scale set is rescored.
// Rank-1 PSMs only train and are counted, so report_psms cannot change the model.
//
// Not thread-safe on the same vector; no state otherwise.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "scoring/psm.hpp"
#include "scoring/psm_facts.hpp"

namespace ionflow {

// What rescoring did with a job, for its summary (results.json "rescoring").
struct RescoringOutcome {
  bool applied = false;
  size_t rank1_psms = 0;
  size_t accepted_before = 0;  // target rank-1 PSMs at q <= 0.01 (D/T) under the search statistic
  size_t accepted_after = 0;   // the same under the learned score, when one was trained
  std::string not_applied;     // why not, when !applied
};

// One line for the summary, e.g. "applied: linear discriminant over 13 features, 3
// cross-validation folds; 1011 -> 1040 target PSMs at 1% (D/T) on 19892 rank-1 PSMs" or
// "not applied: 139 rank-1 PSMs, fewer than 1000 (small runs overfit)".
std::string describe(const RescoringOutcome& outcome);

// Rescores `psms` in place (rank-1 PSMs train; every PSM is rescored). Returns true when the
// learned score was applied.
bool rescore_psms(std::vector<Psm>& psms);
// The same on facts (scoring/psm_facts.hpp; the Psm version is a wrapper over it): replaces
// PsmFact::score. `outcome`, when given, says what was done and why.
bool rescore_psms(std::vector<PsmFact>& facts, RescoringOutcome* outcome = nullptr);

}  // namespace ionflow
