#include "io/peak_list_parser.hpp"

#include "io/parse_error.hpp"
#include "io/sha256.hpp"
#include "scoring/search.hpp"

namespace ionflow {

// Bytes enough to tell mzML from MGF (or the whole file, when shorter).
constexpr size_t kFormatHeadBytes = 512;

namespace {

// A spectrum skipped by preparation, as the summary names it: its id (an MGF without TITLE has
// none: its place among the file's spectra, 0-based as in results, and its SCANS), then where it
// starts in the file when the reader said ("precursor m/z above 100000" named only the TITLE).
std::string skipped_spectrum_place(const RawSpectrum& spectrum, bool compressed) {
  std::string text = "spectrum ";
  if (spectrum.native_id.empty()) {
    text += "index=" + std::to_string(spectrum.spectrum_index);
    if (spectrum.scan >= 0) text += " scan=" + std::to_string(spectrum.scan);
  } else {
    text += spectrum.native_id;
  }
  if (spectrum.source_line > 0) {
    text += " (line " + std::to_string(spectrum.source_line) + ")";
  } else if (spectrum.source_byte > 0) {
    text += " (byte " + std::to_string(spectrum.source_byte) +
            (compressed ? " of the decompressed data)" : ")");
  }
  return text;
}

}  // namespace

struct PeakListParser::File {
  File(const std::string& path) : decompressor(path) {}
  Decompressor decompressor;
  std::unique_ptr<SpectrumReader> reader;
  std::string head;  // decompressed bytes before the format is known
  // SHA-256 of the decompressed bytes, for a compressed file of a job of several files.
  std::unique_ptr<Sha256> content;
  // This file's spectra: searched, and skipped by prepare_spectrum (reason -> count).
  uint64_t searched = 0;
  std::map<std::string, uint64_t> prepare_skipped;
};

PeakListParser::PeakListParser(std::vector<std::string> paths, SearchParameters params)
    : paths_(std::move(paths)), params_(std::move(params)) {}

PeakListParser::~PeakListParser() = default;

void PeakListParser::detect_format(File& fp, uint32_t file_index, std::string_view plain, bool last,
                                   std::vector<RawSpectrum>& spectra) {
  const std::string& path = paths_.at(file_index);
  // Enough bytes to tell mzML from MGF, or the whole file; kept only while fewer.
  std::string_view head = plain;
  if (!fp.head.empty() || (plain.size() < kFormatHeadBytes && !last)) {
    fp.head += plain;
    head = fp.head;
  }
  if (head.size() < kFormatHeadBytes && !last) return;
  if (head.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    // A compressed file cut before its first block decodes to nothing: the decompressor's
    // "truncated gzip/zstd data" (file and byte offset) is the cause, not an empty file.
    // `undecided`: the 1-3 bytes of a file too short to tell whether it is compressed.
    std::string undecided;
    fp.decompressor.finish(undecided);
    if (undecided.find_first_not_of(" \t\r\n") == std::string::npos) {
      throw ParseError(path, 0, 0, "empty file: no mzML, mzXML, MGF or MS2 content");
    }
    throw ParseError(
        path, 0, 0,
        std::to_string(undecided.size()) + "-byte file: no mzML, mzXML, MGF or MS2 content");
  }
  fp.reader = make_spectrum_reader(detect_peak_list_format(head), path, file_index);
  fp.reader->feed(head, spectra);
  std::string().swap(fp.head);
}

void PeakListParser::finish_file(File& fp, uint32_t file_index, std::vector<RawSpectrum>& spectra) {
  const std::string& path = paths_.at(file_index);
  fp.decompressor.finish();
  if (fp.content) tally_.decompressed_sha256[path] = fp.content->hex_digest();
  fp.reader->finish(spectra);
  const ReadStats& rs = fp.reader->stats();
  tally_.spectra_read += rs.spectra_seen;
  for (const auto& [reason, n] : rs.skipped) tally_.spectra_skipped[reason] += n;
  for (const auto& [reason, where] : rs.first_skipped_at) {
    tally_.spectra_skipped_first.emplace(reason, path + ": " + where);
  }
  // Data problems that skipped no spectrum (dropped peaks, a cut file, profile spectra
  // centroided): one warning each, so the summary says what was changed or lost.
  // Readers count the bytes they are fed: of a compressed file, its decompressed data.
  const bool compressed = fp.decompressor.compression() != Compression::kNone;
  for (std::string& warning : read_problem_warnings(path, rs)) {
    if (compressed && warning.find("byte ") != std::string::npos) {
      warning += " (bytes count the decompressed data)";
    }
    tally_.warnings.push_back(std::move(warning));
  }
}

void PeakListParser::prepare(File& fp, const std::string& path,
                             const std::vector<RawSpectrum>& spectra, std::vector<Query>& out) {
  for (const RawSpectrum& spectrum : spectra) {
    PreparedSpectrum prepared = prepare_spectrum(spectrum, params_);
    if (prepared.queries.empty()) {
      const std::string reason = prepared.skip_reason.empty() ? "no query" : prepared.skip_reason;
      tally_.spectra_skipped[reason] += 1;
      if (tally_.spectra_skipped_first.count(reason) == 0) {
        tally_.spectra_skipped_first.emplace(
            reason, path + ": " +
                        skipped_spectrum_place(
                            spectrum, fp.decompressor.compression() != Compression::kNone));
      }
      fp.prepare_skipped[reason] += 1;
      continue;
    }
    tally_.spectra_searched += 1;
    fp.searched += 1;
    tally_.queries += prepared.queries.size();
    for (Query& q : prepared.queries) out.push_back(std::move(q));
  }
}

uint64_t PeakListParser::feed(uint32_t file_index, std::string_view bytes, bool last,
                              std::vector<Query>& out) {
  const std::string& path = paths_.at(file_index);
  std::unique_ptr<File>& slot = files_[file_index];
  if (!slot) slot = std::make_unique<File>(path);
  File& fp = *slot;
  // An uncompressed block is parsed where it is (no copy).
  std::string decoded;
  const std::string_view plain = fp.decompressor.feed_view(bytes, decoded);
  // Compressed output starts once the magic bytes are seen: every decompressed byte is hashed.
  if (paths_.size() > 1 && fp.decompressor.compression() != Compression::kNone) {
    if (!fp.content) fp.content = std::make_unique<Sha256>();
    fp.content->update(plain);
  }
  std::vector<RawSpectrum> spectra;
  if (!fp.reader) {
    detect_format(fp, file_index, plain, last, spectra);
    if (!fp.reader) return 0;
  } else {
    fp.reader->feed(plain, spectra);
  }
  if (last) finish_file(fp, file_index, spectra);
  tally_.spectra_parsed += spectra.size();
  prepare(fp, path, spectra, out);
  if (last) {
    if (fp.searched == 0) {
      tally_.warnings.push_back(
          unsearchable_file_warning(path, fp.reader->stats(), fp.prepare_skipped));
    }
    files_.erase(file_index);
  }
  return spectra.size();
}

std::string PeakListParser::failure_message(const std::exception& e, uint32_t file_index,
                                            uint64_t offset) const {
  std::string message = e.what();
  if (!dynamic_cast<const ParseError*>(&e)) {
    message = paths_.at(file_index) + " (block at byte " + std::to_string(offset) + "): " + message;
  }
  // A damaged gzip member is only detected by its CRC at the end, after the garbage was
  // parsed: say that the position counts decompressed bytes and how to check.
  auto file = files_.find(file_index);
  if (file != files_.end() && file->second->decompressor.compression() != Compression::kNone &&
      message.find("gzip") == std::string::npos && message.find("zstd") == std::string::npos &&
      message.find("bzip2") == std::string::npos) {
    const Compression compression = file->second->decompressor.compression();
    const char* check = compression == Compression::kGzip    ? "gzip -t"
                        : compression == Compression::kBzip2 ? "bzip2 -t"
                                                             : "zstd -t";
    message += std::string(
                   " (line and byte count the decompressed data; if the file is "
                   "damaged, `") +
               check + "` will say so)";
  }
  return message;
}

std::string unsearchable_file_warning(const std::string& path, const ReadStats& read,
                                      const std::map<std::string, uint64_t>& prepare_skipped) {
  std::map<std::string, uint64_t> reasons = read.skipped;
  for (const auto& [reason, n] : prepare_skipped) reasons[reason] += n;
  std::string text = path + ": 0 of " + std::to_string(read.spectra_seen) + " spectra searchable";
  std::string sep = " (";
  for (const auto& [reason, n] : reasons) {
    text += sep + std::to_string(n) + " " + reason;
    sep = ", ";
  }
  if (!reasons.empty()) text += ")";
  return text;
}

std::vector<std::string> identical_spectra_file_warnings(
    const std::vector<std::string>& paths, const std::map<std::string, std::string>& file_sha256,
    const std::map<std::string, std::string>& decompressed_sha256) {
  std::vector<std::string> warnings;
  std::map<std::string, size_t> first_of;  // data digest -> index of its first file
  for (size_t i = 0; i < paths.size(); ++i) {
    const auto decompressed = decompressed_sha256.find(paths[i]);
    const auto on_disk = file_sha256.find(paths[i]);
    if (decompressed == decompressed_sha256.end() && on_disk == file_sha256.end()) continue;
    const std::string& digest =
        decompressed != decompressed_sha256.end() ? decompressed->second : on_disk->second;
    const auto [first, inserted] = first_of.emplace(digest, i);
    if (inserted) continue;
    const std::string& earlier = paths[first->second];
    const std::string consequence =
        ": its spectra are searched twice, each competing with itself for its q-value";
    if (earlier == paths[i]) {
      warnings.push_back("spectra file " + paths[i] + " is given twice" + consequence);
      continue;
    }
    const bool compressed =
        decompressed != decompressed_sha256.end() || decompressed_sha256.count(earlier) > 0;
    warnings.push_back("spectra file " + paths[i] + " holds the same data as " + earlier +
                       (compressed ? " once decompressed" : "") + " (SHA-256 " +
                       digest.substr(0, 16) + "...)" + consequence);
  }
  return warnings;
}

}  // namespace ionflow
