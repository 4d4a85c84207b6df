// ProteinBackground: generated proteins that look like real ones to a database search, used to
// grow the scale set's database to human-proteome size (UniProt human reference proteome: about
// 20,400 reviewed proteins, about 11.4 million residues).
//
// The model is fitted on the real target proteins: the empirical length distribution and the
// frequencies of the 20 standard residues. A background protein is "M" followed by residues drawn
// i.i.d. from those frequencies, its length drawn from the real lengths and multiplied by
// `length_scale` (so the total residue count can reach the target while the distribution keeps
// its shape). Tryptic peptides of such proteins have the real K/R/P frequencies and hence the
// real peptide length and mass distributions; they share no sequence with the real proteins
// beyond chance.
//
// Header-only; fit() reads only; sample() is deterministic for a given Random state.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "perf/scale/random.hpp"
#include "scoring/protein.hpp"

namespace ionflow::scale {

class ProteinBackground {
 public:
  static constexpr const char* kResidues = "ACDEFGHIKLMNPQRSTVWY";

  // Throws std::invalid_argument if `real` has no protein with a standard residue.
  static ProteinBackground fit(const std::vector<Protein>& real) {
    ProteinBackground m;
    std::array<uint64_t, 26> counts{};
    uint64_t total = 0;
    for (const auto& p : real) {
      if (p.sequence.empty()) continue;
      m.lengths_.push_back(static_cast<uint32_t>(p.sequence.size()));
      m.total_length_ += p.sequence.size();
      for (char c : p.sequence) {
        if (c >= 'A' && c <= 'Z') ++counts[c - 'A'];
      }
    }
    for (const char* r = kResidues; *r; ++r) total += counts[*r - 'A'];
    if (total == 0) throw std::invalid_argument("no standard residues in the real proteins");
    double cumulative = 0.0;
    for (int i = 0; i < 20; ++i) {
      cumulative += static_cast<double>(counts[kResidues[i] - 'A']) / static_cast<double>(total);
      m.cumulative_[i] = cumulative;
    }
    m.cumulative_[19] = 1.0;
    return m;
  }

  double mean_length() const {
    return lengths_.empty() ? 0.0 : static_cast<double>(total_length_) / lengths_.size();
  }
  uint64_t total_length() const { return total_length_; }

  // One background protein sequence (at least 2 residues, starting with M).
  std::string sample(Random& random, double length_scale) const {
    const double drawn = lengths_[random.below(lengths_.size())] * length_scale;
    const std::size_t length = drawn < 2.0 ? 2 : static_cast<std::size_t>(drawn + 0.5);
    std::string s(length, 'M');
    for (std::size_t i = 1; i < length; ++i) s[i] = residue(random.uniform());
    return s;
  }

 private:
  char residue(double u) const {
    int lo = 0;
    int hi = 19;
    while (lo < hi) {  // first cumulative >= u
      const int mid = (lo + hi) / 2;
      if (cumulative_[mid] < u) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return kResidues[lo];
  }

  std::vector<uint32_t> lengths_;
  uint64_t total_length_ = 0;
  std::array<double, 20> cumulative_{};
};

}  // namespace ionflow::scale
