#include "io/job_files.hpp"

#include <filesystem>
#include <stdexcept>

namespace ionflow {

std::string output_format_keys() {
  std::string keys;
  for (const OutputFormatName& f : kOutputFormatNames) {
    if (!keys.empty()) keys += ", ";
    keys += f.key;
  }
  return keys;
}

std::string result_file_name(const std::string& key, bool zstd) {
  for (const OutputFormatName& f : kOutputFormatNames) {
    if (key == f.key) return std::string(f.file) + (zstd ? ".zst" : "");
  }
  throw std::runtime_error("unknown output format '" + key + "' (expected " + output_format_keys() +
                           ")");
}

std::string spill_directory(const std::string& temp_directory,
                            const std::string& output_directory) {
  if (!temp_directory.empty()) return temp_directory;
  if (!output_directory.empty()) return output_directory;
  return ".";
}

std::string index_cache_file(const std::string& directory, const std::string& key) {
  return (std::filesystem::path(directory) / (key + ".ionflow-index")).string();
}

std::string output_probe_file(const std::string& directory, long pid, const std::string& job_id) {
  return (std::filesystem::path(directory) /
          (".ionflow-probe-" + std::to_string(pid) + "-" + job_id))
      .string();
}

}  // namespace ionflow
