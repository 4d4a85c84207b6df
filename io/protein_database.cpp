#include "io/protein_database.hpp"

#include <filesystem>
#include <stdexcept>
#include <string_view>
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

// One sequential read of the whole file into pre-faulted memory (io/file_image.hpp); an
// uncompressed file is parsed right there, a compressed one decompressed into `content`.
// Returns the text to parse (in `image` or `content`).
std::string_view read_fasta(const std::string& fasta_path, FileImage& image, std::string& content,
                            LoadedDatabase& loaded, uint64_t max_memory_bytes) {
  try {
    FileImage::ReadLimits limits;
    limits.max_bytes = max_memory_bytes;
    limits.max_bytes_source = "--max-memory";
    image = FileImage::read(fasta_path, limits);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string(e.what()) + " (protein database)");
  }
  Sha256 sha;
  sha.update(image.bytes());
  loaded.bytes_read = image.bytes().size();
  loaded.fasta_sha256 = sha.hex_digest();
  std::string_view text = image.bytes();
  if (detect_compression(text.substr(0, 4)) != Compression::kNone) {
    Decompressor decompressor(fasta_path);
    decompressor.feed(text, content);
    decompressor.finish();
    image = FileImage();
    text = content;
  }
  return text;
}

}  // namespace

LoadedDatabase load_database(const std::string& fasta_path, const SearchParameters& params,
                             bool selecting, const std::string& index_cache_directory,
                             int build_threads, const std::atomic<bool>* cancel,
                             uint64_t max_memory_bytes) {
  LoadedDatabase loaded;
  FileImage image;
  std::string content;
  const std::string_view text = read_fasta(fasta_path, image, content, loaded, max_memory_bytes);
  std::string cache_key, cache_file, miss_reason;
  if (!index_cache_directory.empty() && selecting) {
    loaded.cache_status =
        "not used: a narrow-window job indexes only the peptides its queries reach";
  } else if (!index_cache_directory.empty()) {
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
  memory_limits.max_peptide_forms =
      check_index_memory(estimate_index_memory(proteins, params, !selecting), max_memory_bytes,
                         params, "--max-memory", memory_limits.max_peptide_forms);
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
