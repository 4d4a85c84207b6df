#include "messages/job_events.hpp"

#include <algorithm>

namespace ionflow {

namespace {

// Merges neighbours of `v` (sorted by start) whose gap is at most `gap` seconds.
void close_gaps(std::vector<ActiveInterval>& v, double gap) {
  size_t out = 0;
  for (size_t i = 1; i < v.size(); ++i) {
    if (v[i].start_seconds <= v[out].end_seconds + gap) {
      v[out].end_seconds = std::max(v[out].end_seconds, v[i].end_seconds);
    } else {
      v[++out] = v[i];
    }
  }
  if (!v.empty()) v.resize(out + 1);
}

// Inserts [start, end] into the sorted, disjoint `v`, merging what it overlaps; beyond
// kMaxActiveIntervals, closes gaps below a doubling fraction of the span.
void add_busy_interval(std::vector<ActiveInterval>& v, double start, double end) {
  auto at = std::upper_bound(v.begin(), v.end(), start,
                             [](double x, const ActiveInterval& i) { return x < i.start_seconds; });
  const size_t i = static_cast<size_t>(at - v.begin());
  v.insert(at, {start, end});
  // Merge with the neighbour before and every one after that it reaches.
  size_t first = i > 0 && v[i - 1].end_seconds >= start ? i - 1 : i;
  size_t last = first;
  while (last + 1 < v.size() && v[last + 1].start_seconds <= std::max(v[first].end_seconds, end)) {
    ++last;
    v[first].end_seconds = std::max(v[first].end_seconds, v[last].end_seconds);
  }
  v[first].end_seconds = std::max(v[first].end_seconds, end);
  v.erase(v.begin() + static_cast<std::ptrdiff_t>(first + 1),
          v.begin() + static_cast<std::ptrdiff_t>(last + 1));
  if (v.size() <= kMaxActiveIntervals) return;
  const double span = v.back().end_seconds - v.front().start_seconds;
  double gap = span / kMaxActiveIntervals;
  while (v.size() > kMaxActiveIntervals && gap > 0) {
    close_gaps(v, gap);
    gap *= 2;
  }
}

}  // namespace

void merge_stage_report(StageReport& into, const StageReport& from) {
  for (const auto& [name, s] : from.stages) {
    StageStats& t = into.stages[name];
    t.busy_seconds += s.busy_seconds;
    t.items += s.items;
    t.bytes += s.bytes;
    if (!s.busy_intervals.empty()) {
      for (const ActiveInterval& i : s.busy_intervals)
        note_active(t, i.start_seconds, i.end_seconds);
    } else if (s.first_active_seconds >= 0) {
      note_active(t, s.first_active_seconds, s.last_active_seconds);
    }
  }
  into.spectra_read += from.spectra_read;
  into.spectra_searched += from.spectra_searched;
  into.queries += from.queries;
  for (const auto& [reason, n] : from.spectra_skipped) into.spectra_skipped[reason] += n;
  for (const auto& [reason, where] : from.spectra_skipped_first) {
    into.spectra_skipped_first.emplace(reason, where);  // the first report wins
  }
  for (const auto& [path, sum] : from.input_sha256) into.input_sha256[path] = sum;
  for (const auto& [path, sum] : from.decompressed_sha256) into.decompressed_sha256[path] = sum;
  into.peptides_in_index += from.peptides_in_index;
  if (!from.index_cache.empty()) into.index_cache = from.index_cache;
  if (!from.fragment_index.empty()) into.fragment_index = from.fragment_index;
  if (!from.index_scope.empty()) into.index_scope = from.index_scope;
  into.warnings.insert(into.warnings.end(), from.warnings.begin(), from.warnings.end());
  for (const auto& [node, n] : from.scorer_nodes) {
    ScorerNodeStats& t = into.scorer_nodes[node];
    t.chunks += n.chunks;
    t.queries += n.queries;
    t.busy_seconds += n.busy_seconds;
  }
}

void note_active(StageStats& s, double start_seconds, double end_seconds) {
  if (start_seconds < 0) start_seconds = 0;
  if (end_seconds < start_seconds) end_seconds = start_seconds;
  if (s.first_active_seconds < 0 || start_seconds < s.first_active_seconds) {
    s.first_active_seconds = start_seconds;
  }
  if (end_seconds > s.last_active_seconds) s.last_active_seconds = end_seconds;
  add_busy_interval(s.busy_intervals, start_seconds, end_seconds);
}

double overlap_seconds(const StageStats& a, const StageStats& b) {
  if (a.first_active_seconds < 0 || b.first_active_seconds < 0) return 0.0;
  const double from = std::max(a.first_active_seconds, b.first_active_seconds);
  const double to = std::min(a.last_active_seconds, b.last_active_seconds);
  return to > from ? to - from : 0.0;
}

}  // namespace ionflow
