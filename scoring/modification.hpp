// Modification: a resolved mass shift with the sites it may sit on (fixed or variable).
//
// Users name modifications as in Mascot — "Carbamidomethyl (C)", "Oxidation (M)",
// "Acetyl (Protein N-term)", "Gln->pyro-Glu (N-term Q)", "Phospho (STY)" — resolved against
// Unimod (see unimod.hpp), or give an explicit mass and site. Plain value type.
#pragma once

#include <string>

namespace ionflow {

enum class ModificationPosition {
  kAnywhere,      // on any listed residue
  kPeptideNTerm,  // on the peptide N-terminus (optionally only if the first residue is listed)
  kPeptideCTerm,  // on the peptide C-terminus (optionally only if the last residue is listed)
  kProteinNTerm,  // peptide N-terminus that is also the protein's (after Met removal too)
  kProteinCTerm,  // peptide C-terminus that is also the protein's
};

// Largest |mass shift| a modification given by mass may have, Da. Unimod's heaviest entries
// (glycans) are a few thousand Da; a shift of 1e300 or -5000 Da is a typing mistake, not a
// modification, and used to run a search that could match nothing.
inline constexpr double kMaxModificationMassDa = 10000.0;

struct Modification {
  std::string name;            // Unimod title ("Oxidation"), or "" when given by mass only
  int unimod_accession = 0;    // e.g. 35 for Oxidation; 0 when given by mass only
  double mass_delta_da = 0.0;  // monoisotopic mass shift, Da
  ModificationPosition position = ModificationPosition::kAnywhere;
  std::string residues;  // residues it applies to, e.g. "STY"; empty = any residue (termini)
  bool fixed = false;    // fixed (static) or variable
};

}  // namespace ionflow
