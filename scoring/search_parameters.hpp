// SearchParameters: every setting that changes which peptides are considered and how spectra
// are scored. The job message (service/job_message) fills it; scoring/ only reads it.
//
// Defaults follow Sage's documented defaults where Sage has the setting. Units are in the names.
// Plain value type; echoed into results.json so a result file says how it was made.
#pragma once

#include <string>
#include <vector>

#include "scoring/modification.hpp"
#include "scoring/tolerance.hpp"

namespace ionflow {

enum class DecoyGeneration {
  kNone,            // only decoys already in the FASTA (recognised by the decoy tag)
  kReversePeptide,  // reverse each peptide but its C-terminal residue (pairs with its target)
  kReverseProtein,  // reverse each protein sequence, then digest
};

struct EnzymeParameters {
  std::string name = "trypsin";  // trypsin, trypsin/p, lys-c, lys-n, arg-c, asp-n, glu-c,
                                 // chymotrypsin, no-enzyme; or "custom" with the fields below
  std::string cleave_at = "KR";  // Sage: residues after (c_terminal) or before which to cleave
  std::string restrict = "P";    // Sage: no cleavage when the next residue is one of these
  bool c_terminal = true;        // cleave C-terminal to cleave_at residues
  bool semi_enzymatic = false;   // one terminus may be non-specific
  int missed_cleavages = 1;
  int min_length = 5;   // residues
  int max_length = 50;  // residues
};

struct DatabaseParameters {
  EnzymeParameters enzyme;
  std::vector<Modification> fixed_modifications;     // resolved (see unimod.hpp)
  std::vector<Modification> variable_modifications;  // resolved
  int max_variable_modifications = 2;                // per peptide
  std::string decoy_tag = "rev_";                    // recognises decoys already in the FASTA
  bool decoy_tag_is_suffix = false;                  // "_rev" style when true
  DecoyGeneration decoy_generation = DecoyGeneration::kReversePeptide;
  bool clip_n_terminal_methionine = true;  // also digest each protein without its initial M
  double peptide_min_mass_da = 500.0;      // neutral monoisotopic
  double peptide_max_mass_da = 5000.0;
};

// The highest precursor charge ionflow searches. A charge above it in an input file (mzML
// MS:1000041 "charge state", MGF CHARGE=) is not believed: such a spectrum is skipped with the
// reason "precursor charge above 10" (scoring/spectrum_preparation.hpp) instead of being
// searched (a charge of 99 gave a false high-scoring PSM in a new-user test). 10 is the top of
// the job message's `precursor_charge` range (service/job_message.cpp, which uses this
// constant), so the charges tried for spectra without one and the charges believed from a
// file share one limit.
inline constexpr int kMaxPrecursorCharge = 10;

struct SearchParameters {
  DatabaseParameters database;
  Tolerance precursor_tolerance = Tolerance::Ppm(-10.0, 10.0);
  Tolerance fragment_tolerance = Tolerance::Da(-0.5, 0.5);
  std::vector<int> isotope_errors = {0};  // C13 isotope errors tried, e.g. {0, 1}
  int min_precursor_charge = 2;           // range tried when a spectrum's charge is unknown
  int max_precursor_charge = 3;           // at most kMaxPrecursorCharge
  int max_fragment_charge = 0;            // 0 = max(1, z - 1) for precursor charge z
  std::string ion_types = "by";           // any of "abcyz" (z = z-dot)
  int min_peaks = 15;   // fewer prepared peaks -> spectrum skipped ("too few peaks")
  int max_peaks = 150;  // top-N peaks by intensity kept
  bool remove_precursor_peak = true;
  bool deisotope = false;
  // Spectra without a charge: singly vs multiply charged from the peaks (charge_inference.hpp)
  // within [min_precursor_charge, max_precursor_charge]; false tries the whole range.
  bool infer_precursor_charge = true;
  int report_psms = 1;  // PSMs reported per spectrum
};

}  // namespace ionflow
