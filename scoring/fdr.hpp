// FDR: q-values by target-decoy competition at PSM (spectrum), peptide and protein level.
//
// Estimator (Elias & Gygi 2007, Nat. Methods 4:207, concatenated target-decoy search): at a
// score threshold t, FDR(t) = D(t) / T(t), with D and T the decoys and targets scoring >= t
// (FDR = 1 when T = 0, capped at 1). The q-value of a score s is the smallest FDR over all
// thresholds t <= s (Storey & Tibshirani 2003), so q is monotone in the score. Items with equal
// scores share one threshold. We use D/T (with the decoy count bounded below on small runs, see
// "Decoy tail"), not the more conservative (D+1)/T, because the target counts asked of us (tens
// of PSMs at 1%) are below 100, where (D+1)/T can never reach 0.01; D/T is what Comet, X!Tandem,
// OpenMS FalseDiscoveryRate and MSFragger/Philosopher report.
//
// Decoy tail (DecoyCount::kTailBounded, what finalize_psm_facts reports when the score is the
// search's -log10 E statistic). With fewer than 100 targets, D/T <= 0.01 means "no decoy above
// the threshold", so every target above the best decoy gets q = 0. But null targets and null
// decoys are exchangeable, so the null targets above the first null decoy are Geometric(1/2):
// one on average (the "+1" of (D+1)/T: Barber & Candès 2015, Ann. Stat. 43:2055, knockoff+;
// He et al. 2015, arXiv:1501.00537, for target-decoy search) — on a run with 45 PSMs at 1%
// that is ~2% false, whatever the score. Measured (perf/ident, 7 runs x 2 databases, D/T): 15
// impossible PSMs among 465 accepted, BSA3 4-5 of 43 with E-values 0.05-0.2, E. coli 3 of 87
// with E-values 0.96-2.5, all above the run's best decoy. So above the kTailAnchorDecoys-th best
// decoy (score s_m) the decoy count is bounded below by what a null tail predicts:
//   D'(t) = max(D(t), m * 10^-(t - s_m))  for t > s_m,  D(t) otherwise,
// i.e. the null count falls tenfold per unit of score above the m-th decoy: the tail of a
// calibrated E-value (P(E <= e) = e for the best of the random candidates, Fenyö & Beavis 2003;
// -log10 E has survival 10^-s), and of -log10 E plus the precursor log-likelihood ratio
// (precursor_calibration.hpp: 10^LR has mean 1 under a uniform error, so the survival stays
// 10^-s). On the runs above, a line through the 10 best decoys falls 0.6-1.7 decades per unit
// of the score (median 0.9; 0.6-3.3 for -log10 E alone): noisy with 12-484 decoys a run, about
// the slope assumed; the entrapment check is what says the bound holds (perf/ident/README.md;
// also: the runs' decoys split at random into pseudo-targets and pseudo-decoys, D/T accepts 0.97
// pseudo-targets a run at 1%, the bound 0.001). An open search's E-value (with the fragment
// prefilter: the geometric mean of two estimates, spectrum_scorer.cpp) is not calibrated by
// construction: there the bound rests on the entrapment check alone.
// m = 2, not 1: a single outlying decoy (BSA2 with the entrapment database: best decoy 2.95,
// next 1.95) set the bound alone and cut 23 PSMs to 7; m = 3 accepts 18 fewer of 379 PSMs (1
// impossible PSM fewer). A run with hundreds of targets at 1% cuts where D(t) >> m:
// unchanged. Not for a rescored score (rescoring.hpp: its units are not decades of E).
// finalize_psm_facts uses it at PSM and peptide level; the picked protein FDR keeps D/T. The
// same argument holds for proteins (BSA1, the demo job: 12 proteins at 1% by D/T, 9 of them
// with a best PSM at E 0.0095-0.071, 7 keratins sharing one; 3 with the bound), but the
// entrapment check does not measure proteins, so that change is left open.
//
// Levels (each uses Psm::score, higher is better, rank-1 PSMs only):
//  - spectrum: one rank-1 PSM per spectrum competes; lower-ranked PSMs get the q-value of their
//    score on the rank-1 curve.
//  - peptide: the best PSM of each peptide form (Psm::proforma) competes; every PSM of the
//    peptide gets its q-value.
//  - protein, picked protein FDR (Savitski et al. 2015, Mol. Cell. Proteomics 14:2394): a
//    protein's score is its best peptide's score; a target and its decoy (same accession once the
//    decoy tag is removed) compete and only the higher-scoring of the pair is kept; q-values on
//    the picked list. The loser of a pair gets q = 1. With ProteinQFloor::kBestPeptide (the
//    writer's finalize) a protein's q is at least the smallest peptide_q of its rank-1 PSMs: a
//    protein is inferred from accepted peptides, as MaxQuant and Percolator report proteins, and
//    is no more certain than its best one. Without it the picked list of a small run, with D/T,
//    gave q = 0 to proteins whose best PSM had E 0.01-0.07 (the BSA1 demo: 12 proteins at 1% and
//    5 with a peptide at 1%; a new user's E. coli job at ±1 ppm fragments: 0 PSMs, 0 peptides,
//    2 proteins). A PSM's protein_q is the smallest q of the proteins in its evidence.
//
// Each function exists for std::vector<Psm> and for PsmFacts (scoring/psm_facts.hpp, the form
// the writer finalizes a spilled job in); both give the same q-values (one implementation).
//
// Thread-safe: pure functions on the caller's vectors.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scoring/psm.hpp"
#include "scoring/psm_facts.hpp"

namespace ionflow {

// How the decoys above a threshold are counted (see above).
enum class DecoyCount {
  kObserved,     // D(t): Elias & Gygi's D/T
  kTailBounded,  // max(D(t), the -log10 E null tail above the kTailAnchorDecoys-th decoy)
};
inline constexpr int kTailAnchorDecoys = 2;

// q-values of (score, decoy) items, in input order (D/T, see above). With kTailBounded, the
// scores must be on the -log10 E scale (one unit = a decade of E); with fewer decoys than
// kTailAnchorDecoys the anchor is the lowest decoy, with none the count is D(t). A NaN score
// ranks below every number (each NaN a threshold of its own).
std::vector<double> target_decoy_q_values(const std::vector<double>& scores,
                                          const std::vector<bool>& decoy,
                                          DecoyCount count = DecoyCount::kObserved);

// Strips `decoy_tag` from a decoy accession ("rev_P1" -> "P1", or "P1_rev" with suffix);
// returns the accession unchanged when it does not carry the tag.
std::string_view strip_decoy_tag(std::string_view accession, std::string_view decoy_tag,
                                 bool tag_is_suffix);

// Per-protein result of the picked protein FDR.
struct ProteinScore {
  std::string accession;
  bool decoy = false;
  double score = 0.0;  // best peptide score
  double q_value = 1.0;
  bool picked = false;  // won the competition with its target/decoy partner
};

// Fills Psm::spectrum_q.
void assign_spectrum_q_values(std::vector<Psm>& psms, DecoyCount count = DecoyCount::kObserved);
// Fills Psm::peptide_q.
void assign_peptide_q_values(std::vector<Psm>& psms, DecoyCount count = DecoyCount::kObserved);
// Fills Psm::protein_q with the picked protein FDR; returns every protein seen, best first.
std::vector<ProteinScore> assign_protein_q_values(std::vector<Psm>& psms,
                                                  std::string_view decoy_tag, bool tag_is_suffix,
                                                  DecoyCount count = DecoyCount::kObserved);

// The same on facts: fill PsmFact::spectrum_q, peptide_q (peptide = interned ProForma) and
// protein_q, and PsmFacts::accession_q.
void assign_spectrum_q_values(std::vector<PsmFact>& facts,
                              DecoyCount count = DecoyCount::kObserved);
void assign_peptide_q_values(std::vector<PsmFact>& facts, DecoyCount count = DecoyCount::kObserved);
// kBestPeptide REQUIRES the facts' peptide_q filled (assign_peptide_q_values).
enum class ProteinQFloor { kNone, kBestPeptide };
std::vector<ProteinScore> assign_protein_q_values(PsmFacts& facts, std::string_view decoy_tag,
                                                  bool tag_is_suffix,
                                                  DecoyCount count = DecoyCount::kObserved,
                                                  ProteinQFloor floor = ProteinQFloor::kNone);

// The facts of `psms` (facts_of) with PsmFacts::accession_q from `proteins`, e.g.
// assign_protein_q_values' list (an accession not in it gets q = 1): for the vector forms of
// the functions that read the proteins' q-values from facts.
PsmFacts facts_of(const std::vector<Psm>& psms, const std::vector<ProteinScore>& proteins);

// The job summary's counts at 1% FDR (JobSummary::psms_at_1pct, ...), of finalized PSMs.
inline constexpr double kSummaryFdr = 0.01;
struct FdrCounts {
  uint64_t psms = 0;      // target rank-1 PSMs with spectrum_q <= kSummaryFdr
  uint64_t peptides = 0;  // distinct ProForma of those with peptide_q <= kSummaryFdr
  // Distinct target accessions of those with protein_q <= kSummaryFdr: every accession a shared
  // peptide maps to counts (one keratin peptide of the BSA1 demo job counts 7).
  uint64_t proteins = 0;
  // Target protein groups (protein_groups.hpp, the parsimonious list) built from the rank-1
  // PSMs with peptide_q <= kSummaryFdr, i.e. the peptides counted above, whose q (the best
  // accession_q of their members) is <= kSummaryFdr. At most `proteins`: a group at 1% has a
  // member at 1% with a peptide at 1%, and groups share no member.
  uint64_t protein_groups = 0;
};
// REQUIRES: `facts` finalized (finalize_psm_facts, search.hpp).
FdrCounts count_at_1pct(const PsmFacts& facts);
// The same for Psms, the proteins' q-values from `proteins` (facts_of above); one
// implementation.
FdrCounts count_at_1pct(const std::vector<Psm>& psms, const std::vector<ProteinScore>& proteins);

}  // namespace ionflow
