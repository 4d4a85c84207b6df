#include "io/job_files.hpp"

#include <filesystem>
#include <stdexcept>
#include <string_view>

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

std::string sort_spill_pattern(long pid) {
  return kSortSpillPrefix + std::to_string(pid) + "-XXXXXX";
}

long sort_spill_owner(const std::string& name) {
  const std::string_view prefix = kSortSpillPrefix;
  if (name.compare(0, prefix.size(), prefix) != 0) return 0;
  long pid = 0;
  size_t at = prefix.size();
  for (; at < name.size() && name[at] >= '0' && name[at] <= '9' && pid < (1L << 40); ++at)
    pid = pid * 10 + (name[at] - '0');
  // Then "-" and mkdtemp's 6 characters.
  const bool shape = at > prefix.size() && at + 7 == name.size() && name[at] == '-';
  return shape ? pid : 0;
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
