// FileOutputStream: the bytes written (through the buffer, past it, and one char at a time), and
// the errors naming the path and the OS reason: /dev/full fails every write with ENOSPC, which is
// what a full disk does, without root.
#include "io/file_output_stream.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include <unistd.h>

#include "io_test_support.hpp"

namespace ionflow {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("ionflow_file_output_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::string close_error(FileOutputStream& out) {
  try {
    out.close();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(FileOutputStream, WritesEveryByteInOrder) {
  const std::string path = temp_path("ok.txt");
  const std::string big(100, 'b');  // larger than the 16-byte buffer: written directly
  {
    FileOutputStream out(path, 16);
    out << "head\t" << 42 << '\n';
    out.write(big.data(), static_cast<std::streamsize>(big.size()));
    out.put('!');
    out << "tail";
    out.close();
    EXPECT_TRUE(out.good());
    EXPECT_EQ(out.error(), "");
  }
  EXPECT_EQ(io_testing::read_file(path), "head\t42\n" + big + "!tail");
  std::filesystem::remove(path);
}

TEST(FileOutputStream, FullDiskNamesThePathAndTheReason) {
  // A write past the buffer fails at once: badbit, and error() says why.
  FileOutputStream out("/dev/full", 16);
  out << "more than sixteen bytes of text";
  EXPECT_TRUE(out.bad());
  EXPECT_EQ(out.error(), "cannot write /dev/full: No space left on device");
  EXPECT_EQ(close_error(out), "cannot write /dev/full: No space left on device");

  // A write that fits the buffer fails when close() writes it.
  FileOutputStream small("/dev/full");
  small << "x";
  EXPECT_TRUE(small.good());
  EXPECT_EQ(close_error(small), "cannot write /dev/full: No space left on device");
  EXPECT_TRUE(small.bad());
}

TEST(FileOutputStream, CreateFailureNamesThePathAndTheReason) {
  try {
    FileOutputStream out("/nonexistent-ionflow-dir/results.tsv.tmp");
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(),
                 "cannot create /nonexistent-ionflow-dir/results.tsv.tmp: No such file or "
                 "directory");
  }
}

}  // namespace
}  // namespace ionflow
