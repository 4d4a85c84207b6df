#include "scoring/psm_facts.hpp"

#include <stdexcept>

namespace ionflow {

PsmFact PsmFacts::make(const Psm& p, uint64_t arrival) {
  PsmFact f;
  f.spectrum_index = p.spectrum_index;
  if (arrival > UINT32_MAX) throw std::length_error("more than 2^32 PSMs in one job");
  f.arrival = static_cast<uint32_t>(arrival);
  f.file_index = p.file_index;
  f.proforma = proformas_.intern(p.proforma);
  f.evidence_begin = static_cast<uint32_t>(evidence_.size());
  for (const PeptideEvidence& e : p.evidence) {
    evidence_.push_back({accessions_.intern(e.protein_accession), e.decoy});
  }
  f.evidence_end = static_cast<uint32_t>(evidence_.size());
  f.rank = p.rank;
  f.charge = static_cast<int16_t>(p.charge);
  f.matched_peaks = p.matched_peaks;
  f.theoretical_peaks = p.theoretical_peaks;
  f.candidates = p.candidates;
  f.missed_cleavages = static_cast<int16_t>(p.missed_cleavages);
  f.isotope_error = static_cast<int16_t>(p.isotope_error);
  f.sequence_length = static_cast<uint32_t>(p.sequence.size());
  f.calcmass_da = static_cast<float>(p.calcmass);
  f.decoy = p.decoy;
  f.score = p.score;
  f.hyperscore = p.hyperscore;
  f.xcorr = p.xcorr;
  f.delta_next = p.delta_next;
  f.precursor_ppm = p.precursor_ppm;
  f.fragment_ppm = p.fragment_ppm;
  f.spectrum_q = p.spectrum_q;
  f.peptide_q = p.peptide_q;
  f.protein_q = p.protein_q;
  return f;
}

uint64_t PsmFacts::memory_bytes() const {
  uint64_t bytes = facts.capacity() * sizeof(PsmFact) + evidence_.capacity() * sizeof(FactEvidence);
  bytes += accession_q.capacity() * sizeof(double);
  bytes += proformas_.memory_bytes() + accessions_.memory_bytes();
  return bytes;
}

PsmFacts facts_of(const std::vector<Psm>& psms) {
  PsmFacts out;
  out.facts.reserve(psms.size());
  for (size_t i = 0; i < psms.size(); ++i) out.add(psms[i], i);
  return out;
}

}  // namespace ionflow
