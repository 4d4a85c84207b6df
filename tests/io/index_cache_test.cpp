// Index cache: a round trip of the BSA excerpt index (peptides, modifications, occurrences and
// fragment index identical), the key's sensitivity to the FASTA and each digestion setting, and
// misses (never crashes) for a missing, stale, truncated, bit-flipped or foreign file.
#include "io/index_cache.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include "io/fasta_reader.hpp"
#include "io/sha256.hpp"
#include "io_test_support.hpp"

namespace ionflow {
namespace {

using io_testing::read_file;

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

struct Fixture {
  std::string fasta;
  SearchParameters params;
  std::shared_ptr<const PeptideIndex> peptides;
  FragmentIndex fragments;
};

const Fixture& bsa() {
  static const Fixture f = [] {
    Fixture f;
    const std::string path = std::string(IONFLOW_TEST_DATA_DIR) + "/bsa_target_decoy_excerpt.fasta";
    f.fasta = read_file(path);
    FastaOptions fasta;
    fasta.decoy_tag = "_rev";
    fasta.tag_is_suffix = true;
    f.params.database.decoy_tag = "_rev";
    f.params.database.decoy_tag_is_suffix = true;
    f.params.database.enzyme.missed_cleavages = 1;
    f.params.database.fixed_modifications = {
        {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true}};
    f.params.database.variable_modifications = {
        {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false}};
    f.peptides = build_peptide_index(parse_fasta(f.fasta, path, fasta), f.params);
    FragmentIndexOptions options;
    options.bucket_size = 256;
    f.fragments = FragmentIndex::build(*f.peptides, f.params, options);
    return f;
  }();
  return f;
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("ionflow_index_cache_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

TEST(IndexCache, KeyDependsOnFastaAndEveryDigestionSetting) {
  const Fixture& f = bsa();
  const std::string fasta_sha = sha256_hex(f.fasta);
  FragmentIndexOptions options;
  const std::string key = index_cache_key(fasta_sha, f.params, options);
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(key, index_cache_key(fasta_sha, f.params, options));  // deterministic
  EXPECT_NE(key, index_cache_key(sha256_hex(f.fasta + "A"), f.params, options));
  auto differs = [&](auto change) {
    SearchParameters p = f.params;
    FragmentIndexOptions o = options;
    change(p, o);
    return index_cache_key(fasta_sha, p, o) != key;
  };
  EXPECT_TRUE(differs([](SearchParameters& p, auto&) { p.database.enzyme.missed_cleavages = 2; }));
  EXPECT_TRUE(differs([](SearchParameters& p, auto&) { p.database.enzyme.name = "lys-c"; }));
  EXPECT_TRUE(differs([](SearchParameters& p, auto&) {
    p.database.variable_modifications[0].mass_delta_da = 15.9949;
  }));
  EXPECT_TRUE(differs([](SearchParameters& p, auto&) { p.database.fixed_modifications.clear(); }));
  EXPECT_TRUE(differs([](SearchParameters& p, auto&) { p.database.peptide_max_mass_da = 4000; }));
  EXPECT_TRUE(differs([](SearchParameters& p, auto&) {
    p.database.decoy_generation = DecoyGeneration::kReverseProtein;
  }));
  EXPECT_TRUE(differs([](SearchParameters& p, auto&) { p.ion_types = "cz"; }));
  EXPECT_TRUE(differs([](auto&, FragmentIndexOptions& o) { o.bucket_size = 4096; }));
  EXPECT_TRUE(differs([](auto&, FragmentIndexOptions& o) { o.fragment_max_mz = 1800; }));
  // Search-time settings do not change the index.
  EXPECT_FALSE(
      differs([](SearchParameters& p, auto&) { p.precursor_tolerance = Tolerance::Ppm(-5, 5); }));
  EXPECT_FALSE(differs([](auto&, FragmentIndexOptions& o) { o.memory_budget_bytes = 1 << 20; }));
}

TEST(IndexCache, RoundTripIsIdentical) {
  const Fixture& f = bsa();
  const std::string path = temp_path("roundtrip.idx");
  const std::string key = index_cache_key(sha256_hex(f.fasta), f.params, f.fragments.options());
  save_index_cache(path, key, *f.peptides, &f.fragments);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  const IndexCacheLoad load = load_index_cache(path, key);
  ASSERT_TRUE(load.hit()) << load.miss_reason;
  EXPECT_EQ(load.miss_reason, "");
  const PeptideIndex& a = *f.peptides;
  const PeptideIndex& b = *load.peptides;
  ASSERT_EQ(a.proteins.size(), b.proteins.size());
  for (size_t i = 0; i < a.proteins.size(); ++i) {
    EXPECT_EQ(a.proteins[i].accession, b.proteins[i].accession);
    EXPECT_EQ(a.proteins[i].description, b.proteins[i].description);
    EXPECT_EQ(a.proteins[i].sequence, b.proteins[i].sequence);
    EXPECT_EQ(a.proteins[i].is_decoy, b.proteins[i].is_decoy);
  }
  ASSERT_EQ(b.modifications.size(), 2u);
  EXPECT_EQ(b.modifications[0].name, a.modifications[0].name);
  EXPECT_EQ(b.modifications[1].unimod_accession, a.modifications[1].unimod_accession);
  EXPECT_EQ(b.modifications[1].mass_delta_da, 15.994915);
  EXPECT_EQ(b.modifications[1].residues, "M");
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const Peptide x = a.peptide(i);
    const Peptide y = b.peptide(i);
    ASSERT_EQ(x.sequence, y.sequence) << i;
    EXPECT_EQ(x.neutral_mass_da, y.neutral_mass_da);
    EXPECT_EQ(x.decoy, y.decoy);
    EXPECT_EQ(x.missed_cleavages, y.missed_cleavages);
    EXPECT_EQ(x.enzymatic_termini, y.enzymatic_termini);
    ASSERT_EQ(x.modifications.size(), y.modifications.size());
    for (size_t m = 0; m < x.modifications.size(); ++m) {
      EXPECT_EQ(x.modifications[m].position, y.modifications[m].position);
      EXPECT_EQ(x.modifications[m].modification, y.modifications[m].modification);
    }
    ASSERT_EQ(x.occurrences.size(), y.occurrences.size());
    for (size_t o = 0; o < x.occurrences.size(); ++o) {
      EXPECT_EQ(x.occurrences[o].protein, y.occurrences[o].protein);
      EXPECT_EQ(x.occurrences[o].start, y.occurrences[o].start);
    }
  }
  // LVNELTEFAK keeps its hand-summed mass.
  const auto [first, last] = b.mass_range(1162.62, 1162.63);
  bool found = false;
  for (size_t i = first; i < last; ++i) {
    found |=
        b.peptide(i).sequence == "LVNELTEFAK" && std::abs(b.neutral_mass_da(i) - 1162.62339) < 1e-4;
  }
  EXPECT_TRUE(found);
  ASSERT_NE(load.fragments, nullptr);
  const FragmentIndex& fa = f.fragments;
  const FragmentIndex& fb = *load.fragments;
  EXPECT_EQ(fb.options().bucket_size, 256u);
  ASSERT_EQ(fa.entries().size(), fb.entries().size());
  ASSERT_EQ(fa.buckets().size(), fb.buckets().size());
  for (size_t i = 0; i < fa.entries().size(); ++i) {
    ASSERT_EQ(fa.entries()[i].mz, fb.entries()[i].mz) << i;
    ASSERT_EQ(fa.entries()[i].peptide, fb.entries()[i].peptide) << i;
  }
  // Without a fragment index.
  save_index_cache(path, key, *f.peptides, nullptr);
  const IndexCacheLoad peptides_only = load_index_cache(path, key);
  ASSERT_TRUE(peptides_only.hit()) << peptides_only.miss_reason;
  EXPECT_EQ(peptides_only.fragments, nullptr);
  EXPECT_EQ(peptides_only.peptides->size(), a.size());
  std::filesystem::remove(path);
}

TEST(IndexCache, DamagedOrStaleFilesAreMisses) {
  const Fixture& f = bsa();
  const std::string path = temp_path("damaged.idx");
  const std::string key = index_cache_key(sha256_hex(f.fasta), f.params, f.fragments.options());

  IndexCacheLoad load = load_index_cache(path + ".absent", key);
  EXPECT_FALSE(load.hit());
  EXPECT_EQ(load.miss_reason, path + ".absent: no such file");

  save_index_cache(path, key, *f.peptides, &f.fragments);
  const std::string good = read_file(path);

  load = load_index_cache(path, std::string(64, '0'));
  EXPECT_FALSE(load.hit());
  EXPECT_EQ(load.miss_reason, path + ": key differs (stale)");

  write_file(path, "<?xml version=\"1.0\"?><mzML/>");
  load = load_index_cache(path, key);
  EXPECT_EQ(load.miss_reason, path + ": bad magic (not an ionflow index cache)");

  std::string other_version = good;
  other_version[8] = 7;
  write_file(path, other_version);
  EXPECT_EQ(load_index_cache(path, key).miss_reason,
            path + ": format version 7, expected " + std::to_string(kIndexCacheVersion));

  // Truncated anywhere: a miss, never a crash.
  for (size_t keep :
       {size_t{4}, size_t{20}, size_t{89}, size_t{95}, good.size() / 2, good.size() - 1}) {
    write_file(path, good.substr(0, keep));
    load = load_index_cache(path, key);
    EXPECT_FALSE(load.hit()) << keep;
    EXPECT_NE(load.miss_reason.find(path + ": "), std::string::npos) << keep;
  }
  // A flipped byte inside the zstd frame: the frame or its XXH64 checksum rejects it.
  std::string flipped = good;
  flipped[good.size() - 40] ^= 0x5a;
  write_file(path, flipped);
  load = load_index_cache(path, key);
  EXPECT_FALSE(load.hit());
  EXPECT_NE(load.miss_reason.find("zstd frame at byte 89"), std::string::npos) << load.miss_reason;
  std::filesystem::remove(path);
}

// A directory, a FIFO or a file the OS cannot read where the cache should be: a miss naming the
// path and the reason, never an exception (that would fail the whole job).
TEST(IndexCache, UnreadablePathsAreMissesWithTheReason) {
  const Fixture& f = bsa();
  const std::string key = index_cache_key(sha256_hex(f.fasta), f.params, f.fragments.options());

  const std::string dir = temp_path("a_directory.idx");
  std::filesystem::create_directories(dir);
  IndexCacheLoad load = load_index_cache(dir, key);
  EXPECT_FALSE(load.hit());
  EXPECT_EQ(load.miss_reason, dir + ": is a directory, not an index cache file");
  std::filesystem::remove(dir);

  const std::string fifo = temp_path("a_fifo.idx");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(load_index_cache(fifo, key).miss_reason, fifo + ": not a regular file");
  std::filesystem::remove(fifo);

  // /proc/self/mem is a regular file whose offset 0 (an unmapped address) reads as EIO.
  load = load_index_cache("/proc/self/mem", key);
  EXPECT_FALSE(load.hit());
  EXPECT_EQ(load.miss_reason, "/proc/self/mem: read error at byte 0: Input/output error");

  // A payload size no zstd frame of that length can hold (it would be allocated before decoding).
  const std::string path = temp_path("huge_payload.idx");
  save_index_cache(path, key, *f.peptides, nullptr);
  std::string bytes = read_file(path);
  const uint64_t huge = uint64_t{1} << 62;
  const size_t payload_size_at = 8 + 4 + 4 + key.size();
  std::memcpy(bytes.data() + payload_size_at, &huge, sizeof huge);
  write_file(path, bytes);
  const size_t frame_size = bytes.size() - (payload_size_at + 8 + 1);
  EXPECT_EQ(load_index_cache(path, key).miss_reason,
            path + ": payload size 4611686018427387904 exceeds what the " +
                std::to_string(frame_size) + "-byte zstd frame can hold");
  std::filesystem::remove(path);
}

// A failed save (full disk, rename refused, no such directory) throws with the path and the OS
// reason and leaves no <path>.tmp behind.
TEST(IndexCache, FailedSaveRemovesTheTemporaryFile) {
  const Fixture& f = bsa();
  const std::string key = index_cache_key(sha256_hex(f.fasta), f.params, f.fragments.options());
  auto save_error = [&](const std::string& path) -> std::string {
    try {
      save_index_cache(path, key, *f.peptides, &f.fragments);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "no error";
  };

  // A full disk: <path>.tmp is a symlink to /dev/full, where every write fails with ENOSPC.
  const std::string full = temp_path("full.idx");
  std::filesystem::create_symlink("/dev/full", full + ".tmp");
  EXPECT_EQ(save_error(full), full +
                                  ".tmp: cannot write the index cache: write failed at byte 0: No "
                                  "space left on device");
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::symlink_status(full + ".tmp")));
  EXPECT_FALSE(std::filesystem::exists(full));

  // The rename fails: a non-empty directory stands where the cache file should be.
  const std::string dir = temp_path("dir.idx");
  std::filesystem::create_directories(dir + "/inside");
  EXPECT_EQ(save_error(dir), dir + ": cannot rename " + dir + ".tmp: Is a directory");
  EXPECT_FALSE(std::filesystem::exists(dir + ".tmp"));
  EXPECT_TRUE(std::filesystem::is_directory(dir + "/inside"));
  std::filesystem::remove_all(dir);

  // The parent "directory" is a file: nothing can be created.
  const std::string file = temp_path("not_a_dir");
  write_file(file, "x");
  EXPECT_EQ(save_error(file + "/cache.idx"),
            file + "/cache.idx.tmp: cannot write the index cache: cannot create: Not a directory");
  std::filesystem::remove(file);
}

TEST(IndexCache, SliceCannotBeCached) {
  const Fixture& f = bsa();
  const FragmentIndex slice =
      FragmentIndex::build(*f.peptides, f.params, {}, 0, f.peptides->size() / 2);
  EXPECT_THROW(save_index_cache(temp_path("slice.idx"), "k", *f.peptides, &slice),
               std::runtime_error);
}

}  // namespace
}  // namespace ionflow
