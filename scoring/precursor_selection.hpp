// Precursor selection: which peptides of a digested database a job's queries can reach, so that a
// narrow-window search builds its PeptideIndex only from those (peptide_index.hpp) instead of
// from every peptide of the database.
//
//   PrecursorSelection   the theoretical neutral masses the queries' precursor windows cover: for
//                        each query and isotope error k, Tolerance::theoretical_range(M − k·C13)
//                        (the scorer's window, scoring/spectrum_scorer.cpp step 1), widened by
//                        1e-6 Da and rounded out to bins of 1/256 Da. contains() is a superset
//                        test: never false for a mass inside a window.
//   FormMassShifts       the neutral masses a peptide's modified forms can have, from its residues
//                        alone, without placing modifications: the base mass (residues, water,
//                        fixed residue modifications) plus one of a fixed list of shifts, each
//                        allowed when the peptide has enough residues for its variable
//                        modifications. Also a superset: every form ModificationPlacer makes has
//                        a mass base + shift for an allowed shift (to rounding, which the 1e-6 Da
//                        widening covers); some allowed shifts have no form.
// A peptide is selected when base + some allowed shift is contained. Both supersets only add
// peptides that no window holds, so each query's candidates are exactly those of the full index.
// Plain value types; thread-safe for concurrent const use.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "scoring/search_parameters.hpp"

namespace ionflow {

class PrecursorSelection {
 public:
  // `query_neutral_masses_da`: every query of the job (any order). Uses
  // params.precursor_tolerance and params.isotope_errors. Masses above max_mass_da are never
  // contained (peptides heavier than the database's peptide_max_mass_da are not indexed anyway).
  // Throws std::invalid_argument if max_mass_da is not in (0, 1e6].
  PrecursorSelection(const std::vector<double>& query_neutral_masses_da,
                     const SearchParameters& params, double max_mass_da);

  // True if `mass_da` may lie inside some query's precursor window (never false if it does).
  bool contains(double mass_da) const {
    if (!(mass_da >= 0.0) || mass_da >= max_mass_da_) return false;
    const auto bin = static_cast<uint64_t>(mass_da * kBinsPerDa);
    return (bits_[bin >> 6] >> (bin & 63)) & 1u;
  }
  // Share of the mass range [0, max_mass_da) covered, 0..1 (for the job summary).
  double covered_fraction() const;

  static constexpr double kBinsPerDa = 256.0;

 private:
  double max_mass_da_ = 0.0;
  std::vector<uint64_t> bits_;
};

class FormMassShifts {
 public:
  // From params.database's fixed and variable modifications and max_variable_modifications,
  // as ModificationPlacer applies them (the first fixed residue modification of a residue wins
  // and keeps variable ones off it; an empty residue list means every residue). supported() is
  // false (and the other members unusable) for settings it does not model: I and L with
  // different fixed modifications, more than four variable residue modifications, more than
  // nine fixed terminal ones, or more than kMaxShifts shifts.
  explicit FormMassShifts(const DatabaseParameters& db);
  bool supported() const { return supported_; }

  // Residues, water and fixed residue modifications, Da (REQUIRES: residues of defined mass, as
  // digest() produces). `eligible` receives, per variable residue modification (16 bits each,
  // saturating), the number of residues it may sit on (I and L counted together).
  double base_mass(std::string_view residues, uint64_t& eligible) const {
    double m = water_da_;
    uint64_t counts = 0;
    for (char c : residues) {
      m += residue_da_[static_cast<unsigned char>(c - 'A') & 31];
      counts += increment_[static_cast<unsigned char>(c - 'A') & 31];
    }
    eligible = counts;
    return m;
  }

  // base_mass for every substring of `protein` at once: after this call, the peptide
  // protein[a, b) has base mass water_da() + mass_prefix[b] − mass_prefix[a] (equal to
  // base_mass's to ~1e-9 Da, well inside PrecursorSelection's 1e-6 Da widening) and
  // eligibility eligible_prefix[b] − eligible_prefix[a]. Both vectors are resized to size + 1.
  void prefix_sums(std::string_view protein, std::vector<double>& mass_prefix,
                   std::vector<uint64_t>& eligible_prefix) const {
    mass_prefix.resize(protein.size() + 1);
    eligible_prefix.resize(protein.size() + 1);
    double m = 0.0;
    uint64_t counts = 0;
    mass_prefix[0] = 0.0;
    eligible_prefix[0] = 0;
    for (size_t i = 0; i < protein.size(); ++i) {
      const auto r = static_cast<unsigned char>(protein[i] - 'A') & 31;
      m += residue_da_[r];
      counts += increment_[r];
      mass_prefix[i + 1] = m;
      eligible_prefix[i + 1] = counts;
    }
  }
  double water_da() const { return water_da_; }

  // Calls fn(shift_da) for each allowed shift of a peptide with eligibility `eligible` (from
  // base_mass), until fn returns true; returns whether one did.
  template <typename Fn>
  bool any_shift(uint64_t eligible, Fn&& fn) const {
    for (const Shift& s : shifts_) {
      if (fits(s.needed, eligible) && fn(s.delta_da)) return true;
    }
    return false;
  }

  static constexpr size_t kMaxShifts = 512;

 private:
  struct Shift {
    double delta_da = 0.0;
    uint64_t needed = 0;  // residues needed per variable residue modification, 16 bits each
  };
  static bool fits(uint64_t needed, uint64_t eligible) {
    for (int k = 0; k < 64; k += 16) {
      if (((needed >> k) & 0xffff) > ((eligible >> k) & 0xffff)) return false;
    }
    return true;
  }

  bool supported_ = true;
  double water_da_ = 0.0;
  std::array<double, 32> residue_da_{};
  std::array<uint64_t, 32> increment_{};
  std::vector<Shift> shifts_;
};

}  // namespace ionflow
