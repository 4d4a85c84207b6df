// Edit distance for "did you mean" suggestions (unknown Unimod names, job keys, API keys): the
// Levenshtein distance (Levenshtein 1966, Soviet Physics Doklady 10:707) — the fewest single
// characters inserted, deleted or replaced to turn `a` into `b`, compared byte by byte (callers
// fold case first if they want to ignore it). O(|a|·|b|) time, O(|b|) memory; never throws
// except std::bad_alloc.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
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

// As edit_distance(a, b) when that is below `limit`; otherwise `limit`, found without filling the
// whole table: the length difference is a lower bound, and so is the smallest entry of each row
// (Ukkonen 1985, Information and Control 64:100), so a row whose entries all reach `limit`
// ends the work. For suggestions, where only near names matter.
inline size_t edit_distance_below(std::string_view a, std::string_view b, size_t limit) {
  const size_t length_gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (length_gap >= limit) return limit;
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    size_t row_min = row[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
      row_min = std::min(row_min, row[j]);
    }
    if (row_min >= limit) return limit;
  }
  return std::min(row[b.size()], limit);
}

// The "did you mean" suggestion for an unknown `name` among `known` (anything iterable whose
// elements convert to std::string_view): the nearest known name within fewer than
// max(3, |name| / 3 + 1) edits, the first of equal distance; "" if none is that near.
template <class Names>
std::string_view closest_name(std::string_view name, const Names& known) {
  std::string_view best;
  size_t best_distance = std::max<size_t>(3, name.size() / 3 + 1);
  for (const auto& k : known) {
    const std::string_view candidate(k);
    const size_t d = edit_distance_below(name, candidate, best_distance);
    if (d < best_distance) best_distance = d, best = candidate;
  }
  return best;
}

// "; did you mean \"<suggestion>\"?", or "" for no suggestion: the tail of an "unknown key"
// message.
inline std::string did_you_mean(std::string_view suggestion) {
  if (suggestion.empty()) return {};
  return "; did you mean \"" + std::string(suggestion) + "\"?";
}

}  // namespace ionflow
