// Every name of a file or folder a job creates, in one place (as LevelDB's db/filename.h): the
// result files in the output directory, their temporary names, the spill files and folders in
// the temporary directory, the peptide-index cache files and the output directory's write probe.
// Plain functions on strings, no file access. Thread-safe.
#pragma once

#include <string>
#include <vector>

namespace ionflow {

// The result formats a job may ask for (JobSpec::output_formats), in this order in messages:
// key -> file name in the output directory (".zst" appended with JobSpec::zstd).
struct OutputFormatName {
  const char* key;
  const char* file;
};
// clang-format off
inline constexpr OutputFormatName kOutputFormatNames[] = {
    {"tsv", "results.tsv"},
    {"mzid", "results.mzid"},     // mzIdentML 1.1.0
    {"mzid1.2", "results.mzid"},  // mzIdentML 1.2.0: a job gives mzid or mzid1.2, not both
    {"pepxml", "results.pep.xml"},
    {"pin", "results.pin"},
};
// clang-format on
// "tsv, mzid, mzid1.2, pepxml, pin": the keys of kOutputFormatNames, for messages.
std::string output_format_keys();

// The JobSummary of a job, always written, after the PSM formats.
inline constexpr const char* kResultsJsonName = "results.json";

// The file name of format `key` ("results.tsv", "results.tsv.zst" with `zstd`). Throws
// std::runtime_error "unknown output format 'x' (expected tsv, mzid, mzid1.2, pepxml, pin)".
std::string result_file_name(const std::string& key, bool zstd);

// A result file is written as "<final>.tmp" and renamed to "<final>" once all are complete.
inline std::string temporary_file_name(const std::string& final_path) {
  return final_path + ".tmp";
}

// Spills, created with mkstemp/mkdtemp in the job's temporary directory (io/psm_spill.hpp,
// io/sorted_runs.hpp) and removed by their owners.
inline constexpr const char* kPsmSpillPattern = "ionflow-psms-XXXXXX";
// The sorter's folder also names its process, "ionflow-sort-<pid>-XXXXXX", so that a later job
// can tell the folder of a process killed with -9 (whose destructor never ran) from a live one's.
inline constexpr const char* kSortSpillPrefix = "ionflow-sort-";
std::string sort_spill_pattern(long pid);
// The process id in a sort spill folder's name, or 0 when `name` is no such folder.
long sort_spill_owner(const std::string& name);

// The directory of a job's spills: `temp_directory`, else `output_directory`, else ".".
std::string spill_directory(const std::string& temp_directory, const std::string& output_directory);

// "<directory>/<key>.ionflow-index": a cached peptide index (io/index_cache.hpp).
std::string index_cache_file(const std::string& directory, const std::string& key);

// "<directory>/.ionflow-probe-<pid>-<job id>": made and removed at once to check that the output
// directory is writable before the search.
std::string output_probe_file(const std::string& directory, long pid, const std::string& job_id);

}  // namespace ionflow
