// Modification specs given as Sage writes them in its JSON configuration ("static_mods" and
// "variable_mods": {"C": 57.021464, "M": [15.9949], "^Q": -17.026549, "[": 42.010565}).
//
// Key grammar (Sage docs, "Modifications"): a residue letter (kAnywhere on that residue);
// "^" = peptide N-terminus, "$" = peptide C-terminus, "[" = protein N-terminus,
// "]" = protein C-terminus, each optionally followed by residues it is restricted to ("^Q" =
// peptide N-terminal Q, "[M" = protein N-terminal M). The mass is a monoisotopic delta in Da;
// the result has no name and accession 0 (ProForma then writes the mass, "[+15.9949]").
// Pure function; thread-safe. Errors: std::invalid_argument naming the key.
#pragma once

#include <string_view>

#include "scoring/modification.hpp"

namespace ionflow {

// Throws std::invalid_argument for an empty key, a character that is not a letter after the
// terminus symbol, a residue given twice ("CC"), or a non-finite mass. Letters are kept as given,
// never upper-cased: whether each is a residue with a mass (upper case, not B, J, X or Z) is the
// caller's check, one rule for every form of modification (service/job_message: "c" is refused
// as "invalid residue 'c' (use upper-case one-letter codes)", as "B" is; it was read as C).
Modification modification_from_sage(std::string_view key, double mass_da, bool fixed);

}  // namespace ionflow
