// write_upload_piece (service/upload_file.hpp): pieces append at the file's end and offset 0
// starts anew; a symbolic link at the name (to a file outside, or dangling) is refused and its
// target left as it was; a FIFO, with or without a reader, is refused at once (it used to block
// every upload); a directory, a device or a file with other hard links is refused; a later
// piece of an upload that does not exist creates nothing.
#include "service/upload_file.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ionflow {
namespace {

namespace fs = std::filesystem;

class UploadFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ionflow_upload_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "uploads");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  }
  fs::path dir_;
};

TEST_F(UploadFileTest, PiecesAppendAtTheEndAndOffsetZeroStartsAnew) {
  const std::string path = (dir_ / "uploads" / "run.mgf").string();
  UploadPieceResult a = write_upload_piece(path, 0, "BEGIN IONS\n");
  EXPECT_EQ(a.status, UploadPieceResult::kWritten);
  EXPECT_EQ(a.bytes, 11u);
  UploadPieceResult wrong = write_upload_piece(path, 3, "x");
  EXPECT_EQ(wrong.status, UploadPieceResult::kWrongOffset);
  EXPECT_EQ(wrong.bytes, 11u);
  EXPECT_EQ(write_upload_piece(path, 11, "END IONS\n").bytes, 20u);
  EXPECT_EQ(read(path), "BEGIN IONS\nEND IONS\n");
  EXPECT_EQ((fs::status(path).permissions() & fs::perms::all),
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                fs::perms::others_read);
  EXPECT_EQ(write_upload_piece(path, 0, "new").bytes, 3u);
  EXPECT_EQ(read(path), "new");
}

TEST_F(UploadFileTest, ALaterPieceOfAMissingUploadCreatesNothing) {
  const fs::path path = dir_ / "uploads" / "never.mgf";
  UploadPieceResult r = write_upload_piece(path.string(), 11, "END IONS\n");
  EXPECT_EQ(r.status, UploadPieceResult::kWrongOffset);
  EXPECT_EQ(r.bytes, 0u);
  EXPECT_FALSE(fs::exists(path));
}

TEST_F(UploadFileTest, ASymbolicLinkIsRefusedAndItsTargetLeftAlone) {
  const fs::path victim = dir_ / "victim.txt";
  std::ofstream(victim) << "keep me";
  const fs::path link = dir_ / "uploads" / "link.mgf";
  fs::create_symlink(victim, link);
  for (uint64_t offset : {uint64_t{0}, uint64_t{7}}) {
    UploadPieceResult r = write_upload_piece(link.string(), offset, "abc");
    EXPECT_EQ(r.status, UploadPieceResult::kNotRegular) << offset;
    EXPECT_EQ(r.error, "a symbolic link (not followed)");
  }
  EXPECT_EQ(read(victim), "keep me");
  // A dangling link is not created through either.
  const fs::path dangling = dir_ / "uploads" / "dangling.mgf";
  fs::create_symlink(dir_ / "created_outside.txt", dangling);
  EXPECT_EQ(write_upload_piece(dangling.string(), 0, "abc").status, UploadPieceResult::kNotRegular);
  EXPECT_FALSE(fs::exists(dir_ / "created_outside.txt"));
  // Nor is a hard link to a file elsewhere written through.
  fs::create_hard_link(victim, dir_ / "uploads" / "hard.mgf");
  UploadPieceResult hard = write_upload_piece((dir_ / "uploads" / "hard.mgf").string(), 0, "abc");
  EXPECT_EQ(hard.status, UploadPieceResult::kNotRegular);
  EXPECT_EQ(hard.error, "a file with other hard links");
  EXPECT_EQ(read(victim), "keep me");
}

TEST_F(UploadFileTest, AFifoIsRefusedAtOnceWithOrWithoutAReader) {
  const fs::path fifo = dir_ / "uploads" / "pipe.mgf";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const auto start = std::chrono::steady_clock::now();
  UploadPieceResult alone = write_upload_piece(fifo.string(), 0, "abc");
  EXPECT_EQ(alone.status, UploadPieceResult::kNotRegular);
  EXPECT_EQ(alone.error, "a FIFO or socket");
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  UploadPieceResult read_by_someone = write_upload_piece(fifo.string(), 0, "abc");
  EXPECT_EQ(read_by_someone.status, UploadPieceResult::kNotRegular);
  EXPECT_EQ(read_by_someone.error, "not a regular file");
  char byte;
  EXPECT_EQ(::read(reader, &byte, 1), 0);  // nothing was written into it
  ::close(reader);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST_F(UploadFileTest, ADirectoryOrADeviceIsRefusedAndAnUnwritableDirectoryIsNotTheNamesFault) {
  fs::create_directories(dir_ / "uploads" / "dir.mgf");
  UploadPieceResult dir = write_upload_piece((dir_ / "uploads" / "dir.mgf").string(), 0, "abc");
  EXPECT_EQ(dir.status, UploadPieceResult::kNotRegular);
  EXPECT_EQ(dir.error, "a directory");
  // /dev/full is a character device: refused before any write.
  EXPECT_EQ(write_upload_piece("/dev/full", 0, "abc").status, UploadPieceResult::kNotRegular);
  // A missing uploads directory is a failure to open, with the system's reason.
  UploadPieceResult missing =
      write_upload_piece((dir_ / "no_such_dir" / "a.mgf").string(), 0, "abc");
  EXPECT_EQ(missing.status, UploadPieceResult::kOpenFailed);
  EXPECT_EQ(missing.error_number, ENOENT);
  EXPECT_EQ(missing.error, "No such file or directory");
}

}  // namespace
}  // namespace ionflow
