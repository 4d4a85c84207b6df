// results.tsv: Sage-compatible tab-separated PSM table (Sage's results.sage.tsv names and
// meanings for the shared columns), then ionflow's own columns.
//
// Columns, in order:
//   psm_id            1-based row number
//   filename          spectra file name without directory ("BSA1.mzML"); the path as given
//                     when two of the job's files share a name
//   scannr            native id ("controllerType=0 controllerNumber=1 scan=2"); MGF: the TITLE,
//                     or "index=N" when the spectrum had none
//   rank              1 = best PSM of the spectrum
//   label             1 target, -1 decoy
//   expmass, calcmass experimental / theoretical neutral monoisotopic mass, Da, 5 decimals
//   charge            precursor charge
//   peptide           ProForma 2.0 ("[UNIMOD:1]-M[UNIMOD:35]EK")
//   proteins          accessions joined by ';'
//   peptide_len, missed_cleavages, isotope_error
//   precursor_ppm     signed, 4 decimals;  fragment_ppm  mean absolute, 4 decimals
//   hyperscore, delta_next   4 decimals
//   matched_peaks
//   rt                retention time in MINUTES, 4 decimals, as Sage: its mzML reader keeps scan
//                     start time as written (instruments write minutes) and its MGF reader
//                     divides RTINSECONDS by 60; empty when unknown
//   spectrum_q, peptide_q, protein_q   6 decimals
//   evalue            scientific, 4 significant digits ("1.234e-05")
//   precursor_mz      Th, 6 decimals
//   scan              scan number, or empty when unknown
//   discriminant_score  the score the q-values follow (Psm::score, 6 decimals): the rescored
//                     linear discriminant (scoring/rescoring.hpp), or the search's statistic
//                     when rescoring was not applied (Sage: sage_discriminant_score)
// Tabs and newlines inside text fields become spaces. Numbers via std::to_chars: locale-free and
// deterministic.
#include <string_view>
#include <vector>

#include "io/result_common.hpp"
#include "io/result_writer.hpp"
#include "io/text_output.hpp"

namespace ionflow {

namespace {

constexpr std::string_view kHeader =
    "psm_id\tfilename\tscannr\trank\tlabel\texpmass\tcalcmass\tcharge\tpeptide\tproteins\t"
    "peptide_len\tmissed_cleavages\tisotope_error\tprecursor_ppm\tfragment_ppm\thyperscore\t"
    "delta_next\tmatched_peaks\trt\tspectrum_q\tpeptide_q\tprotein_q\tevalue\tprecursor_mz\tscan"
    "\tdiscriminant_score\n";

void put_field(TextOutput& out, std::string_view text) {
  for (char c : text) out.put(c == '\t' || c == '\n' || c == '\r' ? ' ' : c);
}

}  // namespace

void write_tsv(std::ostream& out, const PsmSource& psms, const ResultContext& context) {
  TextOutput text(out);
  text.put(kHeader);
  // One label per file, worked out once (not once per row).
  std::vector<std::string_view> labels(context.spectra_paths.size());
  for (size_t f = 0; f < labels.size(); ++f) {
    labels[f] = result_format::spectra_file_label(context, static_cast<uint32_t>(f));
  }
  uint64_t row = 0;
  psms.for_each([&](const Psm& psm) {
    text.put_uint(++row);
    text.put('\t');
    put_field(text, psm.file_index < labels.size() ? labels[psm.file_index] : std::string_view());
    text.put('\t');
    put_field(text, result_format::native_id_or_index(psm));
    text.put('\t');
    text.put_int(psm.rank);
    text.put(psm.decoy ? "\t-1\t" : "\t1\t");
    text.put_fixed(psm.expmass, 5);
    text.put('\t');
    text.put_fixed(psm.calcmass, 5);
    text.put('\t');
    text.put_int(psm.charge);
    text.put('\t');
    put_field(text, result_format::proforma(psm));
    text.put('\t');
    for (std::size_t i = 0; i < psm.evidence.size(); ++i) {
      if (i > 0) text.put(';');
      put_field(text, psm.evidence[i].protein_accession);
    }
    text.put('\t');
    text.put_uint(psm.sequence.size());
    text.put('\t');
    text.put_int(psm.missed_cleavages);
    text.put('\t');
    text.put_int(psm.isotope_error);
    text.put('\t');
    text.put_fixed(psm.precursor_ppm, 4);
    text.put('\t');
    text.put_fixed(psm.fragment_ppm, 4);
    text.put('\t');
    text.put_fixed(psm.hyperscore, 4);
    text.put('\t');
    text.put_fixed(psm.delta_next, 4);
    text.put('\t');
    text.put_int(psm.matched_peaks);
    text.put('\t');
    if (psm.rt_seconds >= 0) text.put_fixed(psm.rt_seconds / 60.0, 4);
    text.put('\t');
    text.put_fixed(psm.spectrum_q, 6);
    text.put('\t');
    text.put_fixed(psm.peptide_q, 6);
    text.put('\t');
    text.put_fixed(psm.protein_q, 6);
    text.put('\t');
    text.put_scientific(psm.evalue, 3);
    text.put('\t');
    text.put_fixed(psm.precursor_mz, 6);
    text.put('\t');
    if (psm.scan >= 0) text.put_int(psm.scan);
    text.put('\t');
    text.put_fixed(psm.score, 6);
    text.put('\n');
  });
  text.finish();
}

void write_tsv(std::ostream& out, const std::vector<Psm>& psms, const ResultContext& context) {
  write_tsv(out, VectorPsmSource(psms), context);
}

}  // namespace ionflow
