// load_database (io/protein_database.hpp): the checksum is of the bytes on disk (computed beside
// the parse), a zstd-compressed FASTA gives the same proteins and digest as the plain one, a
// file with no entry is refused naming it (and the line, where there is one), and a
// narrow-window job's memory check counts what it builds, not the whole index.
#include "io/protein_database.hpp"

#include <gtest/gtest.h>

#include <zstd.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "io/fasta_reader.hpp"
#include "io/sha256.hpp"
#include "io_test_support.hpp"
#include "scoring/index_memory.hpp"
#include "scoring/search_plan.hpp"

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

// --max-memory for a narrow-window job is checked against what the job builds, not the whole
// index: the BSA demo's settings (examples/bsa_demo.json: trypsin, 1 missed cleavage, 5-50
// residues, Carbamidomethyl (C), Oxidation (M) at most 2, the FASTA's own decoys, ±10 ppm) on
// its 18,878-entry FASTA. The narrow job keeps 1,187,899 digested ranges (8 bytes, twice for the
// sort): 64 MiB + 7,557,778 residues + 1,187,899 x 16 = 93,673,026 bytes (89 MiB); the whole
// index would be 64 MiB + residues + 1,187,899 x 24 + 1,566,689 forms x 80 = 228,511,338
// (218 MiB); the digest-free bound (2 ranges per residue: 15,115,556) is 316,515,538 (302 MiB)
// and is replaced by the exact count when it does not fit. Under a 150 MiB budget the narrow
// job loads and the whole-index one is refused.
TEST(ProteinDatabase, ANarrowJobIsAdmittedOnWhatItBuildsNotTheWholeIndex) {
  const std::string path = std::string(IONFLOW_EXAMPLES_DIR) +
                           "/TOPPAS/data/BSA_Identification/"
                           "18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta";
  SearchParameters params = bsa_parameters();
  params.database.decoy_generation = DecoyGeneration::kNone;
  params.database.fixed_modifications = {
      {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true}};
  params.database.variable_modifications = {
      {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false}};
  params.precursor_tolerance = Tolerance::Ppm(-10, 10);
  params.isotope_errors = {0, 1};
  ASSERT_TRUE(selects_peptides(params, false));
  const std::vector<Protein> proteins =
      parse_fasta(read_file(path), path, FastaOptions{"_rev", true});
  const IndexMemoryEstimate narrow = estimate_index_memory(proteins, params, false, 2);
  const IndexMemoryEstimate whole = estimate_index_memory(proteins, params, true, 2);
  const IndexMemoryEstimate bound = selected_index_memory_bound(proteins, params);
  EXPECT_EQ(narrow.residues, 7557778u);
  EXPECT_EQ(narrow.occurrences, 1187899u);
  EXPECT_EQ(narrow.index_bytes, 0u);
  EXPECT_EQ(narrow.peak_bytes(), 93673026u);
  EXPECT_EQ(whole.peptide_forms, 1566689u);
  EXPECT_EQ(whole.peak_bytes(), 228511338u);
  EXPECT_EQ(bound.occurrences, 15115556u);
  EXPECT_EQ(bound.peak_bytes(), 316515538u);

  const uint64_t budget = 150ull << 20;
  LoadedDatabase loaded = load_database(path, params, true, "", 2, nullptr, budget);
  ASSERT_TRUE(loaded.digested);
  EXPECT_EQ(loaded.digested->occurrences(), narrow.occurrences);
  try {
    load_database(path, params, false, "", 2, nullptr, budget);
    ADD_FAILURE() << "the whole index was not refused under 150 MiB";
  } catch (const IndexMemoryExceeded& e) {
    EXPECT_NE(std::string(e.what()).find("about 218 MiB"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ionflow
