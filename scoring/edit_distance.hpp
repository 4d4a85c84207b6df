// Edit distance for "did you mean" suggestions (unknown Unimod names, job keys, API keys): the
// Levenshtein distance (Levenshtein 1966, Soviet Physics Doklady 10:707) — the fewest single
// characters inserted, deleted or replaced to turn `a` into `b`, compared byte by byte (callers
// fold case first if they want to ignore it). O(|a|·|b|) time, O(|b|) memory; never throws
// except std::bad_alloc.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

namespace ionflow {

inline size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace ionflow
