// PsmFacts: the part of each PSM that finalizing a job needs (best PSMs per spectrum, rescoring,
// q-values), about 160 bytes per PSM (136 for the fact, the rest its interned strings) instead of a
// whole Psm (~430 bytes with its strings), so a job's PSMs can stay on disk (io/psm_spill.hpp)
// while it is finalized.
//
// A PsmFact keeps the identity of its PSM (`arrival`, the caller's number for it, e.g. its
// position in the job's PSM stream), the spectrum (file_index, spectrum_index), the score and
// every rescoring feature (scoring/rescoring.hpp), the decoy flag, the ProForma (interned: equal
// ids <=> equal strings) and the protein evidence (interned accessions with their decoy flags).
// finalize_psm_facts (search.hpp), rescore_psms (rescoring.hpp) and the q-value functions
// (fdr.hpp) fill rank, score and the three q-values exactly as their std::vector<Psm> versions
// fill the Psm fields of the same name (those versions are wrappers over these). The protein
// q-values also stay per accession (PsmFacts::accession_q), which the protein groups of the
// job's summary (protein_groups.hpp) read.
//
// Field names and units are Psm's (scoring/psm.hpp). Plain value types; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scoring/psm.hpp"
#include "scoring/string_interner.hpp"

namespace ionflow {

struct PsmFact {
  uint64_t spectrum_index = 0;
  uint32_t arrival = 0;  // the caller's identity of the PSM
  uint32_t file_index = 0;
  uint32_t proforma = 0;        // PsmFacts::proforma(id)
  uint32_t evidence_begin = 0;  // PsmFacts::evidence()[evidence_begin, evidence_end)
  uint32_t evidence_end = 0;
  int32_t rank = 1;
  int32_t matched_peaks = 0;
  int32_t theoretical_peaks = 0;
  int32_t candidates = 0;
  uint32_t sequence_length = 0;  // residues of Psm::sequence
  float calcmass_da = 0.0f;      // Psm::calcmass: the precursor window in ppm of a Da tolerance
  int16_t charge = 0;            // the small ones in 16 bits: 136 bytes a fact, not 144
  int16_t missed_cleavages = 0;
  int16_t isotope_error = 0;
  bool decoy = false;
  double score = 0.0;
  double hyperscore = 0.0;
  double xcorr = 0.0;
  double delta_next = 0.0;
  double precursor_ppm = 0.0;
  double fragment_ppm = 0.0;
  double spectrum_q = 1.0;
  double peptide_q = 1.0;
  double protein_q = 1.0;
};

// One protein of a PSM's evidence: interned accession and whether that protein is a decoy.
struct FactEvidence {
  uint32_t protein = 0;  // PsmFacts::accession(id)
  bool decoy = false;
};

class PsmFacts {
 public:
  // The facts, in the order the finalize functions leave them (they sort and drop).
  std::vector<PsmFact> facts;
  // The picked-protein q-value (fdr.hpp) of each accession id, as assign_protein_q_values leaves
  // it: 1 for an accession it did not score (only in lower-ranked PSMs' evidence) or that lost
  // to its target/decoy partner. Empty until then (then every accession's q is 1).
  std::vector<double> accession_q;

  // The fact of `psm` with `arrival`, interning its ProForma and accessions.
  // Throws std::length_error for an arrival past 2^32 − 1.
  PsmFact make(const Psm& psm, uint64_t arrival);
  // facts.push_back(make(psm, arrival)).
  void add(const Psm& psm, uint64_t arrival) { facts.push_back(make(psm, arrival)); }

  // Views valid until the next make() or add().
  std::string_view proforma(uint32_t id) const { return proformas_[id]; }
  std::string_view accession(uint32_t id) const { return accessions_[id]; }
  uint32_t accession_count() const { return accessions_.size(); }
  const std::vector<FactEvidence>& evidence() const { return evidence_; }

  // Approximate bytes held (facts, evidence, interned strings and their maps), for logs/tests.
  uint64_t memory_bytes() const;

 private:
  StringInterner proformas_, accessions_;
  std::vector<FactEvidence> evidence_;
};

// The facts of `psms`, arrival = index in the vector, in vector order.
PsmFacts facts_of(const std::vector<Psm>& psms);

}  // namespace ionflow
