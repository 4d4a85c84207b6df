#include "scoring/psm_facts.hpp"

namespace ionflow {

uint32_t PsmFacts::intern(const std::string& s, std::unordered_map<std::string, uint32_t>& ids,
                          std::vector<const std::string*>& by_id) {
  auto [it, inserted] = ids.emplace(s, static_cast<uint32_t>(by_id.size()));
  if (inserted) by_id.push_back(&it->first);  // unordered_map nodes never move
  return it->second;
}

PsmFact PsmFacts::make(const Psm& p, uint64_t arrival) {
  PsmFact f;
  f.spectrum_index = p.spectrum_index;
  f.arrival = arrival;
  f.file_index = p.file_index;
  f.proforma = intern(p.proforma, proforma_ids_, proformas_);
  f.evidence_begin = static_cast<uint32_t>(evidence_.size());
  for (const PeptideEvidence& e : p.evidence) {
    evidence_.push_back({intern(e.protein_accession, accession_ids_, accessions_), e.decoy});
  }
  f.evidence_end = static_cast<uint32_t>(evidence_.size());
  f.rank = p.rank;
  f.charge = p.charge;
  f.matched_peaks = p.matched_peaks;
  f.theoretical_peaks = p.theoretical_peaks;
  f.candidates = p.candidates;
  f.missed_cleavages = p.missed_cleavages;
  f.isotope_error = p.isotope_error;
  f.sequence_length = static_cast<uint32_t>(p.sequence.size());
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
  auto strings = [&](const std::unordered_map<std::string, uint32_t>& ids,
                     const std::vector<const std::string*>& by_id) {
    bytes += ids.bucket_count() * sizeof(void*) + by_id.capacity() * sizeof(void*);
    for (const auto& [s, id] : ids) {
      // A node: next pointer, key, value, cached hash; long strings own a heap block.
      bytes += sizeof(void*) + sizeof(std::string) + sizeof(uint64_t) + sizeof(size_t);
      if (s.capacity() > 15) bytes += s.capacity() + 1;
    }
  };
  strings(proforma_ids_, proformas_);
  strings(accession_ids_, accessions_);
  return bytes;
}

PsmFacts facts_of(const std::vector<Psm>& psms) {
  PsmFacts out;
  out.facts.reserve(psms.size());
  for (size_t i = 0; i < psms.size(); ++i) out.add(psms[i], i);
  return out;
}

}  // namespace ionflow
