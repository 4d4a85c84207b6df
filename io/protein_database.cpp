#include "io/protein_database.hpp"

#include <filesystem>
#include <future>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "io/decompression.hpp"
#include "io/fasta_reader.hpp"
#include "io/file_image.hpp"
#include "io/index_cache.hpp"
#include "io/job_files.hpp"
#include "io/sha256.hpp"
#include "scoring/fragment_index.hpp"
#include "scoring/index_memory.hpp"
#include "scoring/search_plan.hpp"

namespace ionflow {
namespace {

// One sequential read of the whole file into pre-faulted memory (io/file_image.hpp).
FileImage read_fasta(const std::string& fasta_path, uint64_t max_memory_bytes) {
  try {
    FileImage::ReadLimits limits;
    limits.max_bytes = max_memory_bytes;
    limits.max_bytes_source = "--max-memory";
    return FileImage::read(fasta_path, limits);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string(e.what()) + " (protein database)");
  }
}

// The text to parse: the file image itself, or its content decompressed into `content`.
std::string_view fasta_text(const std::string& fasta_path, const FileImage& image,
                            std::string& content) {
  std::string_view text = image.bytes();
  if (detect_compression(text.substr(0, 4)) == Compression::kNone) return text;
  Decompressor decompressor(fasta_path);
  decompressor.feed(text, content);
  decompressor.finish();
  return content;
}

// The SHA-256 of `bytes` (which must outlive the result's get()) on a thread of its own, so
// that it runs beside the parse: ~7 ms of the BSA demo's 10 MB at OpenSSL's ~1.5 GB/s. In
// place when the system refuses a thread.
std::future<std::string> sha256_beside(std::string_view bytes) {
  try {
    return std::async(std::launch::async, [bytes] { return sha256_hex(bytes); });
  } catch (const std::system_error&) {
    std::promise<std::string> done;
    done.set_value(sha256_hex(bytes));
    return done.get_future();
  }
}

// The exact estimate, or for a narrow-window job whose upper bound fits the budget, the bound
// (scoring/index_memory.hpp: the bound needs no digest).
IndexMemoryEstimate index_memory_estimate(const std::vector<Protein>& proteins,
                                          const SearchParameters& params, bool selecting,
                                          int threads, uint64_t budget_bytes,
                                          const std::atomic<bool>* cancel) {
  if (selecting) {
    IndexMemoryEstimate bound = selected_index_memory_bound(proteins, params);
    if (budget_bytes == 0 || bound.peak_bytes() <= budget_bytes) return bound;
  }
  return estimate_index_memory(proteins, params, !selecting, threads, cancel);
}

}  // namespace

LoadedDatabase load_database(const std::string& fasta_path, const SearchParameters& params,
                             bool selecting, const std::string& index_cache_directory,
                             int build_threads, const std::atomic<bool>* cancel,
                             uint64_t max_memory_bytes) {
  LoadedDatabase loaded;
  FileImage image = read_fasta(fasta_path, max_memory_bytes);
  loaded.bytes_read = image.bytes().size();
  // The checksum of the file as read (compressed or not). Declared after `image`, so that an
  // exception joins its thread before the image is freed.
  std::future<std::string> sha256 = sha256_beside(image.bytes());
  auto take_checksum = [&] {  // once, before the image may be freed
    if (sha256.valid()) loaded.fasta_sha256 = sha256.get();
  };
  std::string content;
  const std::string_view text = fasta_text(fasta_path, image, content);
  if (text.data() != image.bytes().data()) {  // decompressed: the image is not parsed
    take_checksum();
    image = FileImage();
  }
  std::string cache_key, cache_file, miss_reason;
  if (!index_cache_directory.empty() && selecting) {
    loaded.cache_status =
        "not used: a narrow-window job indexes only the peptides its queries reach";
  } else if (!index_cache_directory.empty()) {
    take_checksum();
    cache_key = index_cache_key(loaded.fasta_sha256, params, FragmentIndexOptions{});
    cache_file = index_cache_file(index_cache_directory, cache_key);
    IndexCacheLoad cached = load_index_cache(cache_file, cache_key);
    if (cached.hit()) {
      loaded.cache_status = "hit " + cache_file;
      loaded.index = cached.peptides;
      return loaded;
    }
    miss_reason = cached.miss_reason;
  }
  FastaOptions options;
  options.decoy_tag = params.database.decoy_tag;
  options.tag_is_suffix = params.database.decoy_tag_is_suffix;
  std::vector<Protein> proteins = parse_fasta(text, fasta_path, options, &loaded.warnings);
  take_checksum();
  image = FileImage();
  std::string().swap(content);
  if (proteins.empty()) {
    throw std::runtime_error(fasta_path +
                             ": no protein entries (an empty file, or no line starting with '>')");
  }
  if (cancel != nullptr && cancel->load()) throw BuildCancelled();
  const size_t protein_count = proteins.size();
  // Refused in seconds when the estimate is above the budget; the forms are capped to it.
  PeptideIndexLimits memory_limits;
  memory_limits.max_peptide_forms = check_index_memory(
      index_memory_estimate(proteins, params, selecting, build_threads, max_memory_bytes, cancel),
      max_memory_bytes, params, "--max-memory", memory_limits.max_peptide_forms);
  try {
    PeptideIndexLimits limits = memory_limits;
    limits.threads = build_threads;
    DigestedDatabase digested =
        digest_database(std::move(proteins), params, cancel, limits, selecting);
    if (selecting) {
      loaded.digested.emplace(std::move(digested));
    } else {
      loaded.index = build_peptide_index(std::move(digested), nullptr, cancel, limits);
    }
  } catch (const std::bad_alloc&) {
    throw out_of_memory_building(fasta_path, params.database, protein_count);
  }
  if (loaded.index && !cache_file.empty()) {
    try {
      std::filesystem::create_directories(index_cache_directory);
      save_index_cache(cache_file, cache_key, *loaded.index, nullptr);
      loaded.cache_status = "miss (" + miss_reason + "), saved " + cache_file;
    } catch (const std::exception& e) {
      loaded.cache_status = "miss (" + miss_reason + "), not saved: " + e.what();
    }
  }
  return loaded;
}

}  // namespace ionflow
