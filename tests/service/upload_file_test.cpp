// UploadFiles (service/upload_file.hpp): pieces append at the file's end and offset 0 starts
// anew (through a temporary renamed into place); a later piece goes only into the file its first
// piece made (not one put there by someone else, nor a file swapped in between pieces: the
// hard-link race a new user's re-check found); a symbolic link at the name (to a file outside,
// or dangling), a hard link, a FIFO with or without a reader, a directory are refused at once,
// their targets left as they were; the uploads directory replaced by a link is refused.
#include "service/upload_file.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
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
    files_ = std::make_unique<UploadFiles>((dir_ / "uploads").string());
  }
  void TearDown() override { fs::remove_all(dir_); }
  // A piece of the upload `name` through this test's UploadFiles.
  UploadPieceResult piece(const std::string& name, uint64_t offset, std::string_view body) {
    return files_->write_piece(name, offset, body);
  }
  std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  }
  fs::path dir_;
  std::unique_ptr<UploadFiles> files_;
};

TEST_F(UploadFileTest, PiecesAppendAtTheEndAndOffsetZeroStartsAnew) {
  const fs::path path = dir_ / "uploads" / "run.mgf";
  UploadPieceResult a = piece("run.mgf", 0, "BEGIN IONS\n");
  EXPECT_EQ(a.status, UploadPieceResult::kWritten);
  EXPECT_EQ(a.bytes, 11u);
  UploadPieceResult wrong = piece("run.mgf", 3, "x");
  EXPECT_EQ(wrong.status, UploadPieceResult::kWrongOffset);
  EXPECT_EQ(wrong.bytes, 11u);
  EXPECT_EQ(piece("run.mgf", 11, "END IONS\n").bytes, 20u);
  EXPECT_EQ(read(path), "BEGIN IONS\nEND IONS\n");
  EXPECT_EQ((fs::status(path).permissions() & fs::perms::all),
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                fs::perms::others_read);
  EXPECT_EQ(piece("run.mgf", 0, "new").bytes, 3u);
  EXPECT_EQ(read(path), "new");
  // No temporary file is left behind.
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(dir_ / "uploads")) entries += e.exists();
  EXPECT_EQ(entries, 1u);
}

TEST_F(UploadFileTest, ALaterPieceGoesOnlyIntoTheFileItsFirstPieceMade) {
  // Nothing uploaded: nothing is created.
  UploadPieceResult none = piece("never.mgf", 11, "END IONS\n");
  EXPECT_EQ(none.status, UploadPieceResult::kWrongOffset);
  EXPECT_EQ(none.bytes, 0u);
  EXPECT_FALSE(fs::exists(dir_ / "uploads" / "never.mgf"));
  // A file put there by someone else (or left by a server before a restart): start over.
  std::ofstream(dir_ / "uploads" / "theirs.mgf") << "abc";
  UploadPieceResult theirs = piece("theirs.mgf", 3, "def");
  EXPECT_EQ(theirs.status, UploadPieceResult::kWrongOffset);
  EXPECT_EQ(theirs.bytes, 0u);
  EXPECT_EQ(read(dir_ / "uploads" / "theirs.mgf"), "abc");
  // A file swapped in between two pieces, even of one link (the hard-link race: link an
  // outside file in, then rename a fresh file over the link), is not written.
  const fs::path outside = dir_ / "outside.txt";
  std::ofstream(outside) << "SECRET";
  ASSERT_EQ(piece("race.mgf", 0, "BEGIN").status, UploadPieceResult::kWritten);
  fs::rename(dir_ / "uploads" / "race.mgf", dir_ / "moved.mgf");  // keeps its inode in use
  std::ofstream(dir_ / "uploads" / "race.mgf") << "12345";        // same size, another inode
  EXPECT_EQ(piece("race.mgf", 5, "PWNED").status, UploadPieceResult::kWrongOffset);
  fs::create_hard_link(outside, dir_ / "uploads" / "linked.tmp");
  fs::rename(dir_ / "uploads" / "linked.tmp", dir_ / "uploads" / "race.mgf");
  EXPECT_EQ(piece("race.mgf", 5, "PWNED").status, UploadPieceResult::kNotRegular);
  EXPECT_EQ(read(outside), "SECRET");
}

// Two clients sending one name at once: each first piece answers its own upload id, and a
// later piece with the id of an upload another first piece has replaced is refused, nothing
// written (a new user's check: client A's second piece went onto client B's first, one file of
// both). Without an id a piece goes into the file the last first piece made, as before.
TEST_F(UploadFileTest, TwoUploadsOfOneNameDoNotInterleave) {
  const fs::path path = dir_ / "uploads" / "shared.mgf";
  const UploadPieceResult a = piece("shared.mgf", 0, "AAAA");
  const UploadPieceResult b = piece("shared.mgf", 0, "BBBB");
  ASSERT_EQ(a.status, UploadPieceResult::kWritten);
  ASSERT_EQ(b.status, UploadPieceResult::kWritten);
  EXPECT_FALSE(a.upload.empty());
  EXPECT_NE(a.upload, b.upload);
  EXPECT_EQ(files_->write_piece("shared.mgf", 4, "aa", a.upload).status,
            UploadPieceResult::kSuperseded);
  EXPECT_EQ(read(path), "BBBB");
  const UploadPieceResult next = files_->write_piece("shared.mgf", 4, "bb", b.upload);
  EXPECT_EQ(next.status, UploadPieceResult::kWritten);
  EXPECT_EQ(next.upload, b.upload);
  EXPECT_EQ(read(path), "BBBBbb");
  const UploadPieceResult anonymous = piece("shared.mgf", 6, "cc");  // no id
  EXPECT_EQ(anonymous.status, UploadPieceResult::kWritten);
  EXPECT_EQ(anonymous.upload, "");  // B's id is not handed to whoever sent this piece
  EXPECT_EQ(read(path), "BBBBbbcc");
  // Ids are not "pid-counter": 16 hex digits of randomness, then a counter.
  EXPECT_EQ(a.upload.size(), 18u);
  EXPECT_EQ(a.upload.substr(0, 16), b.upload.substr(0, 16));
  EXPECT_EQ(a.upload.substr(16), "-1");
}

TEST_F(UploadFileTest, ASymbolicLinkIsRefusedAndItsTargetLeftAlone) {
  const fs::path victim = dir_ / "victim.txt";
  std::ofstream(victim) << "keep me";
  fs::create_symlink(victim, dir_ / "uploads" / "link.mgf");
  for (uint64_t offset : {uint64_t{0}, uint64_t{7}}) {
    UploadPieceResult r = piece("link.mgf", offset, "abc");
    EXPECT_EQ(r.status, UploadPieceResult::kNotRegular) << offset;
    EXPECT_EQ(r.error, "a symbolic link (not followed)");
  }
  EXPECT_EQ(read(victim), "keep me");
  // A dangling link is not created through either.
  fs::create_symlink(dir_ / "created_outside.txt", dir_ / "uploads" / "dangling.mgf");
  EXPECT_EQ(piece("dangling.mgf", 0, "abc").status, UploadPieceResult::kNotRegular);
  EXPECT_FALSE(fs::exists(dir_ / "created_outside.txt"));
  // Nor is a hard link to a file elsewhere written through.
  fs::create_hard_link(victim, dir_ / "uploads" / "hard.mgf");
  UploadPieceResult hard = piece("hard.mgf", 0, "abc");
  EXPECT_EQ(hard.status, UploadPieceResult::kNotRegular);
  EXPECT_EQ(hard.error, "a file with other hard links");
  EXPECT_EQ(read(victim), "keep me");
  // The uploads directory itself replaced by a link: refused.
  fs::rename(dir_ / "uploads", dir_ / "real_uploads");
  fs::create_directories(dir_ / "elsewhere");
  fs::create_directory_symlink(dir_ / "elsewhere", dir_ / "uploads");
  UploadPieceResult through = piece("run.mgf", 0, "abc");
  EXPECT_EQ(through.status, UploadPieceResult::kOpenFailed);
  EXPECT_EQ(through.error, "the uploads directory is a symbolic link (not followed)");
  EXPECT_TRUE(fs::is_empty(dir_ / "elsewhere"));
}

TEST_F(UploadFileTest, AFifoIsRefusedAtOnceWithOrWithoutAReader) {
  const fs::path fifo = dir_ / "uploads" / "pipe.mgf";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const auto start = std::chrono::steady_clock::now();
  UploadPieceResult alone = piece("pipe.mgf", 0, "abc");
  EXPECT_EQ(alone.status, UploadPieceResult::kNotRegular);
  EXPECT_EQ(alone.error, "a FIFO or socket");
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  EXPECT_EQ(piece("pipe.mgf", 0, "abc").status, UploadPieceResult::kNotRegular);
  EXPECT_EQ(piece("pipe.mgf", 3, "abc").status, UploadPieceResult::kNotRegular);
  char byte;
  EXPECT_EQ(::read(reader, &byte, 1), 0);  // nothing was written into it
  ::close(reader);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST_F(UploadFileTest, ADirectoryIsRefusedAndAMissingDirectoryIsNotTheNamesFault) {
  fs::create_directories(dir_ / "uploads" / "dir.mgf");
  UploadPieceResult dir = piece("dir.mgf", 0, "abc");
  EXPECT_EQ(dir.status, UploadPieceResult::kNotRegular);
  EXPECT_EQ(dir.error, "a directory");
  UploadFiles missing_directory((dir_ / "no_such_dir").string());
  UploadPieceResult missing = missing_directory.write_piece("a.mgf", 0, "abc");
  EXPECT_EQ(missing.status, UploadPieceResult::kOpenFailed);
  EXPECT_EQ(missing.error_number, ENOENT);
  EXPECT_EQ(missing.error, "No such file or directory");
}

}  // namespace
}  // namespace ionflow
