// Peptide: a read-only view of one unique peptide form (sequence plus placed modifications) of
// a PeptideIndex (peptide_index.hpp).
//
// The index stores its peptides column-wise (one mass array, one shared residue buffer, one
// shared array each of placed modifications and occurrences); PeptideIndex::peptide(i) returns
// this view into those columns. A view is small (two pointers per range, passed by value), owns
// nothing and is valid as long as the index it came from is alive and unmodified. Proteins are
// indices into PeptideIndex::proteins, modifications index PeptideIndex::modifications.
// Thread-safety: a view of a const index may be read from any number of threads.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace ionflow {

struct PlacedModification {
  int16_t position = 0;       // 0-based residue; -1 = peptide N-terminus; length = C-terminus
  uint16_t modification = 0;  // index into PeptideIndex::modifications
};
static_assert(sizeof(PlacedModification) == 4);

struct PeptideOccurrence {
  uint32_t protein = 0;  // index into PeptideIndex::proteins
  uint32_t start = 0;    // 0-based offset of the first residue in that protein
};
static_assert(sizeof(PeptideOccurrence) == 8);

struct Peptide {
  std::string_view sequence;                          // upper-case residues
  std::span<const PlacedModification> modifications;  // fixed and variable, sorted by position
  std::span<const PeptideOccurrence> occurrences;     // every protein it occurs in (I/L equal),
                                                      // sorted by protein then start
  double neutral_mass_da = 0.0;                       // monoisotopic, with modifications and water
  bool decoy = false;
  uint8_t missed_cleavages = 0;   // fewest over its occurrences
  uint8_t enzymatic_termini = 2;  // most over its occurrences (0..2)
};

}  // namespace ionflow
