// Sage modification keys: turns one entry of Sage's database.static_mods / variable_mods
// ({"C": 57.021464}, {"M": [15.9949]}, {"^Q": [-17.026549]}) into a Modification.
//
// Key syntax (Sage DOCS.md, "Modifications"): a residue letter ("C") = that residue anywhere;
// "^" / "$" = peptide N- / C-terminus (any residue); "[" / "]" = protein N- / C-terminus;
// "^Q", "$K", "[M", "]K" = the terminus only when it is that residue. The mass is a monoisotopic
// delta in Da. Name and Unimod accession stay empty/0 (Sage gives masses only).
// Thread-safe (pure function).
#pragma once

#include <string_view>

#include "scoring/modification.hpp"

namespace ionflow {

// Throws std::invalid_argument naming the key if it is not Sage syntax or the residue is not
// one of the 20 standard amino acids, U or O.
Modification parse_sage_modification(std::string_view key, double mass_delta_da, bool fixed);

}  // namespace ionflow
