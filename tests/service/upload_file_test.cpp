// UploadFiles (service/upload_file.hpp): pieces append at the file's end and offset 0 starts
// anew (through a temporary renamed into place); a later piece goes only into the file its first
// piece made (not one put there by someone else, nor a file swapped in between pieces: the
// hard-link race a new user's re-check found); a symbolic link at the name (to a file outside,
// or dangling), a hard link, a FIFO with or without a reader, a directory are refused at once,
// their targets left as they were; the uploads directory replaced by a link is refused. With a
// size, the pieces are staged under a hidden name and the file takes its name whole with the last
// one; a piece past the size is refused; a restart's clean-up removes what unfinished uploads left.
#include "service/upload_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

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

// The names in the uploads directory, hidden ones included.
std::vector<std::string> entries(const fs::path& directory) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(directory)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

// With a size, nothing is at the name until the last piece: the pieces go to one hidden staged
// file (".staged-ID-SIZE-NAME"), which the last piece renames into place whole; a piece sent
// again after that is told the upload is complete (a client whose answer was lost).
TEST_F(UploadFileTest, AStagedUploadTakesItsNameWholeWithItsLastPiece) {
  const fs::path path = dir_ / "uploads" / "run.mgf";
  const std::string whole = "BEGIN IONS\nPEPMASS=500.0\nEND IONS\n";  // 34 bytes
  const UploadPieceResult first = files_->write_piece("run.mgf", 0, whole.substr(0, 11), "", 34);
  ASSERT_EQ(first.status, UploadPieceResult::kWritten);
  EXPECT_EQ(first.bytes, 11u);
  EXPECT_EQ(first.size, std::optional<uint64_t>(34));
  EXPECT_FALSE(first.complete);
  EXPECT_FALSE(fs::exists(path));
  const std::string staged = ".staged-" + first.upload + "-34-run.mgf";
  EXPECT_EQ(entries(dir_ / "uploads"), std::vector<std::string>{staged});
  EXPECT_EQ(read(dir_ / "uploads" / staged), "BEGIN IONS\n");
  // The size may be repeated or left out; a wrong offset says how far the staged file is.
  const UploadPieceResult wrong = files_->write_piece("run.mgf", 3, "x", first.upload, 34);
  EXPECT_EQ(wrong.status, UploadPieceResult::kWrongOffset);
  EXPECT_EQ(wrong.bytes, 11u);
  EXPECT_FALSE(wrong.complete);
  const UploadPieceResult second = files_->write_piece("run.mgf", 11, whole.substr(11, 14));
  ASSERT_EQ(second.status, UploadPieceResult::kWritten);
  EXPECT_EQ(second.bytes, 25u);
  EXPECT_EQ(second.upload, "");  // not given, not handed out
  EXPECT_FALSE(second.complete);
  EXPECT_FALSE(fs::exists(path));
  const UploadPieceResult last =
      files_->write_piece("run.mgf", 25, whole.substr(25), first.upload, 34);
  ASSERT_EQ(last.status, UploadPieceResult::kWritten);
  EXPECT_EQ(last.bytes, 34u);
  EXPECT_EQ(last.upload, first.upload);
  EXPECT_TRUE(last.complete);
  EXPECT_EQ(read(path), whole);
  EXPECT_EQ(entries(dir_ / "uploads"), std::vector<std::string>{"run.mgf"});
  // The last piece again: the upload is complete at 34 bytes, nothing appended.
  const UploadPieceResult again =
      files_->write_piece("run.mgf", 25, whole.substr(25), first.upload, 34);
  EXPECT_EQ(again.status, UploadPieceResult::kWrongOffset);
  EXPECT_EQ(again.bytes, 34u);
  EXPECT_TRUE(again.complete);
  EXPECT_EQ(read(path), whole);
  // A first piece of the whole size completes at once; so does an empty file of size 0.
  const UploadPieceResult once = files_->write_piece("once.mgf", 0, whole, "", 34);
  EXPECT_TRUE(once.complete);
  EXPECT_EQ(read(dir_ / "uploads" / "once.mgf"), whole);
  EXPECT_TRUE(files_->write_piece("empty.mgf", 0, "", "", 0).complete);
  EXPECT_EQ(fs::file_size(dir_ / "uploads" / "empty.mgf"), 0u);
  EXPECT_EQ(entries(dir_ / "uploads"),
            (std::vector<std::string>{"empty.mgf", "once.mgf", "run.mgf"}));
}

// A file at the name stays as it was, whole, until the staged upload that replaces it completes.
TEST_F(UploadFileTest, AStagedUploadReplacesAFileOnlyWhenComplete) {
  const fs::path path = dir_ / "uploads" / "db.fasta";
  ASSERT_TRUE(files_->write_piece("db.fasta", 0, ">old\nPEPTIDE\n").status ==
              UploadPieceResult::kWritten);
  const UploadPieceResult first = files_->write_piece("db.fasta", 0, ">new\n", "", 14);
  ASSERT_EQ(first.status, UploadPieceResult::kWritten);
  EXPECT_EQ(read(path), ">old\nPEPTIDE\n");
  ASSERT_TRUE(files_->write_piece("db.fasta", 5, "PEPTIDEK\n", first.upload).complete);
  EXPECT_EQ(read(path), ">new\nPEPTIDEK\n");
}

// A piece past the size, a size other than the first piece's, a size for an upload begun
// without one: refused, nothing written; the upload goes on with the right piece.
TEST_F(UploadFileTest, APiecePastTheSizeOrOfAnotherSizeIsRefused) {
  const UploadPieceResult over = files_->write_piece("a.mgf", 0, "0123456789", "", 9);
  EXPECT_EQ(over.status, UploadPieceResult::kTooLong);
  EXPECT_EQ(over.size, std::optional<uint64_t>(9));
  EXPECT_TRUE(fs::is_empty(dir_ / "uploads"));
  const UploadPieceResult first = files_->write_piece("a.mgf", 0, "0123", "", 9);
  ASSERT_EQ(first.status, UploadPieceResult::kWritten);
  const std::string staged = ".staged-" + first.upload + "-9-a.mgf";
  const UploadPieceResult past = files_->write_piece("a.mgf", 4, "456789", first.upload, 9);
  EXPECT_EQ(past.status, UploadPieceResult::kTooLong);
  EXPECT_EQ(past.size, std::optional<uint64_t>(9));
  // Far past (no wrap-around of offset + bytes).
  EXPECT_EQ(files_->write_piece("a.mgf", UINT64_MAX, "x", first.upload).status,
            UploadPieceResult::kTooLong);
  const UploadPieceResult other = files_->write_piece("a.mgf", 4, "45", first.upload, 10);
  EXPECT_EQ(other.status, UploadPieceResult::kSizeMismatch);
  EXPECT_EQ(other.size, std::optional<uint64_t>(9));
  EXPECT_EQ(read(dir_ / "uploads" / staged), "0123");
  EXPECT_TRUE(files_->write_piece("a.mgf", 4, "45678", first.upload, 9).complete);
  EXPECT_EQ(read(dir_ / "uploads" / "a.mgf"), "012345678");
  // After completion a piece past the end is past the size, not appended.
  EXPECT_EQ(files_->write_piece("a.mgf", 9, "9").status, UploadPieceResult::kTooLong);
  ASSERT_EQ(files_->write_piece("b.mgf", 0, "0123").status, UploadPieceResult::kWritten);
  const UploadPieceResult unsized = files_->write_piece("b.mgf", 4, "45", "", 6);
  EXPECT_EQ(unsized.status, UploadPieceResult::kSizeMismatch);
  EXPECT_EQ(unsized.size, std::nullopt);
  EXPECT_EQ(read(dir_ / "uploads" / "b.mgf"), "0123");
}

// A first piece under the same name replaces the staged upload: its staged file goes (no piece
// can reach it any more), and its later pieces are refused as before.
TEST_F(UploadFileTest, ANewFirstPieceRemovesTheStagedFileItReplaces) {
  const UploadPieceResult a = files_->write_piece("same.mgf", 0, "AAAA", "", 8);
  const UploadPieceResult b = files_->write_piece("same.mgf", 0, "BBBB", "", 8);
  ASSERT_EQ(a.status, UploadPieceResult::kWritten);
  ASSERT_EQ(b.status, UploadPieceResult::kWritten);
  EXPECT_EQ(entries(dir_ / "uploads"),
            std::vector<std::string>{".staged-" + b.upload + "-8-same.mgf"});
  EXPECT_EQ(files_->write_piece("same.mgf", 4, "aaaa", a.upload, 8).status,
            UploadPieceResult::kSuperseded);
  // An unsized first piece replaces it as well.
  ASSERT_EQ(files_->write_piece("same.mgf", 0, "CC").status, UploadPieceResult::kWritten);
  EXPECT_EQ(entries(dir_ / "uploads"), std::vector<std::string>{"same.mgf"});
  EXPECT_EQ(files_->write_piece("same.mgf", 4, "bbbb", b.upload, 8).status,
            UploadPieceResult::kSuperseded);
  EXPECT_EQ(read(dir_ / "uploads" / "same.mgf"), "CC");
}

// Which pieces change the file at the name, for the rule that a job's input is not changed
// under it: every piece without a size, only the completing one with.
TEST_F(UploadFileTest, OnlyTheCompletingPieceOfAStagedUploadChangesTheFile) {
  EXPECT_TRUE(files_->changes_file("x.mgf", 0, 4, "", std::nullopt));
  EXPECT_TRUE(files_->changes_file("x.mgf", 4, 4, "", std::nullopt));  // no upload: as before
  EXPECT_FALSE(files_->changes_file("x.mgf", 0, 4, "", 8));
  EXPECT_TRUE(files_->changes_file("x.mgf", 0, 8, "", 8));
  EXPECT_FALSE(files_->changes_file("x.mgf", 0, 9, "", 8));  // refused: too long
  const UploadPieceResult first = files_->write_piece("x.mgf", 0, "0123", "", 8);
  EXPECT_FALSE(files_->changes_file("x.mgf", 4, 2, first.upload, 8));
  EXPECT_TRUE(files_->changes_file("x.mgf", 4, 4, first.upload, 8));
  EXPECT_TRUE(files_->changes_file("x.mgf", 4, 4, "", std::nullopt));
  EXPECT_FALSE(files_->changes_file("x.mgf", 4, 4, "another", 8));     // superseded
  EXPECT_FALSE(files_->changes_file("x.mgf", 4, 4, first.upload, 9));  // another size
  EXPECT_FALSE(files_->changes_file("x.mgf", 4, 5, first.upload, 8));  // too long
  ASSERT_TRUE(files_->write_piece("x.mgf", 4, "4567", first.upload).complete);
  EXPECT_FALSE(files_->changes_file("x.mgf", 4, 4, first.upload, 8));  // complete: refused
  ASSERT_EQ(files_->write_piece("y.mgf", 0, "0123").status, UploadPieceResult::kWritten);
  EXPECT_TRUE(files_->changes_file("y.mgf", 4, 4, "", std::nullopt));
  EXPECT_FALSE(files_->changes_file("y.mgf", 4, 4, "", 8));  // refused: a size for an unsized one
}

TEST(UnfinishedUploads, AreTheHiddenNamesOfTheUploadsDirectory) {
  EXPECT_TRUE(is_unfinished_upload("/d/uploads/.staged-0123456789abcdef-1-8-a.mgf", "/d/uploads"));
  EXPECT_TRUE(is_unfinished_upload("/d/uploads/.upload-0123456789abcdef-1-a.mgf", "/d/uploads/"));
  EXPECT_TRUE(is_unfinished_upload("/d/uploads/./.x/y.mgf", "/d/uploads"));
  EXPECT_TRUE(is_unfinished_upload("/d/uploads/sub/../.x", "/d/uploads"));
  EXPECT_FALSE(is_unfinished_upload("/d/uploads/a.mgf", "/d/uploads"));
  EXPECT_FALSE(is_unfinished_upload("/d/uploads", "/d/uploads"));
  EXPECT_FALSE(is_unfinished_upload("/d/uploads/", "/d/uploads"));
  EXPECT_FALSE(is_unfinished_upload("/d/.x", "/d/uploads"));
  EXPECT_FALSE(is_unfinished_upload("/d/uploads2/.x", "/d/uploads"));
  EXPECT_FALSE(is_unfinished_upload("/elsewhere/.x", "/d/uploads"));
}

// What a restart finds: the staged and temporary files of uploads the old process began go,
// each reported with its name and bytes (and size, staged); anything else stays.
TEST_F(UploadFileTest, UnfinishedUploadsAreRemovedAndReported) {
  ASSERT_EQ(files_->write_piece("cut.fasta", 0, ">P1\nPEPT", "", 1000000).status,
            UploadPieceResult::kWritten);
  ASSERT_EQ(files_->write_piece("whole.fasta", 0, ">P1\n").status, UploadPieceResult::kWritten);
  const fs::path uploads = dir_ / "uploads";
  std::ofstream(uploads / ".upload-0123456789abcdef-7-first.mgf") << "BEGIN";
  std::ofstream(uploads / ".keep") << "not ionflow's";
  fs::create_directories(uploads / ".staged-dir");
  const fs::path victim = dir_ / "victim.txt";
  std::ofstream(victim) << "keep me";
  fs::create_symlink(victim, uploads / ".staged-0123456789abcdef-9-5-link.mgf");
  std::vector<UnfinishedUpload> found = remove_unfinished_uploads(uploads.string());
  std::sort(found.begin(), found.end(),
            [](const UnfinishedUpload& a, const UnfinishedUpload& b) { return a.name < b.name; });
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].name, "cut.fasta");
  EXPECT_EQ(found[0].bytes, 8u);
  EXPECT_EQ(found[0].size, std::optional<uint64_t>(1000000));
  EXPECT_EQ(found[0].error, "");
  EXPECT_EQ(found[1].name, "first.mgf");
  EXPECT_EQ(found[1].file, ".upload-0123456789abcdef-7-first.mgf");
  EXPECT_EQ(found[1].bytes, 5u);
  EXPECT_EQ(found[1].size, std::nullopt);
  EXPECT_EQ(found[2].name, "link.mgf");  // the link goes, not its target
  EXPECT_EQ(found[2].bytes, 0u);
  EXPECT_EQ(read(victim), "keep me");
  EXPECT_EQ(entries(uploads), (std::vector<std::string>{".keep", ".staged-dir", "whole.fasta"}));
  EXPECT_TRUE(remove_unfinished_uploads((dir_ / "no_such_dir").string()).empty());
}

}  // namespace
}  // namespace ionflow
