// BlockReader (io/block_reader.hpp): files read in order as blocks of the configured size, the
// last one marked, each file's SHA-256 of its bytes on disk, and the errors naming the file.
#include "io/block_reader.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/sha256.hpp"

namespace ionflow {
namespace {

namespace fs = std::filesystem;

class BlockReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ionflow-block-reader-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  fs::path dir_;
};

TEST_F(BlockReaderTest, ReadsFilesInOrderInBlocksAndChecksumsEach) {
  std::string first(10000, 'a');
  for (size_t i = 0; i < first.size(); ++i) first[i] = static_cast<char>('a' + i % 26);
  const std::string a = write("a.mgf", first);
  const std::string b = write("b.mgf", "BEGIN IONS\n");
  BlockReader reader({a, b}, 4096);
  std::vector<FileBlock> blocks;
  FileBlock block;
  while (reader.next(block)) blocks.push_back(block);
  ASSERT_EQ(blocks.size(), 4u);
  EXPECT_EQ(blocks[0].file_index, 0u);
  EXPECT_EQ(blocks[0].offset, 0u);
  EXPECT_EQ(blocks[0].bytes.size(), 4096u);
  EXPECT_FALSE(blocks[0].last);
  EXPECT_EQ(blocks[1].offset, 4096u);
  EXPECT_EQ(blocks[2].offset, 8192u);
  EXPECT_EQ(blocks[2].bytes.size(), 1808u);  // 10000 - 2 * 4096
  EXPECT_TRUE(blocks[2].last);               // no extra empty block at the end
  EXPECT_EQ(blocks[0].bytes + blocks[1].bytes + blocks[2].bytes, first);
  EXPECT_EQ(blocks[3].file_index, 1u);
  EXPECT_EQ(blocks[3].bytes, "BEGIN IONS\n");
  EXPECT_TRUE(blocks[3].last);
  EXPECT_EQ(reader.blocks_read(), 4u);
  EXPECT_EQ(reader.bytes_read(), 10011u);
  EXPECT_EQ(reader.sha256().at(a), sha256_hex(first));
  EXPECT_EQ(reader.sha256().at(b), sha256_hex("BEGIN IONS\n"));
  EXPECT_EQ(total_file_bytes({a, b, (dir_ / "missing").string()}), 10011u);
}

TEST_F(BlockReaderTest, AnEmptyFileIsOneEmptyLastBlock) {
  const std::string path = write("empty.mzML", "");
  BlockReader reader({path}, 1 << 20);
  FileBlock block;
  ASSERT_TRUE(reader.next(block));
  EXPECT_TRUE(block.bytes.empty());
  EXPECT_TRUE(block.last);
  EXPECT_FALSE(reader.next(block));
  // SHA-256 of the empty message (FIPS 180-4 test vector).
  EXPECT_EQ(reader.sha256().at(path),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_F(BlockReaderTest, AMissingFileNamesItself) {
  const std::string path = (dir_ / "nope.mzML").string();
  BlockReader reader({path}, 4096);
  FileBlock block;
  try {
    reader.next(block);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot open: No such file or directory");
  }
}

}  // namespace
}  // namespace ionflow
