#include "scoring/modified_forms.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ionflow {
namespace {

bool is_n_term(ModificationPosition p) {
  return p == ModificationPosition::kPeptideNTerm || p == ModificationPosition::kProteinNTerm;
}
bool is_c_term(ModificationPosition p) {
  return p == ModificationPosition::kPeptideCTerm || p == ModificationPosition::kProteinCTerm;
}
bool is_protein(ModificationPosition p) {
  return p == ModificationPosition::kProteinNTerm || p == ModificationPosition::kProteinCTerm;
}
int residue_slot(char c) {
  return (c >= 'A' && c <= 'Z') ? c - 'A' : -1;
}

struct Candidate {
  int16_t position;
  uint16_t modification;
};

}  // namespace

ModificationPlacer::ModificationPlacer(std::vector<Modification> fixed,
                                       std::vector<Modification> variable,
                                       int max_variable_modifications)
    : max_variable_(max_variable_modifications) {
  if (max_variable_modifications < 0) {
    throw std::invalid_argument("max_variable_modifications must be >= 0, got " +
                                std::to_string(max_variable_modifications));
  }
  if (fixed.size() + variable.size() > 65535) {
    throw std::invalid_argument("too many modifications (more than 65535)");
  }
  fixed_count_ = fixed.size();
  for (auto& m : fixed) m.fixed = true;
  for (auto& m : variable) m.fixed = false;
  all_ = std::move(fixed);
  all_.insert(all_.end(), variable.begin(), variable.end());
  fixed_residue_.fill(-1);

  // Fixed terminal mods: protein-terminal first (they win a shared slot), then peptide-terminal.
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < fixed_count_; ++i) {
      const auto& m = all_[i];
      if (is_protein(m.position) != (pass == 0)) continue;
      if (is_n_term(m.position)) fixed_n_.push_back(static_cast<uint16_t>(i));
      if (is_c_term(m.position)) fixed_c_.push_back(static_cast<uint16_t>(i));
    }
  }
  for (size_t i = 0; i < all_.size(); ++i) {
    const auto& m = all_[i];
    const bool is_fixed = i < fixed_count_;
    has_protein_terminal_ = has_protein_terminal_ || is_protein(m.position);
    if (m.position == ModificationPosition::kAnywhere) {
      for (int r = 0; r < 26; ++r) {
        const char c = static_cast<char>('A' + r);
        if (!m.residues.empty() && m.residues.find(c) == std::string::npos) continue;
        if (is_fixed) {
          if (fixed_residue_[r] < 0) fixed_residue_[r] = static_cast<int>(i);
        } else {
          variable_residue_[r].push_back(static_cast<uint16_t>(i));
        }
      }
    } else if (!is_fixed) {
      (is_n_term(m.position) ? variable_n_ : variable_c_).push_back(static_cast<uint16_t>(i));
    }
  }
}

bool ModificationPlacer::terminal_matches(const Modification& m, char residue) const {
  return m.residues.empty() || m.residues.find(residue) != std::string::npos;
}

void ModificationPlacer::place(std::string_view sequence, bool protein_n_term, bool protein_c_term,
                               ModifiedForms& out) const {
  out.clear();
  const auto length = static_cast<int>(sequence.size());
  if (length == 0) {
    out.forms.push_back({});
    return;
  }
  auto allowed = [&](const Modification& m) {
    if (m.position == ModificationPosition::kProteinNTerm) return protein_n_term;
    if (m.position == ModificationPosition::kProteinCTerm) return protein_c_term;
    return true;
  };

  // Fixed placements, by position.
  thread_local std::vector<PlacedModification> fixed;
  thread_local std::vector<Candidate> candidates;
  fixed.clear();
  candidates.clear();
  double fixed_delta = 0.0;
  auto add_fixed = [&](int position, uint16_t index) {
    fixed.push_back({static_cast<int16_t>(position), index});
    fixed_delta += all_[index].mass_delta_da;
  };

  bool n_taken = false;
  for (uint16_t index : fixed_n_) {
    const auto& m = all_[index];
    if (allowed(m) && terminal_matches(m, sequence.front())) {
      add_fixed(-1, index);
      n_taken = true;
      break;
    }
  }
  if (!n_taken) {
    for (uint16_t index : variable_n_) {
      const auto& m = all_[index];
      if (allowed(m) && terminal_matches(m, sequence.front())) candidates.push_back({-1, index});
    }
  }
  for (int i = 0; i < length; ++i) {
    const int r = residue_slot(sequence[i]);
    if (r < 0) continue;
    if (fixed_residue_[r] >= 0) {
      add_fixed(i, static_cast<uint16_t>(fixed_residue_[r]));
      continue;
    }
    for (uint16_t index : variable_residue_[r]) {
      candidates.push_back({static_cast<int16_t>(i), index});
    }
  }
  bool c_taken = false;
  for (uint16_t index : fixed_c_) {
    const auto& m = all_[index];
    if (allowed(m) && terminal_matches(m, sequence.back())) {
      add_fixed(length, index);
      c_taken = true;
      break;
    }
  }
  if (!c_taken) {
    for (uint16_t index : variable_c_) {
      const auto& m = all_[index];
      if (allowed(m) && terminal_matches(m, sequence.back())) {
        candidates.push_back({static_cast<int16_t>(length), index});
      }
    }
  }

  // Enumerate subsets of candidates (at most one per position, at most max_variable_).
  thread_local std::vector<Candidate> chosen;
  chosen.clear();
  auto emit = [&]() {
    ModifiedForms::Form form;
    form.first = static_cast<uint32_t>(out.placed.size());
    form.mass_delta_da = fixed_delta;
    size_t fi = 0, vi = 0;
    while (fi < fixed.size() || vi < chosen.size()) {
      if (vi == chosen.size() || (fi < fixed.size() && fixed[fi].position < chosen[vi].position)) {
        out.placed.push_back(fixed[fi++]);
      } else {
        out.placed.push_back({chosen[vi].position, chosen[vi].modification});
        form.mass_delta_da += all_[chosen[vi].modification].mass_delta_da;
        ++vi;
      }
    }
    form.count = static_cast<uint32_t>(out.placed.size() - form.first);
    out.forms.push_back(form);
  };
  auto recurse = [&](auto&& self, size_t from) -> void {
    emit();
    if (static_cast<int>(chosen.size()) >= max_variable_) return;
    for (size_t i = from; i < candidates.size(); ++i) {
      if (!chosen.empty() && chosen.back().position == candidates[i].position) continue;
      chosen.push_back(candidates[i]);
      self(self, i + 1);
      chosen.pop_back();
    }
  };
  recurse(recurse, 0);
}

uint64_t ModificationPlacer::form_count_bound(std::string_view sequence) const {
  if (sequence.empty()) return 1;
  constexpr uint64_t kSaturated = uint64_t{1} << 62;
  // ways[k]: subsets of k positions seen so far, weighted by the modifications per position.
  thread_local std::vector<uint64_t> ways;
  const auto depth = static_cast<size_t>(max_variable_);
  ways.assign(depth + 1, 0);
  ways[0] = 1;
  auto add_position = [&](uint64_t choices) {
    if (choices == 0) return;
    for (size_t k = depth; k >= 1; --k) {
      const uint64_t prev = ways[k - 1];
      uint64_t extra = prev > kSaturated / choices ? kSaturated : prev * choices;
      ways[k] = std::min(kSaturated, ways[k] + extra);
    }
  };
  auto terminal_choices = [&](const std::vector<uint16_t>& mods, char residue) {
    uint64_t n = 0;
    for (uint16_t index : mods) n += terminal_matches(all_[index], residue) ? 1 : 0;
    return n;
  };
  add_position(terminal_choices(variable_n_, sequence.front()));
  for (char c : sequence) {
    const int r = residue_slot(c);
    if (r < 0 || fixed_residue_[r] >= 0) continue;
    add_position(variable_residue_[r].size());
  }
  add_position(terminal_choices(variable_c_, sequence.back()));
  uint64_t total = 0;
  for (uint64_t w : ways) total = std::min(kSaturated, total + w);
  return total;
}

std::vector<std::vector<PlacedModification>> ModificationPlacer::forms(std::string_view sequence,
                                                                       bool protein_n_term,
                                                                       bool protein_c_term) const {
  ModifiedForms flat;
  place(sequence, protein_n_term, protein_c_term, flat);
  std::vector<std::vector<PlacedModification>> out;
  for (const auto& f : flat.forms) {
    out.emplace_back(flat.placed.begin() + f.first, flat.placed.begin() + f.first + f.count);
  }
  return out;
}

}  // namespace ionflow
