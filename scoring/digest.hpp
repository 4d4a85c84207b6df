// Digestion: the peptides an enzyme produces from one protein sequence, as [start, start+length)
// ranges into that sequence (no strings are built here; peptide_index.hpp does that).
//
// Rules:
//  - Fully specific (default): both ends at an enzymatic site or a protein terminus; at most
//    `missed_cleavages` enzymatic sites strictly inside the peptide.
//  - Semi-specific: at least one end specific; missed cleavages counted as above.
//  - no-enzyme (Enzyme::cleaves_every_bond): every substring within the length bounds; missed
//    cleavages are then not counted (always 0), enzymatic_termini is 2.
//  - N-terminal Met removal: if clip_n_terminal_methionine and the sequence starts with 'M',
//    position 1 also counts as a specific N-terminus, so the peptides that start at 0 appear a
//    second time without their Met. A peptide starting at position 1 then has protein_n_term set
//    (protein N-terminal modifications apply to it). Position 1 is not an enzymatic site, so it
//    never counts as a missed cleavage.
//  - Peptides with a residue of undefined mass (B, Z, X, J: mass::residue_mass() < 0) are
//    skipped, as are peptides outside [min_length, max_length] residues or outside
//    [min_mass_da, max_mass_da] (neutral, unmodified, with water).
// Each range appears once per call (a peptide repeated at two places in the protein appears
// twice, with its two starts). Order: by start, then by length. Pure function; thread-safe.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "scoring/enzyme.hpp"

namespace ionflow {

// DigestOptions::max_mass_da's default: no upper bound.
inline constexpr double kUnboundedMassDa = 1e12;

struct DigestOptions {
  int missed_cleavages = 1;
  bool semi_specific = false;
  int min_length = 5;  // residues, inclusive
  int max_length = 50;
  double min_mass_da = 0.0;  // neutral unmodified monoisotopic mass bounds, inclusive
  double max_mass_da = kUnboundedMassDa;
  bool clip_n_terminal_methionine = true;
};

struct DigestedPeptide {
  uint32_t start = 0;   // 0-based offset of the first residue in the protein sequence
  uint16_t length = 0;  // residues
  uint8_t missed_cleavages = 0;
  uint8_t enzymatic_termini = 2;  // 0, 1 or 2 ends at a site / protein terminus / clipped Met
  bool protein_n_term = false;    // starts at 0, or at 1 after Met removal
  bool protein_c_term = false;    // ends at the protein's last residue
};

// Options from the job's database parameters (enzyme, lengths, missed cleavages, Met clipping;
// mass bounds left open because modifications change the mass: peptide_index.hpp applies them).
DigestOptions digest_options_from(const DatabaseParameters& database);

// Appends the peptides of `sequence` to `out` (not cleared, so a caller can reuse its capacity).
// Sequences longer than 2^32 - 1 residues are not supported.
void digest(std::string_view sequence, const Enzyme& enzyme, const DigestOptions& options,
            std::vector<DigestedPeptide>& out);

// For an enzyme that cleaves every bond (Enzyme::cleaves_every_bond) and options without mass
// bounds: how many peptides digest() makes starting at each position of `sequence`, without
// making them (digest() makes up to max_length per residue: 9 G for a 9 M-residue database at
// max_len 1000). `out` is resized to sequence.size(); their sum equals digest()'s count.
void count_unspecific_starts(std::string_view sequence, const DigestOptions& options,
                             std::vector<uint32_t>& out);

// Convenience: the peptide strings of `sequence`, in the order of digest().
std::vector<std::string_view> digest_sequences(std::string_view sequence, const Enzyme& enzyme,
                                               const DigestOptions& options);

}  // namespace ionflow
