// PrecursorSelection and FormMassShifts (precursor_selection.hpp).
//
// FormMassShifts follows ModificationPlacer::place (modified_forms.cpp): the first fixed residue
// modification of a residue always applies and keeps variable ones off that residue; each
// terminus carries at most one modification, a fixed one when one applies; a form holds at most
// max_variable_modifications variable ones, terminal ones included. The shifts allow every
// terminal modification independently (fixed ones as optional), which is a superset.
#include "scoring/precursor_selection.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "scoring/mass.hpp"
#include "scoring/precursor_window.hpp"

namespace ionflow {

PrecursorSelection::PrecursorSelection(const std::vector<double>& query_neutral_masses_da,
                                       const SearchParameters& params, double max_mass_da) {
  if (!(max_mass_da > 0.0) || max_mass_da > 1e6) {
    throw std::invalid_argument("precursor selection: maximum mass must be in (0, 1e6] Da");
  }
  max_mass_da_ = max_mass_da;
  const auto bins = static_cast<uint64_t>(std::ceil(max_mass_da * kBinsPerDa)) + 1;
  bits_.assign((bins + 63) / 64, 0);
  constexpr double kWidenDa = 1e-6;  // covers rounding between base + shift and a form's mass
  for (double neutral_mass : query_neutral_masses_da) {
    for (int k : params.isotope_errors) {
      // The scorer's window (spectrum_scorer.cpp, find_windows): the same function.
      auto [lo, hi] = precursor_window_da(params, neutral_mass, k);
      lo -= kWidenDa;
      hi += kWidenDa;
      if (!(hi >= 0.0) || !(lo < max_mass_da)) continue;  // also skips NaN
      const auto first = static_cast<uint64_t>(std::max(0.0, lo) * kBinsPerDa);
      const uint64_t last = std::min<uint64_t>(
          bins - 1, static_cast<uint64_t>(std::min(hi, max_mass_da) * kBinsPerDa));
      for (uint64_t b = first; b <= last; ++b) bits_[b >> 6] |= uint64_t{1} << (b & 63);
    }
  }
}

double PrecursorSelection::covered_fraction() const {
  uint64_t set = 0;
  for (uint64_t w : bits_) set += static_cast<uint64_t>(std::popcount(w));
  const double bins = std::ceil(max_mass_da_ * kBinsPerDa) + 1;
  return static_cast<double>(set) / bins;
}

FormMassShifts::FormMassShifts(const DatabaseParameters& db) {
  water_da_ = mass::kWater;
  for (int r = 0; r < 26; ++r) residue_da_[static_cast<size_t>(r)] = mass::detail::kResidueTable[r];
  auto applies = [](const Modification& m, int r) {
    return m.residues.empty() || m.residues.find(static_cast<char>('A' + r)) != std::string::npos;
  };
  std::array<bool, 26> fixed_residue{};
  std::vector<double> optional_terminal_da;  // fixed terminal modifications, each 0 or 1 time
  for (const Modification& m : db.fixed_modifications) {
    if (m.position != ModificationPosition::kAnywhere) {
      optional_terminal_da.push_back(m.mass_delta_da);
      continue;
    }
    for (int r = 0; r < 26; ++r) {
      if (!applies(m, r) || fixed_residue[static_cast<size_t>(r)]) continue;  // first one wins
      fixed_residue[static_cast<size_t>(r)] = true;
      residue_da_[static_cast<size_t>(r)] += m.mass_delta_da;
    }
  }
  constexpr int kI = 'I' - 'A', kL = 'L' - 'A';
  // I and L are one residue for merging (peptide_index.cpp): their peptides must be selected
  // alike, so they need the same base mass and eligibility.
  if (fixed_residue[kI] != fixed_residue[kL] || residue_da_[kI] != residue_da_[kL]) {
    supported_ = false;
    return;
  }
  struct Variable {
    double delta_da;
    int slot;  // residue slot 0..3, or -1 for a terminal modification (at most once)
  };
  std::vector<Variable> variables;
  int slots = 0;
  for (const Modification& m : db.variable_modifications) {
    if (m.position != ModificationPosition::kAnywhere) {
      variables.push_back({m.mass_delta_da, -1});
      continue;
    }
    if (slots == 4) {
      supported_ = false;
      return;
    }
    const int slot = slots++;
    variables.push_back({m.mass_delta_da, slot});
    const bool on_il = applies(m, kI) || applies(m, kL);
    for (int r = 0; r < 26; ++r) {
      const bool on = (r == kI || r == kL) ? on_il : applies(m, r);
      if (on && !fixed_residue[static_cast<size_t>(r)]) {
        increment_[static_cast<size_t>(r)] += uint64_t{1} << (16 * slot);
      }
    }
  }
  if (optional_terminal_da.size() > 9) {
    supported_ = false;
    return;
  }
  const int max_variable = std::max(0, db.max_variable_modifications);
  // Every count vector over the variables with at most max_variable in all, times every subset
  // of the fixed terminal modifications.
  std::vector<Shift> variable_shifts;
  std::vector<int> counts(variables.size(), 0);
  bool too_many = false;
  auto enumerate = [&](auto&& self, size_t i, int used, double delta, uint64_t needed) -> void {
    if (too_many) return;
    if (i == variables.size()) {
      variable_shifts.push_back({delta, needed});
      if (variable_shifts.size() > kMaxShifts) too_many = true;
      return;
    }
    const Variable& v = variables[i];
    const int cap = v.slot < 0 ? 1 : max_variable;
    for (int c = 0; c <= cap && used + c <= max_variable; ++c) {
      const uint64_t need = v.slot < 0 ? 0 : uint64_t(c) << (16 * v.slot);
      self(self, i + 1, used + c, delta + c * v.delta_da, needed + need);
    }
  };
  enumerate(enumerate, 0, 0, 0.0, 0);
  if (too_many || (variable_shifts.size() << optional_terminal_da.size()) > kMaxShifts) {
    supported_ = false;
    return;
  }
  for (uint64_t subset = 0; subset < (uint64_t{1} << optional_terminal_da.size()); ++subset) {
    double terminal = 0.0;
    for (size_t t = 0; t < optional_terminal_da.size(); ++t) {
      if (subset & (uint64_t{1} << t)) terminal += optional_terminal_da[t];
    }
    for (const Shift& s : variable_shifts) shifts_.push_back({s.delta_da + terminal, s.needed});
  }
}

}  // namespace ionflow
