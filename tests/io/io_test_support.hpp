// Helpers shared by the io/ test files. Header-only: the suite compiles only *_test.cpp files.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

namespace ionflow::io_testing {

// The whole file as bytes; a missing file is a test failure (and gives "").
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace ionflow::io_testing
