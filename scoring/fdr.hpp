// FDR: q-values by target-decoy competition at PSM (spectrum), peptide and protein level.
//
// Estimator (Elias & Gygi 2007, Nat. Methods 4:207, concatenated target-decoy search): at a
// score threshold t, FDR(t) = D(t) / T(t), with D and T the decoys and targets scoring >= t
// (FDR = 1 when T = 0, capped at 1). The q-value of a score s is the smallest FDR over all
// thresholds t <= s (Storey & Tibshirani 2003), so q is monotone in the score. Items with equal
// scores share one threshold. We use D/T, not the more conservative (D+1)/T, because the
// target counts asked of us (tens of PSMs at 1%) are below 100, where (D+1)/T can never reach
// 0.01; D/T is what Comet, X!Tandem, OpenMS FalseDiscoveryRate and MSFragger/Philosopher report.
//
// Levels (each uses Psm::score, higher is better, rank-1 PSMs only):
//  - spectrum: one rank-1 PSM per spectrum competes; lower-ranked PSMs get the q-value of their
//    score on the rank-1 curve.
//  - peptide: the best PSM of each peptide form (Psm::proforma) competes; every PSM of the
//    peptide gets its q-value.
//  - protein, picked protein FDR (Savitski et al. 2015, Mol. Cell. Proteomics 14:2394): a
//    protein's score is its best peptide's score; a target and its decoy (same accession once the
//    decoy tag is removed) compete and only the higher-scoring of the pair is kept; q-values on
//    the picked list. The loser of a pair gets q = 1. A PSM's protein_q is the smallest q of the
//    proteins in its evidence.
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

// q-values of (score, decoy) items, in input order (D/T, see above).
std::vector<double> target_decoy_q_values(const std::vector<double>& scores,
                                          const std::vector<bool>& decoy);

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
void assign_spectrum_q_values(std::vector<Psm>& psms);
// Fills Psm::peptide_q.
void assign_peptide_q_values(std::vector<Psm>& psms);
// Fills Psm::protein_q with the picked protein FDR; returns every protein seen, best first.
std::vector<ProteinScore> assign_protein_q_values(std::vector<Psm>& psms,
                                                  std::string_view decoy_tag, bool tag_is_suffix);

// The same on facts: fill PsmFact::spectrum_q, peptide_q (peptide = interned ProForma) and
// protein_q.
void assign_spectrum_q_values(std::vector<PsmFact>& facts);
void assign_peptide_q_values(std::vector<PsmFact>& facts);
std::vector<ProteinScore> assign_protein_q_values(PsmFacts& facts, std::string_view decoy_tag,
                                                  bool tag_is_suffix);

// The job summary's counts at 1% FDR (JobSummary::psms_at_1pct, ...), of finalized PSMs.
inline constexpr double kSummaryFdr = 0.01;
struct FdrCounts {
  uint64_t psms = 0;      // target rank-1 PSMs with spectrum_q <= kSummaryFdr
  uint64_t peptides = 0;  // distinct ProForma of those with peptide_q <= kSummaryFdr
  uint64_t proteins = 0;  // distinct target accessions of those with protein_q <= kSummaryFdr
};
FdrCounts count_at_1pct(const std::vector<Psm>& psms);
// The same from finalized facts (the writer's spilled path); equal to the vector's.
FdrCounts count_at_1pct(const PsmFacts& facts);

}  // namespace ionflow
