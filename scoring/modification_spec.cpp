#include "scoring/modification_spec.hpp"

#include <cctype>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace ionflow {

Modification modification_from_sage(std::string_view key, double mass_da, bool fixed) {
  std::string quoted(1, '\'');  // built by append: GCC 12 warns (-Wrestrict) on "'" + string
  quoted.append(key).push_back('\'');
  if (key.empty()) throw std::invalid_argument("empty modification key");
  if (!std::isfinite(mass_da)) {
    throw std::invalid_argument("modification " + quoted + ": mass is not a finite number");
  }
  if (std::abs(mass_da) > kMaxModificationMassDa) {
    std::ostringstream mass;
    mass << mass_da;
    throw std::invalid_argument("modification " + quoted + ": mass " + mass.str() +
                                " Da is beyond +-10000 Da");
  }
  Modification m;
  m.mass_delta_da = mass_da;
  m.fixed = fixed;
  std::string_view residues = key;
  switch (key.front()) {
    case '^':
      m.position = ModificationPosition::kPeptideNTerm;
      break;
    case '$':
      m.position = ModificationPosition::kPeptideCTerm;
      break;
    case '[':
      m.position = ModificationPosition::kProteinNTerm;
      break;
    case ']':
      m.position = ModificationPosition::kProteinCTerm;
      break;
    default:
      m.position = ModificationPosition::kAnywhere;
      break;
  }
  if (m.position != ModificationPosition::kAnywhere) residues.remove_prefix(1);
  for (char c : residues) {
    if (!std::isalpha(static_cast<unsigned char>(c))) {
      throw std::invalid_argument("modification key " + quoted + ": '" + std::string(1, c) +
                                  "' is not a residue letter (keys: residue, ^, $, [, ], "
                                  "optionally followed by a residue)");
    }
    // Kept as given: "c" is not read as C (modification_spec.hpp).
    const char residue = c;
    if (m.residues.find(residue) != std::string::npos) {
      throw std::invalid_argument("modification key " + quoted + ": residue '" +
                                  std::string(1, residue) + "' repeated");
    }
    m.residues += residue;
  }
  return m;
}

}  // namespace ionflow
