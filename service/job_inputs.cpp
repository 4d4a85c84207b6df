#include "service/job_inputs.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <system_error>
#include <utility>

#include "service/json_value.hpp"

namespace ionflow {

namespace {

namespace fs = std::filesystem;

std::string comparable(const std::string& path) {
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(path, ec);
  return ec ? fs::path(path).lexically_normal().string() : canonical.string();
}

// Whether `path` lies inside `directory` (both comparable), at any depth.
bool inside(const fs::path& path, fs::path directory) {
  if (!directory.has_filename()) directory = directory.parent_path();  // "/data/uploads/"
  const auto [in_directory, in_path] =
      std::mismatch(directory.begin(), directory.end(), path.begin(), path.end());
  return in_directory == directory.end() && in_path != path.end();
}

}  // namespace

std::vector<std::string> job_input_paths(const JobRecord& job) {
  std::vector<std::string> paths;
  try {
    const JsonValue parameters = parse_json(job.effective_json);
    if (const JsonValue* spectra = parameters.find("mzml_paths"); spectra && spectra->is_array()) {
      for (const JsonValue& path : spectra->as_array()) {
        if (path.is_string()) paths.push_back(path.as_string());
      }
    }
    if (const JsonValue* database = parameters.find("database")) {
      if (const JsonValue* fasta = database->find("fasta"); fasta && fasta->is_string()) {
        paths.push_back(fasta->as_string());
      }
    }
  } catch (const std::exception&) {
    paths.clear();
  }
  return paths;
}

std::string UnfinishedJobInputs::job_reading(const JobStore& store, const std::string& path) {
  const uint64_t changes = store.changes();  // before the read: a change during it moves it
  if (changes != changes_) {
    std::map<std::string, std::string> inputs;
    for (JobState state : {JobState::kQueued, JobState::kRunning}) {
      for (const JobRecord& job : store.list(state, std::numeric_limits<int>::max())) {
        for (const std::string& input : job_input_paths(job))
          inputs.insert_or_assign(comparable(input), job.id);
      }
    }
    job_by_input_ = std::move(inputs);
    changes_ = changes;
  }
  const auto found = job_by_input_.find(comparable(path));
  return found == job_by_input_.end() ? "" : found->second;
}

UploadGate::UploadGate(const JobStore& store, std::string uploads_directory)
    : store_(store), uploads_directory_(std::move(uploads_directory)) {}

std::string UploadGate::write_unless_read(const std::string& path,
                                          const std::function<void()>& write,
                                          const std::function<bool()>& changes_path) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::error_code ec;
  if ((!changes_path || changes_path()) && fs::exists(fs::symlink_status(path, ec))) {
    std::string job = unfinished_.job_reading(store_, path);
    if (!job.empty()) return job;
  }
  write();
  return "";
}

std::unique_lock<std::mutex> UploadGate::hold_for_job(const std::vector<std::string>& inputs) {
  if (uploads_directory_.empty()) return {};
  const fs::path uploads = comparable(uploads_directory_);
  for (const std::string& input : inputs) {
    if (inside(comparable(input), uploads)) return std::unique_lock<std::mutex>(mutex_);
  }
  return {};
}

}  // namespace ionflow
