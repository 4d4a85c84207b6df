// load_database (io/protein_database.hpp): the checksum is of the bytes on disk (computed beside
// the parse), a zstd-compressed FASTA gives the same proteins and digest as the plain one, and a
// file with no entry is refused naming it (and the line, where there is one).
#include "io/protein_database.hpp"

#include <gtest/gtest.h>

#include <zstd.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "io/sha256.hpp"
#include "io_test_support.hpp"

namespace ionflow {
namespace {

using io_testing::read_file;

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("ionflow_protein_database_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::string write_file(const std::string& name, const std::string& bytes) {
  const std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  return path;
}

SearchParameters bsa_parameters() {
  SearchParameters params;
  params.database.decoy_tag = "_rev";
  params.database.decoy_tag_is_suffix = true;
  params.database.enzyme.missed_cleavages = 1;
  return params;
}

TEST(ProteinDatabase, ChecksumIsOfTheBytesOnDiskPlainOrCompressed) {
  const std::string fasta =
      read_file(std::string(IONFLOW_TEST_DATA_DIR) + "/bsa_target_decoy_excerpt.fasta");
  std::string packed(ZSTD_compressBound(fasta.size()), '\0');
  packed.resize(ZSTD_compress(packed.data(), packed.size(), fasta.data(), fasta.size(), 3));
  const std::string plain_path = write_file("plain.fasta", fasta);
  const std::string packed_path = write_file("packed.fasta.zst", packed);
  const SearchParameters params = bsa_parameters();
  for (bool selecting : {true, false}) {
    LoadedDatabase plain = load_database(plain_path, params, selecting, "", 2, nullptr);
    LoadedDatabase zst = load_database(packed_path, params, selecting, "", 2, nullptr);
    EXPECT_EQ(plain.fasta_sha256, sha256_hex(fasta));
    EXPECT_EQ(zst.fasta_sha256, sha256_hex(packed));
    EXPECT_EQ(plain.bytes_read, fasta.size());
    EXPECT_EQ(zst.bytes_read, packed.size());
    if (selecting) {
      ASSERT_TRUE(plain.digested && zst.digested);
      EXPECT_GT(plain.digested->occurrences(), 100u);
      EXPECT_EQ(zst.digested->occurrences(), plain.digested->occurrences());
      EXPECT_EQ(zst.digested->proteins(), plain.digested->proteins());
    } else {
      ASSERT_TRUE(plain.index && zst.index);
      EXPECT_GT(plain.index->size(), 100u);
      EXPECT_EQ(zst.index->size(), plain.index->size());
    }
  }
  std::filesystem::remove(plain_path);
  std::filesystem::remove(packed_path);
}

// The message load_database throws for `bytes` as a FASTA file.
std::string load_error(const std::string& name, const std::string& bytes, std::string* path) {
  *path = write_file(name, bytes);
  try {
    load_database(*path, bsa_parameters(), true, "", 2, nullptr);
  } catch (const std::runtime_error& e) {
    std::filesystem::remove(*path);
    return e.what();
  }
  std::filesystem::remove(*path);
  return "no error";
}

TEST(ProteinDatabase, AFileWithoutEntriesIsRefusedNamingIt) {
  std::string path;
  const std::string empty = load_error("empty.fasta", "", &path);
  EXPECT_EQ(empty, path + ": no protein entries (an empty file, or no line starting with '>')");
  const std::string headless = load_error("headless.fasta", "PEPTIDEK\n", &path);
  EXPECT_EQ(headless, path + ": line 1 (byte 0): sequence before the first FASTA header ('>')");
}

}  // namespace
}  // namespace ionflow
