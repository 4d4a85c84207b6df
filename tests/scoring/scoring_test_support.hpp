// Shared by the scoring suite's tests: whole-file reads of the real example data and the
// modifications most tests use. Header-only.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "scoring/modification.hpp"

namespace ionflow::scoring_test {

// The whole file ("" if it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Unimod: Carbamidomethyl = UNIMOD:4 (+57.021464 Da), Oxidation = UNIMOD:35 (+15.994915 Da),
// Acetyl = UNIMOD:1 (+42.010565 Da).
inline Modification carbamidomethyl() {
  return {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true};
}
inline Modification oxidation() {
  return {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false};
}
inline Modification protein_n_acetyl() {
  return {"Acetyl", 1, 42.010565, ModificationPosition::kProteinNTerm, "", false};
}

}  // namespace ionflow::scoring_test
