#include "io/psm_codec.hpp"

#include <cstdint>
#include <stdexcept>

#include "io/record_codec.hpp"

namespace ionflow {

using record_codec::put;
using record_codec::put_string;
using record_codec::RecordCursor;

void encode_psm(const Psm& p, std::string& out) {
  const size_t start = out.size();
  put<uint32_t>(out, 0);  // payload length, patched below
  put<uint32_t>(out, p.file_index);
  put<uint64_t>(out, p.spectrum_index);
  put_string(out, p.native_id);
  put<int64_t>(out, p.scan);
  put<double>(out, p.rt_seconds);
  put<double>(out, p.precursor_mz);
  put<int32_t>(out, p.charge);
  put<double>(out, p.expmass);
  put<double>(out, p.calcmass);
  put<int32_t>(out, p.rank);
  put<uint8_t>(out, p.decoy ? 1 : 0);
  put_string(out, p.sequence);
  put_string(out, p.proforma);
  put<uint32_t>(out, static_cast<uint32_t>(p.modifications.size()));
  for (const AppliedModification& m : p.modifications) {
    put<int32_t>(out, m.position);
    put<char>(out, m.residue);
    put<double>(out, m.mass_delta_da);
    put_string(out, m.name);
    put<int32_t>(out, m.unimod_accession);
    put<uint8_t>(out, m.fixed ? 1 : 0);
  }
  put<uint32_t>(out, static_cast<uint32_t>(p.evidence.size()));
  for (const PeptideEvidence& e : p.evidence) {
    put_string(out, e.protein_accession);
    put<uint32_t>(out, e.start);
    put<char>(out, e.pre);
    put<char>(out, e.post);
    put<uint8_t>(out, e.decoy ? 1 : 0);
  }
  put<int32_t>(out, p.missed_cleavages);
  put<int32_t>(out, p.enzymatic_termini);
  put<int32_t>(out, p.isotope_error);
  put<double>(out, p.precursor_ppm);
  put<double>(out, p.fragment_ppm);
  put<double>(out, p.hyperscore);
  put<double>(out, p.xcorr);
  put<double>(out, p.delta_next);
  put<double>(out, p.evalue);
  put<int32_t>(out, p.matched_peaks);
  put<int32_t>(out, p.theoretical_peaks);
  put<int32_t>(out, p.candidates);
  put<double>(out, p.score);
  put<double>(out, p.spectrum_q);
  put<double>(out, p.peptide_q);
  put<double>(out, p.protein_q);
  const uint32_t payload = static_cast<uint32_t>(out.size() - start - sizeof(uint32_t));
  std::memcpy(out.data() + start, &payload, sizeof(payload));
}

size_t decode_psm(std::string_view in, Psm& p) {
  if (in.size() < sizeof(uint32_t)) return 0;
  uint32_t payload;
  std::memcpy(&payload, in.data(), sizeof(payload));
  if (in.size() - sizeof(uint32_t) < payload) return 0;
  RecordCursor c(in.substr(sizeof(uint32_t), payload), "PSM");
  p.file_index = c.get<uint32_t>();
  p.spectrum_index = c.get<uint64_t>();
  c.get_string(p.native_id);
  p.scan = c.get<int64_t>();
  p.rt_seconds = c.get<double>();
  p.precursor_mz = c.get<double>();
  p.charge = c.get<int32_t>();
  p.expmass = c.get<double>();
  p.calcmass = c.get<double>();
  p.rank = c.get<int32_t>();
  p.decoy = c.get<uint8_t>() != 0;
  c.get_string(p.sequence);
  c.get_string(p.proforma);
  const uint32_t mods = c.get<uint32_t>();
  if (mods > payload) throw std::runtime_error("PSM record: modification count too large");
  p.modifications.resize(mods);
  for (AppliedModification& m : p.modifications) {
    m.position = c.get<int32_t>();
    m.residue = c.get<char>();
    m.mass_delta_da = c.get<double>();
    c.get_string(m.name);
    m.unimod_accession = c.get<int32_t>();
    m.fixed = c.get<uint8_t>() != 0;
  }
  const uint32_t evidence = c.get<uint32_t>();
  if (evidence > payload) throw std::runtime_error("PSM record: evidence count too large");
  p.evidence.resize(evidence);
  for (PeptideEvidence& e : p.evidence) {
    c.get_string(e.protein_accession);
    e.start = c.get<uint32_t>();
    e.pre = c.get<char>();
    e.post = c.get<char>();
    e.decoy = c.get<uint8_t>() != 0;
  }
  p.missed_cleavages = c.get<int32_t>();
  p.enzymatic_termini = c.get<int32_t>();
  p.isotope_error = c.get<int32_t>();
  p.precursor_ppm = c.get<double>();
  p.fragment_ppm = c.get<double>();
  p.hyperscore = c.get<double>();
  p.xcorr = c.get<double>();
  p.delta_next = c.get<double>();
  p.evalue = c.get<double>();
  p.matched_peaks = c.get<int32_t>();
  p.theoretical_peaks = c.get<int32_t>();
  p.candidates = c.get<int32_t>();
  p.score = c.get<double>();
  p.spectrum_q = c.get<double>();
  p.peptide_q = c.get<double>();
  p.protein_q = c.get<double>();
  if (!c.at_end()) throw std::runtime_error("PSM record: bytes left after the last field");
  return sizeof(uint32_t) + payload;
}

}  // namespace ionflow
