// PeakListParser: the raw blocks of a job's spectra files (as the reader hands them out, still
// compressed if the file is) turned into prepared queries. Per file: decompression (gzip, zstd,
// bzip2; io/decompression.hpp), format detection from the first decompressed bytes (mzML,
// mzXML, MGF or MS2; io/spectrum_reader.hpp), parsing, and spectrum preparation
// (scoring/search.hpp: prepare_spectrum). Counts what it read and skipped in a ParseTally, warns
// about a file none of whose spectra is searchable and about each counted data problem of a file
// (ReadStats::problems: dropped peaks, a cut file, centroided profile spectra). In a job of
// several spectra files, hashes each compressed file's decompressed bytes (SHA-256, ~1.4 GB/s:
// ~10 ms for BSA1.mzML's 13.6 MB), so that identical_spectra_file_warnings() can tell X.mgf.gz
// holds X.mgf's spectra.
//
// Contract: each file's blocks arrive in file order, its last one with `last` set; blocks of
// different files may interleave. Errors: feed() throws ParseError (file, byte, line) for input
// that cannot be parsed: "empty file: no mzML, mzXML, MGF or MS2 content", "3-byte file: ...",
// damaged compressed data. failure_message() turns any exception of feed() into the message the job
// fails with. Thread-safety: none; one parser per parser actor. Not copyable.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/decompression.hpp"
#include "io/spectrum_reader.hpp"
#include "scoring/query.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow {

// What one parser read, summed over its files (the job summary's counts; see JobSummary).
struct ParseTally {
  uint64_t spectra_read = 0;      // every spectrum of the files finished, any MS level
  uint64_t spectra_parsed = 0;    // MS2 spectra handed to preparation
  uint64_t spectra_searched = 0;  // spectra with at least one query
  uint64_t queries = 0;
  std::map<std::string, uint64_t> spectra_skipped;  // reason -> count
  // reason -> "<file>: <where>": the reader's place ("line 120", "spectrum scan=12"), or for a
  // reason of preparation the spectrum's id and where it starts, "spectrum t1 (line 7)" (MGF,
  // MS2, mzXML: RawSpectrum::source_line), "spectrum scan=12 (byte 4711)" (mzML: source_byte;
  // "(byte 4711 of the decompressed data)" in a compressed file).
  std::map<std::string, std::string> spectra_skipped_first;
  // One per file without a searchable spectrum, and one per data problem of a file
  // (read_problem_warnings in io/spectrum_reader.hpp).
  std::vector<std::string> warnings;
  // path -> hex SHA-256 of the decompressed bytes of each compressed file finished, when the job
  // has several spectra files (identical_spectra_file_warnings; a one-file job hashes nothing
  // more). An uncompressed file's bytes are their own: the reader's SHA-256 (BlockReader) is it.
  std::map<std::string, std::string> decompressed_sha256;
};

class PeakListParser {
 public:
  // `paths` are the job's spectra files (by file index), `params` its search parameters.
  PeakListParser(std::vector<std::string> paths, SearchParameters params);
  ~PeakListParser();
  PeakListParser(const PeakListParser&) = delete;
  PeakListParser& operator=(const PeakListParser&) = delete;

  // Decompresses and parses the block `bytes` of file `file_index` (`last`: its last block);
  // appends the prepared queries to `out`. Returns the number of spectra parsed. Throws.
  uint64_t feed(uint32_t file_index, std::string_view bytes, bool last, std::vector<Query>& out);

  // The message for `e`, thrown by feed() for the block at byte `offset` of file `file_index`:
  // a ParseError's own message, anything else prefixed with the file and block offset; for a
  // compressed file a note that positions count decompressed bytes and how to check the file.
  std::string failure_message(const std::exception& e, uint32_t file_index, uint64_t offset) const;

  const ParseTally& tally() const { return tally_; }

 private:
  struct File;
  void detect_format(File& file, uint32_t file_index, std::string_view plain, bool last,
                     std::vector<RawSpectrum>& spectra);
  void finish_file(File& file, uint32_t file_index, std::vector<RawSpectrum>& spectra);
  void prepare(File& file, const std::string& path, const std::vector<RawSpectrum>& spectra,
               std::vector<Query>& out);

  std::vector<std::string> paths_;
  SearchParameters params_;
  std::map<uint32_t, std::unique_ptr<File>> files_;  // files being parsed
  ParseTally tally_;
};

// "BSA1.mzML: 0 of 612 spectra searchable (612 MS level 1)": a file none of whose spectra is
// searched (MS1-only, every charge above the cap, too few peaks...). The job still succeeds;
// this says which file gave nothing and why (`prepare_skipped`: reasons preparation gave).
std::string unsearchable_file_warning(const std::string& path, const ReadStats& read,
                                      const std::map<std::string, uint64_t>& prepare_skipped);

// One warning per spectra file whose data is the same as an earlier one's (`paths` in job order):
// "spectra file run.mgf.gz holds the same data as run.mgf once decompressed (SHA-256
// 1a2b3c4d5e6f7a8b...): its spectra are searched twice, each competing with itself for its
// q-value" (the same path twice: "spectra file run.mgf is given twice: ..."). A file's data is
// its `decompressed_sha256` when it has one, else its `file_sha256` (the bytes on disk: an
// uncompressed file's data); a file with neither is left out. The job still runs: a benchmark
// may mean it.
std::vector<std::string> identical_spectra_file_warnings(
    const std::vector<std::string>& paths, const std::map<std::string, std::string>& file_sha256,
    const std::map<std::string, std::string>& decompressed_sha256);

}  // namespace ionflow
