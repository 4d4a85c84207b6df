#include "service/memory_budget.hpp"

#include <malloc.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace ionflow {

namespace {

// The first number in `path` ("max" and unreadable files: 0).
uint64_t read_number(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word.empty() || !std::isdigit(static_cast<unsigned char>(word[0]))) return 0;
  try {
    return std::stoull(word);
  } catch (const std::exception&) {
    return 0;
  }
}

uint64_t mem_available_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

// Left under this process's cgroup limit (0 = no limit found).
uint64_t cgroup_left_bytes() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    // v2: "0::/path"; v1 memory controller: "N:memory:/path".
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controllers.empty()) {
      for (std::string dir = "/sys/fs/cgroup" + (path == "/" ? "" : path);;) {
        const uint64_t max = read_number(dir + "/memory.max");
        if (max > 0) {
          const uint64_t used = read_number(dir + "/memory.current");
          return max > used ? max - used : 1;
        }
        if (dir == "/sys/fs/cgroup") break;
        dir = dir.substr(0, dir.rfind('/'));
      }
    } else if (controllers.find("memory") != std::string::npos) {
      const std::string dir = "/sys/fs/cgroup/memory" + (path == "/" ? "" : path);
      const uint64_t limit = read_number(dir + "/memory.limit_in_bytes");
      if (limit > 0 && limit < (1ull << 60)) {
        const uint64_t used = read_number(dir + "/memory.usage_in_bytes");
        return limit > used ? limit - used : 1;
      }
    }
  }
  return 0;
}

}  // namespace

uint64_t available_memory_bytes() {
  const uint64_t available = mem_available_bytes();
  const uint64_t cgroup = cgroup_left_bytes();
  if (available == 0) return cgroup;
  if (cgroup == 0) return available;
  return std::min(available, cgroup);
}

uint64_t default_max_memory_bytes(int jobs) {
  const uint64_t available = available_memory_bytes();
  if (available == 0) return 8ull << 30;
  const uint64_t share = available / 4 * 3 / static_cast<uint64_t>(std::max(1, jobs));
  return std::max<uint64_t>(share, 256ull << 20);
}

uint64_t parse_memory_size(const std::string& text) {
  auto bad = [&text] {
    return std::invalid_argument(
        "expected a memory size such as 8G, 512M or 1073741824 (bytes), got \"" + text + "\"");
  };
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    throw bad();
  }
  std::string unit = text.substr(used);
  for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && unit.back() == 'B') unit.pop_back();
  if (unit.size() == 2 && unit[1] == 'I') unit.pop_back();
  double scale = 1;
  if (unit == "K") {
    scale = 1024.0;
  } else if (unit == "M") {
    scale = 1024.0 * 1024;
  } else if (unit == "G") {
    scale = 1024.0 * 1024 * 1024;
  } else if (unit == "T") {
    scale = 1024.0 * 1024 * 1024 * 1024;
  } else if (!unit.empty() && unit != "B") {
    throw bad();
  }
  const double bytes = value * scale;
  if (!(bytes >= 1) || !std::isfinite(bytes) || bytes > 1.8e19) throw bad();
  return static_cast<uint64_t>(bytes);
}

void limit_malloc_arenas() {
  const unsigned cores = std::thread::hardware_concurrency();
  ::mallopt(M_ARENA_MAX, static_cast<int>(std::max(2u, cores)));
}

}  // namespace ionflow
