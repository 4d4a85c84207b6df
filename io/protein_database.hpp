// The protein database of a job, loaded once: the FASTA read sequentially into RAM
// (io/file_image.hpp; gzip/zstd decompressed), checksummed, parsed (io/fasta_reader.hpp) and
// digested on `build_threads` threads; then its whole peptide index built, or, for a job that
// selects peptides (scoring/search_plan.hpp: selects_peptides), the digested database kept for
// build_selected_index once the queries' masses are known.
//
// Index cache: with `index_cache_directory` set, an intact cached index of the same FASTA
// checksum and digestion settings is loaded instead (io/index_cache.hpp), and a freshly built
// whole index is saved there (a failure to save is reported in `cache_status`, never fails the
// job). A selecting job does not use the cache.
// Memory: with `max_memory_bytes` (JobSpec::max_memory_bytes, `--max-memory`; 0 = none) a FASTA
// larger than it is refused before it is read, and after parsing, before digesting, the
// index's estimate (scoring/index_memory.hpp) is checked against it: IndexMemoryExceeded
// naming the estimate, the budget and the settings; the build's form limit is capped to it.
// Errors: ParseError (the FASTA), std::runtime_error ("<path>: no protein entries ...", cannot
// read; out of memory while building, see out_of_memory_building), BuildCancelled.
// Thread-safety: a plain function; uses `build_threads` threads of its own.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scoring/peptide_index.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow {

struct LoadedDatabase {
  std::shared_ptr<const PeptideIndex> index;  // built (cache hit, or the whole database)
  std::optional<DigestedDatabase> digested;   // else: to build from (build_selected_index)
  std::string fasta_sha256;                   // hex, of the bytes on disk
  uint64_t bytes_read = 0;                    // bytes of the file on disk
  // "" (no cache directory), "hit <file>", "miss (<reason>), saved <file>", "not used: ...".
  std::string cache_status;
  // The FASTA's repeated accessions, one line each (io/fasta_reader.hpp); empty on a cache hit,
  // whose index was built from the same bytes.
  std::vector<std::string> warnings;
};

LoadedDatabase load_database(const std::string& fasta_path, const SearchParameters& params,
                             bool selecting, const std::string& index_cache_directory,
                             int build_threads, const std::atomic<bool>* cancel,
                             uint64_t max_memory_bytes = 0);

}  // namespace ionflow
