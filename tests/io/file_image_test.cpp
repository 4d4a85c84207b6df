// FileImage: the bytes of a real file exactly (size and SHA-256 against sha256sum's), an empty
// file, and the error naming a missing file.
#include "io/file_image.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/sha256.hpp"

namespace ionflow {
namespace {

TEST(FileImage, ReadsTheBsaFastaExactly) {
  const std::string path = std::string(IONFLOW_EXAMPLES_DIR) +
                           "/TOPPAS/data/BSA_Identification/"
                           "18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta";
  const FileImage image = FileImage::read(path);
  EXPECT_EQ(image.bytes().size(), 10016646u);
  EXPECT_EQ(image.bytes().substr(0, 4), ">sp|");
  // sha256sum of the file as Debian 12's openms-doc ships it.
  Sha256 sha;
  sha.update(image.bytes());
  EXPECT_EQ(sha.hex_digest(), "1afd504928705206adf101d8c01fa79cf9318c96f41a8dcb631889711493dfcc");
}

TEST(FileImage, EmptyFileAndMoves) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "ionflow_file_image_test_empty";
  { std::ofstream(path).put('x'); }
  FileImage a = FileImage::read(path.string());
  EXPECT_EQ(a.bytes(), "x");
  FileImage b = std::move(a);
  EXPECT_EQ(b.bytes(), "x");
  EXPECT_TRUE(a.bytes().empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  { std::ofstream truncate(path); }
  b = FileImage::read(path.string());
  EXPECT_TRUE(b.bytes().empty());
  std::filesystem::remove(path);
}

TEST(FileImage, MissingFileNamesPathAndReason) {
  try {
    FileImage::read("/nonexistent/ionflow/db.fasta");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/ionflow/db.fasta: cannot open: No such file or directory");
  }
}

}  // namespace
}  // namespace ionflow
