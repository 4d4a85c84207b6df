// Ion series: the theoretical fragment m/z values of a peptide (a, b, c, y, z-dot ions at
// fragment charges 1..max), computed from residue masses with modifications folded in.
//
// Masses (Roepstorff & Fohlman 1984, Biomed. Mass Spectrom. 11:601, nomenclature; Biemann 1990,
// Methods Enzymol. 193:886, for the ion compositions; neutral fragment mass M, m/z = (M + c·p)/c
// with p = mass::kProton and c the fragment charge):
//   b_i  M = Σ residues 1..i (+ N-terminal modification)            b(1+) = Σ + p
//   a_i  M = b_i − CO                                                 (CO = 27.994915 Da)
//   c_i  M = b_i + NH3                                                (NH3 = 17.026549 Da)
//   y_i  M = Σ last i residues + H2O (+ C-terminal modification)     y(1+) = Σ + H2O + p
//   z·_i M = y_i − NH3 + H  (z-dot, the radical z ion of ETD/ECD: y − 16.018724 + 1.007825)
// for i = 1..n−1 (n = peptide length). Element masses from scoring/mass.hpp.
//
// Contract: pure functions on caller-owned buffers (no allocation once the buffers have grown),
// so a scorer can reuse its scratch for every candidate. Thread-safe (no shared state).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "scoring/modification.hpp"
#include "scoring/peptide.hpp"

namespace ionflow {

enum class IonType : uint8_t { kA = 0, kB = 1, kC = 2, kY = 3, kZ = 4 };
inline constexpr int kIonTypeCount = 5;

// A set of ion types as a bit mask (bit = static_cast<int>(IonType)).
struct IonTypes {
  uint8_t mask = 0;

  bool has(IonType t) const { return (mask >> static_cast<int>(t)) & 1u; }
  // Parses SearchParameters::ion_types, e.g. "by", "cz", "abcyz" (z = z-dot), case-insensitive.
  // Throws std::invalid_argument naming the character for anything else, or for an empty set.
  static IonTypes parse(std::string_view letters);
};

// One theoretical fragment ion.
struct Fragment {
  double mz = 0.0;  // Th
  IonType type = IonType::kB;
  uint8_t ordinal = 0;  // i of b_i / y_i: residues in the fragment, 1..n-1
  uint8_t charge = 1;   // fragment charge, >= 1
};

// The residue masses of one peptide form with its modifications added (Da).
struct ModifiedResidues {
  std::vector<double> residue_da;  // one per residue, modification deltas included
  double n_term_da = 0.0;          // N-terminal modification deltas (position -1)
  double c_term_da = 0.0;          // C-terminal modification deltas (position == length)
};

// Fills `out` for `peptide`, whose PlacedModification::modification values index `modifications`
// (PeptideIndex::modifications). Residues without a defined mass (B, J, X, Z) give −1 Da
// (the peptide index never contains them). REQUIRES: every modification index is valid.
void modified_residue_masses(const Peptide& peptide, const std::vector<Modification>& modifications,
                             ModifiedResidues& out);

// Appends to `out` (cleared first) every fragment of `types` for fragment charges
// 1..max_fragment_charge (>= 1), in this order: for each type (a, b, c, y, z), for each charge,
// ordinals 1..n−1, so each (type, charge) run is ascending in m/z.
void fragment_ions(const ModifiedResidues& residues, IonTypes types, int max_fragment_charge,
                   std::vector<Fragment>& out);

// The neutral masses (Da) of `type`'s fragments of ordinals 1..n−1 into out[0, n−1), n =
// residues.residue_da.size() >= 2: the running sums to which fragment_ions() adds each charge's
// protons (m/z = (M + z·p) / z; at z = 1, M + p). The same additions in the same order.
void ion_neutral_masses(const ModifiedResidues& residues, IonType type, double* out);

// The precursor charge's fragment charge limit: `configured` when > 0, else max(1, z − 1)
// (SearchParameters::max_fragment_charge convention).
inline int fragment_charge_limit(int precursor_charge, int configured) {
  if (configured > 0) return configured;
  return precursor_charge > 2 ? precursor_charge - 1 : 1;
}

}  // namespace ionflow
