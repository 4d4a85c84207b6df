#include "io/job_results.hpp"

#include <algorithm>

#include <sys/resource.h>

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "io/file_output_stream.hpp"
#include "io/job_files.hpp"
#include "io/json_text.hpp"
#include "io/result_writer.hpp"
#include "io/zstd_stream.hpp"

namespace ionflow {
namespace fs = std::filesystem;

const char* ionflow_version() {
#ifdef IONFLOW_VERSION
  return IONFLOW_VERSION;
#else
  return "0.1.0";
#endif
}

namespace {

using FormatWriter = void (*)(std::ostream&, const PsmSource&, const ResultContext&);

// The writer of each format of kOutputFormatNames (io/job_files.hpp), by key.
FormatWriter format_writer(const std::string& key) {
  result_file_name(key, false);  // throws for an unknown key
  if (key == "tsv") return &write_tsv;
  if (key == "mzid") return &write_mzidentml;
  if (key == "mzid1.2") return &write_mzidentml_1_2;
  if (key == "pepxml") return &write_pepxml;
  return &write_pin;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6f", v);
  return buf;
}

}  // namespace

std::vector<std::string> result_file_names(const JobSpec& spec) {
  std::vector<std::string> names;
  for (const std::string& key : spec.output_formats) {
    names.push_back(result_file_name(key, spec.zstd));
  }
  names.push_back(kResultsJsonName);
  return names;
}

std::vector<std::string> result_file_names_touched() {
  std::vector<std::string> names;
  for (const OutputFormatName& format : kOutputFormatNames) {
    for (bool zstd : {false, true}) names.push_back(result_file_name(format.key, zstd));
  }
  names.push_back(kResultsJsonName);
  return names;
}

void remove_job_outputs(const JobSpec& spec, const std::vector<std::string>& committed) {
  std::vector<std::string> names;
  try {
    names = result_file_names(spec);
  } catch (const std::exception&) {
    names = {kResultsJsonName};
  }
  for (const std::string& name : names) {
    std::error_code ec;
    fs::remove(temporary_file_name((fs::path(spec.output_directory) / name).string()), ec);
  }
  for (const std::string& path : committed) {
    std::error_code ec;
    fs::remove(path, ec);
  }
}

void remove_temporary_results(const std::string& output_directory) {
  for (const std::string& name : result_file_names_touched()) {
    const fs::path tmp = temporary_file_name((fs::path(output_directory) / name).string());
    std::error_code ec;
    if (fs::is_regular_file(fs::symlink_status(tmp, ec))) fs::remove(tmp, ec);
  }
}

void remove_stale_results(const JobSpec& spec) {
  std::vector<std::string> written;
  try {
    written = result_file_names(spec);
  } catch (const std::exception&) {
    return;  // an unknown format: the job did not get this far
  }
  for (const OutputFormatName& format : kOutputFormatNames) {
    for (bool zstd : {false, true}) {
      const std::string name = result_file_name(format.key, zstd);
      if (std::find(written.begin(), written.end(), name) != written.end()) continue;
      std::error_code ec;
      fs::remove(fs::path(spec.output_directory) / name, ec);
    }
  }
}

PendingFiles::~PendingFiles() {
  for (const auto& [tmp, final_path] : files_) {
    std::error_code ec;
    fs::remove(tmp, ec);
  }
}

std::string PendingFiles::add(const std::string& directory, const std::string& name) {
  std::string final_path = (fs::path(directory) / name).string();
  std::string tmp = temporary_file_name(final_path);
  files_.emplace_back(tmp, final_path);
  return tmp;
}

namespace {

// A final file put in place by commit(), and where the earlier run's file is kept meanwhile
// ("" when there was none).
struct Replaced {
  std::string final_path;
  std::string previous;
};

// Undoes commit()'s renames, last first: the earlier file back in place (one rename over the new
// one), or the new one removed where there was none.
void roll_back(const std::vector<Replaced>& done) {
  for (auto it = done.rbegin(); it != done.rend(); ++it) {
    std::error_code ec;
    if (it->previous.empty()) {
      fs::remove(it->final_path, ec);
    } else {
      fs::rename(it->previous, it->final_path, ec);
    }
  }
}

// A "<final>.previous" left by a crash in the middle of an earlier commit: put back when the
// final file is missing, else removed.
void tidy_previous(const std::string& final_path) {
  const std::string previous = final_path + ".previous";
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(previous, ec))) return;
  if (!fs::exists(fs::symlink_status(final_path, ec))) {
    fs::rename(previous, final_path, ec);
  } else {
    fs::remove(previous, ec);
  }
}

// Keeps the earlier run's `final_path` as "<final>.previous" while the new file replaces it: a
// hard link, so that the final name never goes missing (a crash in between leaves the earlier
// file in place); where links are not possible, the file is moved aside. Returns "" when there
// is no earlier file; throws std::runtime_error.
std::string keep_previous(const std::string& final_path) {
  const std::string previous = final_path + ".previous";
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(final_path, ec);
  if (!fs::exists(status) || fs::is_directory(status)) return "";
  fs::create_hard_link(final_path, previous, ec);
  if (ec) fs::rename(final_path, previous, ec);
  if (ec) {
    throw std::runtime_error("cannot keep " + final_path + " as " + previous + ": " + ec.message());
  }
  return previous;
}

}  // namespace

std::vector<std::string> PendingFiles::commit() {
  for (const auto& [tmp, final_path] : files_) tidy_previous(final_path);
  std::vector<Replaced> done;
  for (const auto& [tmp, final_path] : files_) {
    Replaced r{final_path, ""};
    try {
      r.previous = keep_previous(final_path);
    } catch (const std::runtime_error&) {
      roll_back(done);
      throw;
    }
    std::error_code ec;
    fs::rename(tmp, final_path, ec);
    if (ec) {
      const std::string reason = ec.message();
      // This file's earlier one is still in place when it was linked, else it goes back; what
      // is at the final name (a directory, say) is not this job's to remove.
      if (!r.previous.empty()) {
        if (fs::exists(fs::symlink_status(final_path, ec))) {
          fs::remove(r.previous, ec);
        } else {
          fs::rename(r.previous, final_path, ec);
        }
      }
      roll_back(done);
      throw std::runtime_error("cannot rename " + tmp + " to " + final_path + ": " + reason);
    }
    done.push_back(std::move(r));
  }
  std::vector<std::string> out;
  for (const Replaced& r : done) {
    std::error_code ec;
    if (!r.previous.empty()) fs::remove(r.previous, ec);
    out.push_back(r.final_path);
  }
  committed_ = out;
  files_.clear();
  return out;
}

void write_result_formats(const JobSpec& spec, const std::vector<Psm>& psms,
                          PendingFiles& pending) {
  write_result_formats(spec, VectorPsmSource(psms), pending);
}

void write_result_formats(const JobSpec& spec, const PsmSource& psms, PendingFiles& pending) {
  ResultContext context;
  context.params = &spec.search;
  context.spectra_paths = spec.spectra_paths;
  context.fasta_path = spec.fasta_path;
  context.software_version = ionflow_version();
  context.creation_time = spec.creation_time;
  for (const std::string& key : spec.output_formats) {
    const FormatWriter write = format_writer(key);
    std::string tmp = pending.add(spec.output_directory, result_file_name(key, spec.zstd));
    // FileOutputStream remembers why a write failed: a full disk is reported as "cannot write
    // <tmp>: No space left on device", not as the writers' "writing to the output stream failed".
    FileOutputStream file(tmp);
    try {
      if (spec.zstd) {
        ZstdOutputStream out(file);
        write(out, psms, context);
        out.close();
      } else {
        write(file, psms, context);
      }
      file.close();
    } catch (const std::runtime_error&) {
      if (!file.error().empty()) throw std::runtime_error(file.error());
      throw;
    }
  }
}

std::string job_summary_json_text(const JobSummary& s, const std::string& in) {
  std::ostringstream j;
  bool first = true;
  j << "{\n";
  j << in << "  \"spectra_read\": " << s.spectra_read << ",\n";
  j << in << "  \"spectra_skipped\": {";
  first = true;
  for (const auto& [reason, n] : s.spectra_skipped) {
    j << (first ? "" : ", ") << json_quote(reason) << ": " << n;
    first = false;
  }
  j << "},\n";
  j << in << "  \"spectra_skipped_first\": {";
  first = true;
  for (const auto& [reason, where] : s.spectra_skipped_first) {
    j << (first ? "" : ", ") << json_quote(reason) << ": " << json_quote(where);
    first = false;
  }
  j << "},\n";
  j << in << "  \"spectra_searched\": " << s.spectra_searched << ",\n";
  if (!s.warnings.empty()) {
    j << in << "  \"warnings\": [";
    first = true;
    for (const std::string& w : s.warnings) {
      j << (first ? "" : ", ") << json_quote(w);
      first = false;
    }
    j << "],\n";
  }
  j << in << "  \"queries\": " << s.queries << ",\n";
  j << in << "  \"psms\": " << s.psms << ",\n";
  j << in << "  \"psms_at_1pct_fdr\": " << s.psms_at_1pct << ",\n";
  j << in << "  \"peptides_at_1pct_fdr\": " << s.peptides_at_1pct << ",\n";
  j << in << "  \"proteins_at_1pct_fdr\": " << s.proteins_at_1pct << ",\n";
  j << in << "  \"protein_groups_at_1pct_fdr\": " << s.protein_groups_at_1pct << ",\n";
  j << in << "  \"peptides_in_index\": " << s.peptides_in_index << ",\n";
  if (!s.index_cache.empty())
    j << in << "  \"index_cache\": " << json_quote(s.index_cache) << ",\n";
  if (!s.fragment_index.empty()) {
    j << in << "  \"fragment_index\": " << json_quote(s.fragment_index) << ",\n";
  }
  if (!s.index_scope.empty()) {
    j << in << "  \"index_scope\": " << json_quote(s.index_scope) << ",\n";
  }
  if (!s.precursor_calibration.empty()) {
    j << in << "  \"precursor_calibration\": " << json_quote(s.precursor_calibration) << ",\n";
  }
  if (!s.rescoring.empty()) j << in << "  \"rescoring\": " << json_quote(s.rescoring) << ",\n";
  j << in << "  \"wall_seconds\": " << num(s.wall_seconds) << ",\n";
  j << in << "  \"peak_rss_bytes\": " << s.peak_rss_bytes << ",\n";
  j << in << "  \"stages\": {";
  first = true;
  for (const auto& [name, st] : s.stages) {
    j << (first ? "\n" : ",\n") << in << "    " << json_quote(name)
      << ": {\"busy_seconds\": " << num(st.busy_seconds) << ", \"items\": " << st.items
      << ", \"bytes\": " << st.bytes
      << ", \"first_active_seconds\": " << num(st.first_active_seconds)
      << ", \"last_active_seconds\": " << num(st.last_active_seconds) << ", \"busy_intervals\": [";
    for (size_t i = 0; i < st.busy_intervals.size(); ++i) {
      j << (i ? ", [" : "[") << num(st.busy_intervals[i].start_seconds) << ", "
        << num(st.busy_intervals[i].end_seconds) << "]";
    }
    j << "]}";
    first = false;
  }
  j << "\n" << in << "  },\n";
  // Which scorer nodes ("local" = this process) scored how many chunks and queries, and their
  // scorers' summed busy time.
  j << in << "  \"scorer_nodes\": {";
  first = true;
  for (const auto& [name, n] : s.scorer_nodes) {
    j << (first ? "\n" : ",\n") << in << "    " << json_quote(name) << ": {\"chunks\": " << n.chunks
      << ", \"queries\": " << n.queries << ", \"busy_seconds\": " << num(n.busy_seconds) << "}";
    first = false;
  }
  if (!first) j << "\n" << in << "  ";
  j << "}\n" << in << "}";
  return j.str();
}

void write_results_json(const JobSpec& spec, const JobSummary& s, PendingFiles& pending) {
  std::ostringstream j;
  j << "{\n";
  j << "  \"software\": \"ionflow\",\n";
  j << "  \"version\": " << json_quote(ionflow_version()) << ",\n";
  j << "  \"job_id\": " << json_quote(spec.id) << ",\n";
  j << "  \"parameters\": "
    << (spec.effective_parameters_json.empty() ? std::string("{}") : spec.effective_parameters_json)
    << ",\n";
  j << "  \"inputs\": [";
  bool first = true;
  auto input = [&](const std::string& path, const char* kind) {
    auto it = s.input_sha256.find(path);
    j << (first ? "\n" : ",\n") << "    {\"path\": " << json_quote(path) << ", \"kind\": \"" << kind
      << "\", \"sha256\": " << json_quote(it == s.input_sha256.end() ? "" : it->second) << "}";
    first = false;
  };
  for (const std::string& path : spec.spectra_paths) input(path, "spectra");
  input(spec.fasta_path, "fasta");
  j << "\n  ],\n";
  j << "  \"summary\": " << job_summary_json_text(s, "  ") << ",\n";

  j << "  \"output_files\": [";
  first = true;
  for (const std::string& f : s.output_files) {
    j << (first ? "" : ", ") << json_quote(fs::path(f).filename().string());
    first = false;
  }
  j << "]\n}\n";
  std::string tmp = pending.add(spec.output_directory, kResultsJsonName);
  FileOutputStream out(tmp);  // a failure names tmp and the OS reason
  out << j.str();
  out.close();
}

uint64_t peak_rss_bytes() {
  struct rusage usage {};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

}  // namespace ionflow
