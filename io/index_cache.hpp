// Index cache: the digested PeptideIndex and (optionally) its FragmentIndex stored on disk, so a
// job over an unchanged FASTA with unchanged digestion settings skips digestion and indexing.
//
// Key: index_cache_key() = SHA-256 (io/sha256.hpp) of the FASTA's SHA-256 plus a canonical text
// of every setting that changes the index (DatabaseParameters: enzyme, lengths, missed
// cleavages, modifications, decoy rules, mass bounds; ion_types; FragmentIndexOptions' m/z range
// and bucket size) and the file format version. The memory budget is not part of it (it decides
// slicing at search time, not the index).
//
// File (little-endian, this machine's layout; the header rejects any other):
//   magic "IONFLOWX" (8 bytes) | u32 format version | u32 key length | key bytes |
//   u64 payload size | u8 has fragment index | one zstd frame (RFC 8878) of the payload with
//   its content checksum on (XXH64, checked by zstd when decoding).
// The payload holds proteins, modifications, the peptide columns (masses, PeptideRecords,
// residues, placed modifications, occurrences; PeptideIndex::assign_columns validates them),
// then the fragment index parts; every count and string length is bounds-checked while reading,
// and FragmentIndex::from_parts checks the index's order and tiling. Nothing in the file is
// trusted: any mismatch is a miss.
//
// Contract: save_index_cache writes `path`.tmp and renames it over `path` (readers never see a
// half-written file); when writing or renaming fails (a full disk), `path`.tmp is removed.
// load_index_cache never throws for a missing, stale, damaged or unreadable file (a directory
// in its place, EACCES, EIO): it returns a miss with the reason (naming the file and, for
// damage, the payload byte offset; for an OS error, its text).
// Thread-safety: free functions without shared state; concurrent saves to one path race only
// on the final rename (last wins, both complete). Errors: save throws std::runtime_error naming
// the file and the OS reason when it cannot be written; load throws only std::bad_alloc.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "scoring/fragment_index.hpp"
#include "scoring/peptide_index.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow {

// 2: peptides stored column-wise (PeptideIndex::masses/records/residues/placed_modifications/
// occurrences) instead of one record per peptide with its own strings and vectors.
// 3: PeptideRecord::flags marks the peptides outside the null pool (peptide_index.hpp).
inline constexpr uint32_t kIndexCacheVersion = 3;

// The cache key (64 hex characters) of a FASTA whose SHA-256 is `fasta_sha256_hex` (as
// sha256_hex(file bytes) returns it) digested and indexed with `params` and `options`.
std::string index_cache_key(std::string_view fasta_sha256_hex, const SearchParameters& params,
                            const FragmentIndexOptions& options);

// Writes `peptides` and, when not null, `fragments` (a whole index, not a slice) under `key`.
// `zstd_level` 1 (fast) by default; valid ZSTD_minCLevel()..ZSTD_maxCLevel().
// Throws std::runtime_error naming the file on any write or compression failure, e.g.
// "<path>.tmp: cannot write the index cache: write failed at byte 0: No space left on device".
void save_index_cache(const std::string& path, const std::string& key, const PeptideIndex& peptides,
                      const FragmentIndex* fragments, int zstd_level = 1);

struct IndexCacheLoad {
  std::shared_ptr<const PeptideIndex> peptides;    // null on a miss
  std::shared_ptr<const FragmentIndex> fragments;  // null on a miss or when none was saved
  std::string miss_reason;  // "" on a hit; else e.g. "<path>: no such file", "<path>: key
                            // differs (stale)", "<path>: bad magic", "<path>: payload byte
                            // 1234: string length 9999999 past the end", "<path>: is a
                            // directory, not an index cache file", "<path>: read error at
                            // byte 0: Input/output error"
  bool hit() const { return peptides != nullptr; }
};

// Loads the cache at `path` if it holds exactly `key` and is intact; otherwise a miss.
IndexCacheLoad load_index_cache(const std::string& path, const std::string& key);

}  // namespace ionflow
