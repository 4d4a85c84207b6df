#include "service/progress_reporter.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>

namespace ionflow {

JobProgress progress_as_of(JobProgress last, double seconds_running) {
  last.elapsed_seconds = std::max(last.elapsed_seconds, seconds_running);
  return last;
}

double progress_fraction(const JobProgress& p) {
  if (p.stage == "done") return 1.0;
  // Reading is the first 10%, scoring the other 90%, so the figure never goes back when the
  // stage changes (it used to jump from 50% while reading to 0% when scoring began). Scoring may
  // begin while the file is read; the number of chunks, and so its share, is known once the
  // input has ended.
  constexpr double kReadingShare = 0.1;
  double f = 0.0;
  if (p.chunks_total > 0) {
    f = kReadingShare + (1.0 - kReadingShare) * static_cast<double>(p.chunks_done) /
                            static_cast<double>(p.chunks_total);
  } else if (p.bytes_total > 0) {
    f = kReadingShare * static_cast<double>(p.bytes_read) / static_cast<double>(p.bytes_total);
  }
  return std::clamp(f, 0.0, 1.0);
}

std::string format_progress(const JobProgress& p) {
  std::string out = fmt::format("{:<8} {:>3.0f}%", p.stage.empty() ? "starting" : p.stage,
                                progress_fraction(p) * 100.0);
  out += fmt::format("  {} spectra", p.spectra_read);
  if (p.queries > 0) out += fmt::format("  {}/{} queries", p.queries_scored, p.queries);
  if (p.chunks_total > 0) out += fmt::format("  {}/{} chunks", p.chunks_done, p.chunks_total);
  out += fmt::format("  {:.1f} s", p.elapsed_seconds);
  return out;
}

ProgressReporter::Style ProgressReporter::style_for(std::FILE* out) {
  return isatty(fileno(out)) ? Style::kBar : Style::kLines;
}

ProgressReporter::ProgressReporter(std::FILE* out, Style style, double line_interval_seconds)
    : out_(out), style_(style), line_interval_seconds_(line_interval_seconds) {}

void ProgressReporter::update(const JobProgress& p) {
  if (style_ == Style::kNone) return;
  std::lock_guard<std::mutex> lock(mutex_);
  auto now = std::chrono::steady_clock::now();
  double since = std::chrono::duration<double>(now - last_print_).count();
  bool stage_changed = p.stage != last_stage_;
  if (style_ == Style::kBar) {
    if (!stage_changed && since < 0.1) return;
    constexpr int kWidth = 30;
    int filled = static_cast<int>(progress_fraction(p) * kWidth + 0.5);
    std::string bar(static_cast<size_t>(filled), '#');
    bar.append(static_cast<size_t>(kWidth - filled), '.');
    fmt::print(out_, "\r\033[K[{}] {}", bar, format_progress(p));
    std::fflush(out_);
    bar_open_ = true;
  } else {
    if (!stage_changed && since < line_interval_seconds_) return;
    fmt::print(out_, "progress: {}\n", format_progress(p));
    std::fflush(out_);
  }
  last_stage_ = p.stage;
  last_print_ = now;
}

void ProgressReporter::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (bar_open_) {
    fmt::print(out_, "\n");
    std::fflush(out_);
    bar_open_ = false;
  }
}

}  // namespace ionflow
