// Decoys: reversed sequences for target-decoy FDR estimation (Elias & Gygi 2007, Nat Methods
// 4:207).
//
// DecoyGeneration (search_parameters.hpp) picks the scheme; peptide_index.hpp applies it:
//  - kReversePeptide: each target peptide reversed except its C-terminal residue
//    ("PEPTIDEK" -> "EDITPEPK"), so a decoy keeps its target's mass, enzymatic C-terminus and
//    modification sites (modifications move with their residues: decoy_position()).
//  - kReverseProtein: each target protein reversed, then digested like a target.
//  - kNone: only the decoys already in the FASTA (Protein::is_decoy).
// With kReversePeptide or kReverseProtein, decoys already in the FASTA are not digested
// (Sage's generate_decoys rule), so they are not counted twice. Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "scoring/protein.hpp"

namespace ionflow {

// "PEPTIDEK" -> "EDITPEPK": residues [0, n-1) reversed, the last kept in place.
std::string reverse_peptide(std::string_view peptide);

// Position of a modification of the target peptide (length residues) in its reversed-peptide
// decoy: residue i < length-1 -> length-2-i; the last residue and both termini (-1, length)
// stay where they are.
int decoy_position(int position, int length);

// The decoy accession: tag + accession ("rev_P02769"), or accession + tag when tag_is_suffix.
std::string decoy_accession(std::string_view accession, std::string_view tag, bool tag_is_suffix);

// A decoy protein: accession from decoy_accession(), same description, is_decoy = true and the
// sequence reversed when reverse_sequence (kReverseProtein), else the target's sequence
// unchanged (kReversePeptide: the decoy's peptides keep their target's start offsets).
Protein decoy_protein(const Protein& target, std::string_view tag, bool tag_is_suffix,
                      bool reverse_sequence);

}  // namespace ionflow
