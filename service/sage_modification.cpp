#include "service/sage_modification.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "scoring/mass.hpp"

namespace ionflow {

Modification parse_sage_modification(std::string_view key, double mass_delta_da, bool fixed) {
  auto bad = [&](const std::string& why) {
    return std::invalid_argument("invalid Sage modification key \"" + std::string(key) +
                                 "\": " + why);
  };
  if (!std::isfinite(mass_delta_da)) throw bad("mass is not a finite number");
  Modification m;
  m.fixed = fixed;
  m.mass_delta_da = mass_delta_da;
  if (key.empty() || key.size() > 2)
    throw bad("expected a residue, ^, $, [ or ], optionally + residue");
  std::string_view residue = key;
  switch (key.front()) {
    case '^':
      m.position = ModificationPosition::kPeptideNTerm;
      residue.remove_prefix(1);
      break;
    case '$':
      m.position = ModificationPosition::kPeptideCTerm;
      residue.remove_prefix(1);
      break;
    case '[':
      m.position = ModificationPosition::kProteinNTerm;
      residue.remove_prefix(1);
      break;
    case ']':
      m.position = ModificationPosition::kProteinCTerm;
      residue.remove_prefix(1);
      break;
    default:
      if (key.size() != 1) throw bad("a residue modification is one letter");
      m.position = ModificationPosition::kAnywhere;
  }
  if (!residue.empty()) {
    if (mass::residue_mass(residue.front()) < 0) {
      throw bad(std::string("'") + residue.front() + "' is not an amino-acid residue");
    }
    m.residues = std::string(residue);
  }
  return m;
}

}  // namespace ionflow
