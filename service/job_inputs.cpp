#include "service/job_inputs.hpp"

#include <filesystem>
#include <limits>
#include <system_error>

#include "service/json_value.hpp"

namespace ionflow {

namespace {

namespace fs = std::filesystem;

std::string comparable(const std::string& path) {
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(path, ec);
  return ec ? fs::path(path).lexically_normal().string() : canonical.string();
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

}  // namespace ionflow
