#include "service/summary_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "io/job_results.hpp"
#include "messages/job_events.hpp"
#include "service/progress_reporter.hpp"

namespace ionflow {

std::string format_bytes(uint64_t bytes) {
  static constexpr std::array<const char*, 5> kUnits = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  size_t unit = 0;
  while (v >= 1024.0 && unit + 1 < kUnits.size()) v /= 1024.0, ++unit;
  if (unit == 0) return fmt::format("{} B", bytes);
  return fmt::format("{:.1f} {}", v, kUnits[unit]);
}

namespace {

// Pipeline order first, then any other stage names alphabetically.
std::vector<std::string> stage_order(const JobSummary& s) {
  static const std::vector<std::string> kOrder = {"database", "reader", "parser", "sorter",
                                                  "splitter", "scorer", "writer"};
  std::vector<std::string> out;
  for (const auto& name : kOrder) {
    if (s.stages.count(name)) out.push_back(name);
  }
  for (const auto& [name, stats] : s.stages) {
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

// "  overlap    reading ran alongside the database build 0.41 s; disk stages (reader, writer)
// alongside scoring 0.00 s (0% of the wall time)": which disk stage overlapped which compute
// stage (StageStats activity intervals). Empty when a stage is missing.
std::string overlap_line(const JobSummary& s) {
  auto stage = [&](const char* name) -> const StageStats* {
    auto it = s.stages.find(name);
    return it == s.stages.end() ? nullptr : &it->second;
  };
  const StageStats* reader = stage("reader");
  const StageStats* writer = stage("writer");
  const StageStats* database = stage("database");
  const StageStats* scorer = stage("scorer");
  if (reader == nullptr || scorer == nullptr || database == nullptr || s.wall_seconds <= 0) {
    return {};
  }
  const double with_database = overlap_seconds(*reader, *database);
  double with_scoring = overlap_seconds(*reader, *scorer);
  if (writer != nullptr) with_scoring += overlap_seconds(*writer, *scorer);
  return fmt::format(
      "  overlap    reading ran alongside the database build {:.2f} s; disk stages (reader, "
      "writer) alongside scoring {:.2f} s ({:.0f}% of the wall time)\n",
      with_database, with_scoring, 100.0 * with_scoring / s.wall_seconds);
}

}  // namespace

std::string format_job_summary(const JobSummary& s) {
  std::string out;
  uint64_t skipped = 0;
  for (const auto& [reason, n] : s.spectra_skipped) skipped += n;
  out += fmt::format("  spectra read       {:>10}\n", s.spectra_read);
  out += fmt::format("  spectra skipped    {:>10}", skipped);
  if (!s.spectra_skipped.empty()) {
    out += "  (";
    bool first = true;
    for (const auto& [reason, n] : s.spectra_skipped) {
      out += fmt::format("{}{}: {}", first ? "" : ", ", reason, n);
      first = false;
    }
    out += ")";
  }
  out += "\n";
  // Where to look: the first spectrum of each reason (MS1 spectra are expected, not shown).
  for (const auto& [reason, where] : s.spectra_skipped_first) {
    if (reason.rfind("MS level", 0) == 0) continue;
    out += fmt::format("    first {}: {}\n", reason, where);
  }
  out += fmt::format("  spectra searched   {:>10}\n", s.spectra_searched);
  out += fmt::format("  queries            {:>10}\n", s.queries);
  out += fmt::format("  peptides in index  {:>10}\n", s.peptides_in_index);
  if (!s.index_cache.empty()) out += fmt::format("  index cache        {}\n", s.index_cache);
  if (!s.fragment_index.empty()) out += fmt::format("  fragment index     {}\n", s.fragment_index);
  if (!s.index_scope.empty()) out += fmt::format("  index scope        {}\n", s.index_scope);
  out += fmt::format("  PSMs written       {:>10}\n", s.psms);
  if (!s.precursor_calibration.empty()) {
    out += fmt::format("  precursor errors   {}\n", s.precursor_calibration);
  }
  if (!s.rescoring.empty()) out += fmt::format("  rescoring          {}\n", s.rescoring);
  auto s_after = [](uint64_t n) { return n == 1 ? "" : "s"; };  // "1 PSM", "2 PSMs"
  // Groups first: they are what peers report as proteins; the accessions of shared peptides
  // follow in parentheses ("4 protein groups (11 proteins)").
  out += fmt::format(
      "  at 1% FDR          {:>10} PSM{}, {} peptide{}, {} protein group{} ({} protein{})\n",
      s.psms_at_1pct, s_after(s.psms_at_1pct), s.peptides_at_1pct, s_after(s.peptides_at_1pct),
      s.protein_groups_at_1pct, s_after(s.protein_groups_at_1pct), s.proteins_at_1pct,
      s_after(s.proteins_at_1pct));
  if (!s.stages.empty()) {
    out += fmt::format("  {:<10} {:>9} {:>12} {:>12} {:>10}  {}\n", "stage", "busy s", "items",
                       "items/s", "MB/s", "active s");
    for (const auto& name : stage_order(s)) {
      const StageStats& st = s.stages.at(name);
      double busy = st.busy_seconds;
      std::string rate =
          busy > 0 ? fmt::format("{:.0f}", static_cast<double>(st.items) / busy) : "-";
      std::string mbs = busy > 0 && st.bytes > 0
                            ? fmt::format("{:.1f}", static_cast<double>(st.bytes) / 1e6 / busy)
                            : "-";
      std::string active =
          st.first_active_seconds >= 0
              ? fmt::format("{:.2f}-{:.2f}", st.first_active_seconds, st.last_active_seconds)
              : "-";
      out += fmt::format("  {:<10} {:>9.3f} {:>12} {:>12} {:>10}  {}\n", name, busy, st.items, rate,
                         mbs, active);
    }
    out += overlap_line(s);
  }
  out += fmt::format("  wall time          {:>10.2f} s", s.wall_seconds);
  if (s.wall_seconds > 0 && s.spectra_read > 0) {
    out +=
        fmt::format("  ({:.0f} spectra/s)", static_cast<double>(s.spectra_read) / s.wall_seconds);
  }
  out += "\n";
  out += fmt::format("  peak memory        {:>10}\n", format_bytes(s.peak_rss_bytes));
  for (const auto& f : s.output_files) out += fmt::format("  output             {}\n", f);
  return out;
}

JsonValue job_summary_json(const JobSummary& s) {
  // One writer of the summary's fields: results.json's (io/job_results.hpp), here with the
  // output files' full paths.
  JsonValue o = parse_json(job_summary_json_text(s, ""));
  JsonValue files = JsonValue::array();
  for (const auto& f : s.output_files) files.push_back(f);
  o.set("output_files", std::move(files));
  return o;
}

JsonValue job_progress_json(const JobProgress& p) {
  JsonValue o = JsonValue::object();
  o.set("stage", p.stage);
  o.set("fraction", progress_fraction(p));
  o.set("bytes_read", p.bytes_read);
  o.set("bytes_total", p.bytes_total);
  o.set("spectra_read", p.spectra_read);
  o.set("queries", p.queries);
  o.set("queries_scored", p.queries_scored);
  o.set("chunks_done", p.chunks_done);
  o.set("chunks_total", p.chunks_total);
  o.set("elapsed_seconds", p.elapsed_seconds);
  return o;
}

}  // namespace ionflow
