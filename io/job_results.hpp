// The result files of one job, as the writer actor produces them (plain C++, no actor code):
// every requested format (results.tsv, results.mzid, results.pep.xml, results.pin; with
// JobSpec::zstd each gets ".zst") and results.json, written to "<name>.tmp" in the output
// directory and renamed to "<name>" only when all files are complete.
//
// results.json holds the software version, JobSpec::effective_parameters_json (verbatim, or {}
// when empty), the SHA-256 of every input and the JobSummary (counts, per-stage busy seconds,
// busy intervals, items and bytes, wall time, peak RSS).
// Errors: std::runtime_error naming the file; on error the .tmp files are removed.
// Thread-safety: none needed; used by the job's writer only.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "io/result_writer.hpp"
#include "messages/job.hpp"
#include "scoring/fdr.hpp"
#include "scoring/psm.hpp"

namespace ionflow {

// The software version written into results.json (IONFLOW_VERSION when defined at build time).
const char* ionflow_version();

// Final file names (no directory) the job produces, results.json last.
std::vector<std::string> result_file_names(const JobSpec& spec);

// Every file name (no directory) a job may write, replace or remove in its output directory:
// each format of kOutputFormatNames plain and .zst (remove_stale_results), and results.json.
std::vector<std::string> result_file_names_touched();

// After a failed or cancelled job: removes "<name>.tmp" of every result file of `spec` from its
// output directory, and the final files this job itself renamed into place (`committed`: a
// cancel can arrive after the writer committed). Never touches a file the job did not write: a
// failed re-run keeps the previous run's results. Never throws.
void remove_job_outputs(const JobSpec& spec, const std::vector<std::string>& committed);

// After a job ended without results (failed, cancelled, or found cancelled when the service
// restarted): removes from its `output_directory` the temporary result files a run may have left
// there, "<name>.tmp" for every name of result_file_names_touched(), whichever formats the job
// asked for. A process killed while writing (kill -9) ran neither PendingFiles' destructor nor
// remove_job_outputs. Only regular files of those names go: a finished result, a user's file and
// anything else at those names stay. Never throws.
void remove_temporary_results(const std::string& output_directory);

// After a job's results are committed: removes from its output directory the result files of
// the formats it did not write ("results.pin" of an earlier run with "pin", "results.tsv" after a
// run with zstd, which wrote "results.tsv.zst"), so that the directory holds one run's results.
// Only the names of kOutputFormatNames (plain and .zst) are touched. Never throws.
void remove_stale_results(const JobSpec& spec);

// Temporary files renamed together: add() each written "<final>.tmp", then commit() renames all,
// all or none; the destructor removes any that were not committed.
class PendingFiles {
 public:
  ~PendingFiles();
  // "<directory>/<name>.tmp"; remembered for commit().
  std::string add(const std::string& directory, const std::string& name);
  // Renames every .tmp to its final name, in add() order; returns the final paths. A final file
  // already there (an earlier run's) is first kept as "<final>.previous" (a hard link: the final
  // name stays in place) and removed once every rename has succeeded. When one fails (the final
  // name is a directory, say), the earlier files go back over the new ones and new files without
  // an earlier one are removed, so that the directory holds the earlier run's results as before;
  // then throws std::runtime_error naming the file and the OS reason, and committed() stays
  // empty. A "<final>.previous" a crash left is put back first if the final file is missing,
  // else removed.
  std::vector<std::string> commit();
  // The final paths commit() has renamed into place so far.
  const std::vector<std::string>& committed() const { return committed_; }

 private:
  std::vector<std::pair<std::string, std::string>> files_;  // tmp, final
  std::vector<std::string> committed_;
};

// Writes every requested format of `psms` (finalize_psms order; each writer reads the source in
// one or two passes) as .tmp files into `pending`. Throws std::runtime_error (unknown format,
// I/O, or what the source throws). The job's writer passes JobPsms::source() (io/job_psms.hpp).
void write_result_formats(const JobSpec& spec, const PsmSource& psms, PendingFiles& pending);
// The same for PSMs in a vector.
void write_result_formats(const JobSpec& spec, const std::vector<Psm>& psms, PendingFiles& pending);

// The JobSummary as a JSON object, the one writer of its fields (results.json's "summary" and
// the service's summary, service/summary_report): counts, skip reasons, warnings (only when
// there are some), index notes (only when set), wall seconds and peak RSS, per-stage statistics;
// seconds with 6 decimals. Nested lines are indented by `indent` plus two spaces per level; the
// text has no trailing newline.
std::string job_summary_json_text(const JobSummary& summary, const std::string& indent);

// Writes results.json (as .tmp) into `pending`.
void write_results_json(const JobSpec& spec, const JobSummary& summary, PendingFiles& pending);

// The peak resident set size of this process so far (getrusage ru_maxrss), bytes.
uint64_t peak_rss_bytes();

}  // namespace ionflow
