// Psm: one peptide-spectrum match, self-contained so it can cross machines and be written by any
// result writer without the peptide index. Filled by the scorer; q-values filled by fdr.hpp.
//
// Masses in Da (neutral), m/z in Th, errors in ppm. Plain value type.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ionflow {

// One modification as placed on a matched peptide.
struct AppliedModification {
  int position = 0;  // 0-based residue index; -1 = peptide N-terminus, length = C-terminus
  char residue = 0;  // residue it sits on ('\0' for termini)
  double mass_delta_da = 0.0;
  std::string name;          // Unimod title, "" if given by mass
  int unimod_accession = 0;  // 0 if given by mass
  bool fixed = false;
};

// Where the peptide occurs in one protein.
struct PeptideEvidence {
  std::string protein_accession;
  uint32_t start = 0;  // 0-based offset of the first residue in the protein sequence
  char pre = '-';      // residue before the peptide, '-' at the protein N-terminus
  char post = '-';     // residue after the peptide, '-' at the protein C-terminus
  bool decoy = false;
};

struct Psm {
  // The spectrum and the query it came from.
  uint32_t file_index = 0;
  uint64_t spectrum_index = 0;
  std::string native_id;
  int64_t scan = -1;
  double rt_seconds = -1.0;
  double precursor_mz = 0.0;
  int charge = 0;
  double expmass = 0.0;   // experimental neutral mass, Da
  double calcmass = 0.0;  // theoretical neutral mass of the peptide, Da

  // The peptide.
  int rank = 1;          // 1 = best for this spectrum
  bool decoy = false;    // target wins when a peptide is both
  std::string sequence;  // unmodified residues, e.g. "LVNELTEFAK"
  std::string proforma;  // ProForma 2.0, e.g. "LVNELTEFAK", "[UNIMOD:1]-M[UNIMOD:35]EK"
  std::vector<AppliedModification> modifications;
  std::vector<PeptideEvidence> evidence;  // every protein containing it (targets first)
  int missed_cleavages = 0;
  int enzymatic_termini = 2;  // 0, 1 or 2 specific termini
  int isotope_error = 0;      // C13 peaks between monoisotopic and selected, e.g. 0 or 1

  // The match.
  double precursor_ppm = 0.0;  // (expmass - isotope_error * C13 - calcmass) / calcmass * 1e6
  double fragment_ppm = 0.0;   // mean absolute ppm error of matched fragments
  double hyperscore = 0.0;     // X!Tandem hyperscore (see hyperscore.hpp)
  double xcorr = 0.0;          // SEQUEST/Comet fast XCorr (see xcorr.hpp)
  double delta_next = 0.0;     // ranking statistic minus the next-best candidate's
                               // (−log10 p units, see scoring/spectrum_scorer.cpp)
  double evalue = 1.0;         // expected number of random matches this good (see evalue.hpp)
  int matched_peaks = 0;
  int theoretical_peaks = 0;  // fragments considered for this peptide and charge
  int candidates = 0;         // peptides in the precursor windows (all scored, except that
                              // an open search scores only its fragment prefilter's 800)
  double score = 0.0;         // the statistic FDR ranks by, higher is better

  // Filled by fdr.hpp after all PSMs of a job are in.
  double spectrum_q = 1.0;
  double peptide_q = 1.0;
  double protein_q = 1.0;
};

}  // namespace ionflow
