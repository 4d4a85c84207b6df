// Modified forms: where a job's fixed and variable modifications sit on one peptide sequence.
//
// Rules (one modification per slot; slots are the N-terminus (position -1), each residue
// 0..length-1, and the C-terminus (position length), as in peptide.hpp):
//  - A fixed modification sits on every matching slot: kAnywhere on each residue listed in
//    `residues`; kPeptideNTerm / kPeptideCTerm on the peptide terminus (if `residues` is empty or
//    lists the terminal residue); kProteinNTerm / kProteinCTerm likewise, but only when the
//    peptide is at that protein terminus (after Met removal too, see digest.hpp).
//    When two fixed modifications claim one slot, a protein-terminal one wins over a
//    peptide-terminal one, otherwise the first listed wins.
//  - Variable modifications go on free slots (not taken by a fixed one), in every combination of
//    0..max_variable_modifications of them, at most one per slot.
// The form without variable modifications is always first. Within a form, placements are sorted
// by position. Modification indices follow PeptideIndex::modifications: fixed, then variable.
// Immutable after construction; place() is thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "scoring/modification.hpp"
#include "scoring/peptide.hpp"

namespace ionflow {

// The forms of one sequence, flat: form f's placements are
// placed[forms[f].first, forms[f].first + forms[f].count).
struct ModifiedForms {
  struct Form {
    uint32_t first = 0;
    uint32_t count = 0;
    double mass_delta_da = 0.0;  // sum of the placed modifications' deltas
  };
  std::vector<PlacedModification> placed;
  std::vector<Form> forms;
  void clear() {
    placed.clear();
    forms.clear();
  }
};

class ModificationPlacer {
 public:
  // Throws std::invalid_argument if max_variable_modifications < 0 or there are more than
  // 65535 modifications.
  ModificationPlacer(std::vector<Modification> fixed, std::vector<Modification> variable,
                     int max_variable_modifications);

  // Fixed then variable: the table PlacedModification::modification indexes.
  const std::vector<Modification>& modifications() const { return all_; }
  // True if any modification is protein-terminal (forms then depend on the protein position).
  bool has_protein_terminal() const { return has_protein_terminal_; }

  // Replaces `out` with every form of `sequence` (upper-case residues).
  void place(std::string_view sequence, bool protein_n_term, bool protein_c_term,
             ModifiedForms& out) const;

  // An upper bound on the number of forms place() makes for `sequence` at any protein position
  // (protein-terminal modifications counted as allowed): the count of subsets of the variable
  // candidates with at most one per position and at most max_variable_modifications of them.
  // Saturates at 2^62. O(length * max_variable_modifications); allocates nothing.
  uint64_t form_count_bound(std::string_view sequence) const;

  // Convenience for tests and tools: each form as its own vector.
  std::vector<std::vector<PlacedModification>> forms(std::string_view sequence,
                                                     bool protein_n_term = false,
                                                     bool protein_c_term = false) const;

 private:
  bool terminal_matches(const Modification& m, char residue) const;

  std::vector<Modification> all_;
  size_t fixed_count_ = 0;
  int max_variable_ = 0;
  bool has_protein_terminal_ = false;
  std::array<int, 26> fixed_residue_{};  // kAnywhere fixed mod per residue, or -1
  std::array<std::vector<uint16_t>, 26> variable_residue_;  // kAnywhere variable mods per residue
  std::vector<uint16_t> fixed_n_, fixed_c_;                 // terminal fixed mods, priority order
  std::vector<uint16_t> variable_n_, variable_c_;           // terminal variable mods
};

}  // namespace ionflow
