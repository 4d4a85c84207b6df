#include "messages/job_events.hpp"

namespace ionflow {

void merge_stage_report(StageReport& into, const StageReport& from) {
  for (const auto& [name, s] : from.stages) {
    StageStats& t = into.stages[name];
    t.busy_seconds += s.busy_seconds;
    t.items += s.items;
    t.bytes += s.bytes;
  }
  into.spectra_read += from.spectra_read;
  into.spectra_searched += from.spectra_searched;
  into.queries += from.queries;
  for (const auto& [reason, n] : from.spectra_skipped) into.spectra_skipped[reason] += n;
  for (const auto& [path, sum] : from.input_sha256) into.input_sha256[path] = sum;
  into.peptides_in_index += from.peptides_in_index;
}

}  // namespace ionflow
