// Protein slices: the database's proteins cut into consecutive slices of about equal residues,
// the work units of the digest and of the index memory estimate (parallel_tasks hands them to
// the build threads). A slice's cost follows its residues, not its protein count.
//
// Contract: protein_slice_starts(proteins, slices) returns slices + 1 indices, ascending:
// [0] = 0, [slices] = proteins.size(), slice s = proteins [start[s], start[s + 1]) (possibly
// empty when there are fewer proteins than slices). Pure function; thread-safe.
#pragma once

#include <cstddef>
#include <vector>

#include "scoring/protein.hpp"

namespace ionflow {

inline std::vector<size_t> protein_slice_starts(const std::vector<Protein>& proteins,
                                                size_t slices) {
  std::vector<size_t> slice_start(slices + 1, proteins.size());
  size_t total = 0;
  for (const Protein& p : proteins) total += p.sequence.size();
  size_t seen = 0, slice = 0;
  slice_start[0] = 0;
  for (size_t i = 0; i < proteins.size() && slice + 1 < slices; ++i) {
    seen += proteins[i].sequence.size();
    while (slice + 1 < slices && seen >= total / slices * (slice + 1)) slice_start[++slice] = i + 1;
  }
  return slice_start;
}

}  // namespace ionflow
