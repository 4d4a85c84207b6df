// Shared by the scoring suite's tests: whole-file reads of the real example data. Header-only.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace ionflow::scoring_test {

// The whole file ("" if it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace ionflow::scoring_test
