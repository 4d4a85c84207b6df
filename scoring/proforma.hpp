// ProForma 2.0 strings and applied modifications of an indexed peptide.
//
// Notation (HUPO-PSI ProForma 2.0, sections 4.2.1 "Unimod accession", 4.2.6 "Mass delta" and
// 4.3.1 "N-terminal and C-terminal modifications"): a modification with a Unimod accession is
// written "[UNIMOD:35]", one given by mass only "[+15.9949]" (sign always, up to 6 decimals,
// trailing zeros dropped); residue modifications follow their residue, N-terminal ones precede
// the sequence with "-", C-terminal ones follow it with "-":
//   "[UNIMOD:1]-M[UNIMOD:35]EC[UNIMOD:4]K", "PEPTIDEK-[UNIMOD:2]", "LVNELTEFAK".
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "scoring/peptide.hpp"
#include "scoring/peptide_index.hpp"
#include "scoring/psm.hpp"

namespace ionflow {

// The peptide's modifications resolved against index.modifications, in position order.
// Residue is '\0' for the termini (position -1 and length).
// REQUIRES: peptide belongs to index (its modification indices are valid).
std::vector<AppliedModification> applied_modifications(const Peptide& peptide,
                                                       const PeptideIndex& index);

// ProForma 2.0 string of an indexed peptide.
std::string to_proforma(const Peptide& peptide, const PeptideIndex& index);

// ProForma 2.0 string of a sequence with modifications (e.g. a Psm's sequence and
// modifications). Modifications may be in any order; positions outside [-1, length] are ignored.
std::string to_proforma(std::string_view sequence,
                        const std::vector<AppliedModification>& modifications);

// "UNIMOD:35" or "+15.9949" (see above): the text inside the brackets.
std::string proforma_tag(int unimod_accession, double mass_delta_da);

// A ProForma string of the form to_proforma() writes, split back into its residues and its
// bracketed tags: position -1 for N-terminal tags ("[UNIMOD:1]-..."), the residue's 0-based
// index, or the sequence length for C-terminal ones ("...K-[UNIMOD:2]"). Tags keep their text
// ("UNIMOD:35", "+15.9949"); giving them a mass is the caller's (e.g. by proforma_tag() of the
// job's modifications). Throws std::invalid_argument naming the offset for anything else: an
// unclosed '[', a tag before the first residue without '-', a lower-case or non-letter residue.
struct ProformaTag {
  int position = 0;
  std::string tag;
};
struct ParsedProforma {
  std::string sequence;  // upper-case residues
  std::vector<ProformaTag> tags;
};
ParsedProforma parse_proforma(std::string_view text);

}  // namespace ionflow
