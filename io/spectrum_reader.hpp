// SpectrumReader: turns a peak-list file (mzML, mzXML, MGF or MS2), fed as consecutive byte blocks
// of any size, into RawSpectra. The reader never opens files: the reader actor owns the file and
// hands out blocks. State is kept across blocks, so a spectrum may straddle any block boundary.
//
// Contract: call feed() with the decompressed bytes in file order, then finish() once. Only MS2
// spectra are emitted (others are counted in stats().skipped). Malformed spectra are skipped and
// counted with a reason; input that cannot be parsed at all throws ParseError naming the file and
// byte offset (and line for MGF). Not thread-safe; one reader per file.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/parse_error.hpp"
#include "scoring/spectrum.hpp"

namespace ionflow {

struct ReadStats {
  uint64_t spectra_seen = 0;                // every spectrum in the file, any MS level
  uint64_t spectra_emitted = 0;             // MS2 spectra handed on
  std::map<std::string, uint64_t> skipped;  // reason -> count, e.g. "MS level 1", "no peaks"
  // reason -> where its first spectrum is: "line 120" (MGF: the offending line, or the
  // BEGIN IONS line of an entry missing something) or "spectrum scan=12" (mzML native id).
  std::map<std::string, std::string> first_skipped_at;
  // Data problems that did not skip a spectrum, what -> count (the count's unit is in the key):
  // "peaks dropped: m/z NaN, infinite or not positive" -> 3, "profile spectra centroided" -> 2,
  // "MGF peak lines without an intensity (given intensity 1)" -> 40, "file ends early
  // (truncated?)" -> 1. Where the first one was, as in first_skipped_at.
  std::map<std::string, uint64_t> problems;
  std::map<std::string, std::string> first_problem_at;
};

// One warning per data problem of `stats`, for the job summary: "<file>: <count> <problem>
// (first at <where>)", in key order. Empty when there is none.
std::vector<std::string> read_problem_warnings(const std::string& file_name,
                                               const ReadStats& stats);

class SpectrumReader {
 public:
  virtual ~SpectrumReader() = default;
  // Parses `block`, appending complete spectra to `out`. Throws ParseError.
  virtual void feed(std::string_view block, std::vector<RawSpectrum>& out) = 0;
  // Signals end of input; appends what remains. A file that ends early (inside a spectrum, or
  // before its root element closes) is no error: the spectra before the cut are kept and
  // stats() counts the problem "file ends early (truncated?)". Throws ParseError when what
  // remains is malformed in another way.
  virtual void finish(std::vector<RawSpectrum>& out) = 0;
  virtual const ReadStats& stats() const = 0;
};

enum class PeakListFormat { kMzML, kMgf, kMzXML, kMs2 };

// Detects the format from the first decompressed bytes, never from the file name. After an
// optional UTF-8 BOM and whitespace:
//  - '<': XML. The root element's local name (after the XML declaration, comments, processing
//    instructions and a DOCTYPE) decides: "mzXML" or "msRun" (mzXML 1.x) → mzXML; anything
//    else, or a root not within `head` → mzML (whose reader names a wrong root).
//  - a first line "H", "S", "I" or "Z" followed by a tab or space → MS2 (McDonald et al., Rapid
//    Commun Mass Spectrom 2004;18:2162, the Crux/Comet .ms2 text format);
//  - anything else → MGF (whose reader rejects non-MGF content with a ParseError).
// `head` may be short; at least the first block (512 bytes or the whole file) is expected.
PeakListFormat detect_peak_list_format(std::string_view head);

// A reader for `format`. `file_name` is used in error messages; `file_index` is copied into
// every RawSpectrum.
std::unique_ptr<SpectrumReader> make_spectrum_reader(PeakListFormat format, std::string file_name,
                                                     uint32_t file_index);

}  // namespace ionflow
