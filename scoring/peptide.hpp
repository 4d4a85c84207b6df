// Peptide: one unique peptide form (sequence plus placed modifications) in the peptide index.
//
// Built once per job by peptide_index.hpp and shared read-only by all scorers. Compact on purpose:
// proteins are indices into PeptideIndex::proteins, modifications index PeptideIndex's table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ionflow {

struct PlacedModification {
  int16_t position = 0;       // 0-based residue; -1 = peptide N-terminus; length = C-terminus
  uint16_t modification = 0;  // index into PeptideIndex::modifications
};

struct PeptideOccurrence {
  uint32_t protein = 0;  // index into PeptideIndex::proteins
  uint32_t start = 0;    // 0-based offset of the first residue in that protein
};

struct Peptide {
  std::string sequence;                          // upper-case residues
  std::vector<PlacedModification> modifications; // fixed and variable, sorted by position
  double neutral_mass_da = 0.0;                  // monoisotopic, with modifications and water
  bool decoy = false;
  uint8_t missed_cleavages = 0;
  uint8_t enzymatic_termini = 2;
  std::vector<PeptideOccurrence> occurrences;    // every protein it occurs in (I/L equal)
};

}  // namespace ionflow
