// Progress reporter: turns the pipeline's JobProgress callbacks into what a person watching
// `ionflow search` sees on stderr — a one-line bar redrawn in place when stderr is a terminal,
// plain lines (at most one per interval, and one per stage change) when it is a file or pipe.
//
// Thread-safety: update() and finish() may be called from any thread (a mutex serialises them);
// the pipeline calls update() from its own threads.
#pragma once

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

#include "actors/search_runtime.hpp"

namespace ionflow {

// Fraction done in [0, 1], never decreasing over a job: 0-0.1 while reading (bytes read / total),
// 0.1-1 while scoring (chunks scored / chunks), 1 when done.
double progress_fraction(const JobProgress& p);
// A running job's progress as a poll sees it: `last` (the pipeline's latest event) with
// elapsed_seconds at least `seconds_running` (since the job started; the pipeline sends no event
// while it builds a large index — a reviewer's open search showed 0.064 s for 10 s).
JobProgress progress_as_of(JobProgress last, double seconds_running);
// "scoring  42%  1120 spectra  530/1110 queries  3/6 chunks  12.5 s" (no newline).
std::string format_progress(const JobProgress& p);

class ProgressReporter {
 public:
  enum class Style { kBar, kLines, kNone };
  // kBar if `out` is a terminal, else kLines.
  static Style style_for(std::FILE* out);

  ProgressReporter(std::FILE* out, Style style, double line_interval_seconds = 2.0);
  void update(const JobProgress& p);
  // Ends the bar's line (or does nothing for lines); safe to call twice.
  void finish();

 private:
  std::FILE* out_;
  Style style_;
  double line_interval_seconds_;
  std::mutex mutex_;
  std::string last_stage_;
  std::chrono::steady_clock::time_point last_print_{};
  bool bar_open_ = false;
};

}  // namespace ionflow
