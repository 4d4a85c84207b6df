// Summary report: a finished job's JobSummary as the text `ionflow search` prints on stderr and
// as JSON for the service API (the same fields as results.json's "summary").
//
// Text layout: counts (spectra read / skipped by reason / searched, queries, PSMs, PSMs,
// peptides, protein groups and proteins at 1% FDR), then one line per pipeline stage with its busy
// time and throughput (items/s and MB/s over busy seconds), then wall time and peak memory.
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "actors/search_runtime.hpp"
#include "messages/job.hpp"
#include "service/json_value.hpp"

namespace ionflow {

// Multi-line human-readable summary, each line ending in '\n'.
std::string format_job_summary(const JobSummary& summary);

// results.json's "summary" (io/job_results.hpp: job_summary_json_text, the one writer of its
// fields) plus "output_files": [...] with full paths.
JsonValue job_summary_json(const JobSummary& summary);

// {"stage": ..., "bytes_read": ..., ..., "fraction": 0.42} for the service API.
JsonValue job_progress_json(const JobProgress& progress);

// Binary units as `free -h` prints them: "17 B", "12.0 KiB", "456.0 MiB", "1.2 GiB".
std::string format_bytes(uint64_t bytes);

}  // namespace ionflow
