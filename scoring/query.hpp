// Query: one prepared spectrum at one assumed precursor charge — the unit the sorter orders by
// precursor neutral mass, the splitter cuts into chunks and a scorer scores.
//
// A spectrum of unknown charge becomes one query per charge tried (spectrum_preparation.hpp); MGF
// "2+ and 3+" becomes two. Peaks are the prepared peaks (top-N, precursor removed, normalised),
// sorted by ascending m/z. Plain value type; serialisable to cross machines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ionflow {

struct Peak {
  float mz = 0.0f;         // Th
  float intensity = 0.0f;  // after preparation (normalised)
};

struct Query {
  uint32_t file_index = 0;
  uint64_t spectrum_index = 0;  // see RawSpectrum
  std::string native_id;
  int64_t scan = -1;
  double rt_seconds = -1.0;
  double precursor_mz = 0.0;     // Th
  int charge = 0;                // assumed precursor charge, >= 1
  bool charge_from_file = true;  // false when the charge was tried from the configured range
  double neutral_mass = 0.0;     // (precursor_mz - proton) * charge, Da
  std::vector<Peak> peaks;       // ascending m/z
  // Queries made from this spectrum, one per charge tried (>= 1): its E-value counts every
  // candidate tested at any of them (spectrum_scorer.cpp).
  int charges_tried = 1;
};

}  // namespace ionflow
