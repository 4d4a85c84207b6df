#include "messages/job_events.hpp"

#include <algorithm>

namespace ionflow {

void merge_stage_report(StageReport& into, const StageReport& from) {
  for (const auto& [name, s] : from.stages) {
    StageStats& t = into.stages[name];
    t.busy_seconds += s.busy_seconds;
    t.items += s.items;
    t.bytes += s.bytes;
    if (s.first_active_seconds >= 0) note_active(t, s.first_active_seconds, s.last_active_seconds);
  }
  into.spectra_read += from.spectra_read;
  into.spectra_searched += from.spectra_searched;
  into.queries += from.queries;
  for (const auto& [reason, n] : from.spectra_skipped) into.spectra_skipped[reason] += n;
  for (const auto& [reason, where] : from.spectra_skipped_first) {
    into.spectra_skipped_first.emplace(reason, where);  // the first report wins
  }
  for (const auto& [path, sum] : from.input_sha256) into.input_sha256[path] = sum;
  into.peptides_in_index += from.peptides_in_index;
  if (!from.index_cache.empty()) into.index_cache = from.index_cache;
  if (!from.fragment_index.empty()) into.fragment_index = from.fragment_index;
  if (!from.index_scope.empty()) into.index_scope = from.index_scope;
  into.warnings.insert(into.warnings.end(), from.warnings.begin(), from.warnings.end());
}

void note_active(StageStats& s, double start_seconds, double end_seconds) {
  if (start_seconds < 0) start_seconds = 0;
  if (end_seconds < start_seconds) end_seconds = start_seconds;
  if (s.first_active_seconds < 0 || start_seconds < s.first_active_seconds) {
    s.first_active_seconds = start_seconds;
  }
  if (end_seconds > s.last_active_seconds) s.last_active_seconds = end_seconds;
}

double overlap_seconds(const StageStats& a, const StageStats& b) {
  if (a.first_active_seconds < 0 || b.first_active_seconds < 0) return 0.0;
  const double from = std::max(a.first_active_seconds, b.first_active_seconds);
  const double to = std::min(a.last_active_seconds, b.last_active_seconds);
  return to > from ? to - from : 0.0;
}

}  // namespace ionflow
