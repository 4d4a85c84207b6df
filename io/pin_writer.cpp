// Percolator input (.pin): tab-separated, one PSM per row, in the layout Percolator 3 reads
// (github.com/percolator/percolator/wiki/Interface, "Tab delimited file format"): SpecId, Label,
// ScanNr, optional ExpMass / CalcMass, the features, then Peptide and Proteins.
//
// Columns:
//   SpecId            "<file stem>_<scan>_<charge>_<rank>" (Comet's convention), unique per row
//   Label             1 target, -1 decoy
//   ScanNr            scan number (spectrum_index + 1 when the file has none)
//   ExpMass, CalcMass neutral monoisotopic masses, Da, 5 decimals
//   hyperscore        X!Tandem hyperscore
//   delta_next        hyperscore minus the next-best candidate's (Percolator's deltaScore role)
//   neg_log10_evalue  -log10(E-value), E-value floored at 1e-300 so the feature stays finite
//   matched_peaks     matched fragment peaks
//   matched_fraction  matched_peaks / theoretical_peaks (0 when no theoretical peaks)
//   abs_ppm           |precursor error|, ppm
//   fragment_ppm      mean absolute fragment error, ppm
//   Charge1..ChargeN  one-hot precursor charge; N = max(highest PSM charge,
//                     params.max_precursor_charge)
//   peptide_len, missed_cleavages
//   enzN, enzC        1 when the peptide's N- / C-terminal cleavage matches the enzyme (from the
//                     first protein's flanking residues; see result_common.hpp)
//   Peptide           "K.LVNELTEFAK.D": flanking residues of the first protein ('-' at a protein
//                     terminus) around the peptide, modifications as mass deltas with 4 decimals
//                     after their residue, N-terminal ones before the first residue
//                     ("K.[+42.0106]M[+15.9949]EK.D"), C-terminal ones after the last: the form
//                     Comet writes and Percolator and mokapot parse (flanks X.<peptide>.X, tags
//                     in brackets), not ProForma's "[+42.0106]-M..." whose '-' they keep as a
//                     residue
//   Proteins          one accession per trailing column when ResultContext::protein_delimiter is
//                     a tab (Percolator's default); otherwise one column joined by the delimiter
// Features are written with 6 decimals (std::to_chars, deterministic).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "io/result_common.hpp"
#include "io/result_writer.hpp"
#include "io/text_output.hpp"

namespace ionflow {

void write_pin(std::ostream& out, const PsmSource& psms, const ResultContext& context) {
  const SearchParameters& params = result_format::parameters(context);
  int max_charge = std::max(1, params.max_precursor_charge);
  // First pass: the Charge columns must cover every PSM's charge.
  psms.for_each([&](const Psm& psm) { max_charge = std::max(max_charge, psm.charge); });
  const std::string& delimiter =
      context.protein_delimiter.empty() ? std::string("\t") : context.protein_delimiter;

  TextOutput text(out);
  text.put(
      "SpecId\tLabel\tScanNr\tExpMass\tCalcMass\thyperscore\tdelta_next\tneg_log10_evalue\t"
      "matched_peaks\tmatched_fraction\tabs_ppm\tfragment_ppm");
  for (int z = 1; z <= max_charge; ++z) {
    text.put("\tCharge");
    text.put_int(z);
  }
  text.put("\tpeptide_len\tmissed_cleavages\tenzN\tenzC\tPeptide\tProteins\n");

  std::vector<std::string> stems;  // per file index, computed once
  psms.for_each([&](const Psm& psm) {
    if (psm.file_index >= stems.size()) stems.resize(psm.file_index + 1);
    std::string& stem = stems[psm.file_index];
    if (stem.empty()) {
      stem = result_format::file_stem(result_format::spectra_path(context, psm.file_index));
      if (stem.empty()) stem = "file" + std::to_string(psm.file_index);
    }
    const uint64_t scan = result_format::scan_number(psm);

    text.put(stem);
    text.put('_');
    text.put_uint(scan);
    text.put('_');
    text.put_int(psm.charge);
    text.put('_');
    text.put_int(psm.rank);
    text.put(psm.decoy ? "\t-1\t" : "\t1\t");
    text.put_uint(scan);
    text.put('\t');
    text.put_fixed(psm.expmass, 5);
    text.put('\t');
    text.put_fixed(psm.calcmass, 5);
    text.put('\t');
    text.put_fixed(psm.hyperscore, 6);
    text.put('\t');
    text.put_fixed(psm.delta_next, 6);
    text.put('\t');
    text.put_fixed(-std::log10(std::max(psm.evalue, 1e-300)), 6);
    text.put('\t');
    text.put_int(psm.matched_peaks);
    text.put('\t');
    text.put_fixed(psm.theoretical_peaks > 0
                       ? static_cast<double>(psm.matched_peaks) / psm.theoretical_peaks
                       : 0.0,
                   6);
    text.put('\t');
    text.put_fixed(std::fabs(psm.precursor_ppm), 6);
    text.put('\t');
    text.put_fixed(psm.fragment_ppm, 6);
    for (int z = 1; z <= max_charge; ++z) text.put(psm.charge == z ? "\t1" : "\t0");
    text.put('\t');
    text.put_uint(psm.sequence.size());
    text.put('\t');
    text.put_int(psm.missed_cleavages);

    PeptideEvidence first;
    if (!psm.evidence.empty()) first = psm.evidence.front();
    const auto ends = result_format::enzymatic_ends(psm, first, params.database.enzyme);
    text.put(ends.n_terminal ? "\t1" : "\t0");
    text.put(ends.c_terminal ? "\t1\t" : "\t0\t");

    text.put(first.pre == 0 ? '-' : first.pre);
    text.put('.');
    text.put(result_format::pin_peptide(psm));
    text.put('.');
    text.put(first.post == 0 ? '-' : first.post);
    text.put('\t');
    for (std::size_t i = 0; i < psm.evidence.size(); ++i) {
      if (i > 0) text.put(delimiter);
      text.put(psm.evidence[i].protein_accession);
    }
    text.put('\n');
  });
  text.finish();
}

void write_pin(std::ostream& out, const std::vector<Psm>& psms, const ResultContext& context) {
  write_pin(out, VectorPsmSource(psms), context);
}

}  // namespace ionflow
