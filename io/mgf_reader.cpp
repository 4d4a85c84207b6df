// MGF reader: a line-oriented state machine over byte blocks; see mgf_reader.hpp for the rules.
#include "io/mgf_reader.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <utility>

#include "io/byte_text.hpp"
#include "io/number_text.hpp"
#include "io/parse_error.hpp"
#include "io/peak_checks.hpp"
#include "io/profile_spectrum.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow {

namespace {

// Skip reasons, the keys of ReadStats::skipped.
constexpr const char* kBadPeakLine = "bad peak line";
constexpr const char* kBadPepmass = "bad PEPMASS";
constexpr const char* kBadRt = "bad RTINSECONDS";
constexpr const char* kBadScans = "bad SCANS";
constexpr const char* kMissingPepmass = "missing PEPMASS";
constexpr const char* kNoPeaks = kSkipNoPeaks;
constexpr const char* kNested = "nested BEGIN IONS (END IONS missing)";
constexpr const char* kEndWithoutBegin = "END IONS without BEGIN IONS";
constexpr const char* kTruncated = kSkipTruncated;
// A data problem (ReadStats::problems), counted in lines: content between an END IONS (or the
// file's start) and the next BEGIN IONS or the file's end is no spectrum, so it is not counted as
// one read (a stray line after END IONS made spectra_read one more than the file held).
constexpr const char* kLinesOutsideBlocks = "lines outside BEGIN IONS/END IONS ignored";
// A data problem counted in lines: a peak line with more than m/z, intensity and a fragment
// charge ("101.5 200 300 extra", "400 4 some annotation"). The peak is kept with its m/z and
// intensity; what follows is not read, but no longer silently.
constexpr const char* kExtraPeakColumns =
    "peak lines with columns other than m/z, intensity and fragment charge (ignored)";

// A line longer than this is not MGF (or is a runaway file without newlines).
constexpr size_t kMaxLineBytes = 16u << 20;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
char upper(char c) {
  return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
}

std::string_view trim(std::string_view s) {
  size_t b = 0;
  size_t e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (upper(a[i]) != b[i]) return false;
  }
  return true;
}

// "BEGIN IONS" / "END IONS", case-insensitive, any run of blanks between the words.
bool is_marker(std::string_view line, std::string_view first_word) {
  if (line.size() < first_word.size() + 5 ||
      !iequals(line.substr(0, first_word.size()), first_word))
    return false;
  std::string_view rest = line.substr(first_word.size());
  if (!is_space(rest[0])) return false;
  return iequals(trim(rest), "IONS");
}

// Whether the non-empty line `s` starts as a peak line does: a digit, '.', '+' or '-'.
bool looks_like_peak(std::string_view s) {
  return is_digit(s[0]) || s[0] == '.' || s[0] == '+' || s[0] == '-';
}

// Whether `text` (blanks trimmed, not empty) reads as an MGF line: BEGIN IONS, END IONS, a
// KEY=value parameter or a peak line (for refuse_cr_line_ends: text after a CR that reads so
// means CR line ends; "TITLE=a\rb" keeps its CR as before).
bool reads_as_mgf_line(std::string_view text) {
  if (is_marker(text, "BEGIN") || is_marker(text, "END")) return true;
  if (looks_like_peak(text)) return true;
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) return false;
  for (char c : text.substr(0, eq)) {
    if (!is_digit(c) && !(c >= 'A' && c <= 'Z') && !(c >= 'a' && c <= 'z') && c != '_') {
      return false;
    }
  }
  return true;
}

// Parses a double at p (an optional leading '+' is accepted); advances p. NaN and infinities
// are numbers here (a peak list may hold them; peak_checks.hpp drops and counts them).
bool parse_any_double(const char*& p, const char* end, double& value) {
  if (p < end && *p == '+') ++p;
  auto [next, ec] = std::from_chars(p, end, value);
  if (ec != std::errc()) return false;
  p = next;
  return true;
}

// As parse_any_double, for a peak's m/z or intensity: values beyond the double range saturate
// (from_chars_saturating: "1e400" is infinite, so its peak is dropped like "inf").
bool parse_peak_double(const char*& p, const char* end, double& value) {
  if (p < end && *p == '+') ++p;
  auto [next, ec] = from_chars_saturating(p, end, value);
  if (ec != std::errc()) return false;
  p = next;
  return true;
}

// As parse_any_double, for a finite value only.
bool parse_double(const char*& p, const char* end, double& value) {
  return parse_any_double(p, end, value) && std::isfinite(value);
}

bool parse_int(const char*& p, const char* end, int64_t& value) {
  auto [next, ec] = std::from_chars(p, end, value);
  if (ec != std::errc()) return false;
  p = next;
  return true;
}

const char* skip_blanks(const char* p, const char* end) {
  while (p < end && is_space(*p)) ++p;
  return p;
}

// "2+", "+2", "2", "3-" (negative mode), lists joined by ',' or " and ": appends each charge
// once, in file order; each value is classified by classify_precursor_charge (peak_checks.hpp),
// so a bad value means what it means in every reader. A charge of 0 means unknown and is left
// out. Returns kCharge (also for a list of only zeros), or the first kBad / kNegative.
ChargeText parse_charges(std::string_view value, std::vector<int>& charges) {
  charges.clear();
  const char* p = value.data();
  const char* end = p + value.size();
  bool any = false;
  while (true) {
    while (p < end && (is_space(*p) || *p == ',')) ++p;
    if (p == end) break;
    if (end - p >= 3 && iequals(std::string_view(p, 3), "AND") &&
        (end - p == 3 || is_space(p[3]))) {
      p += 3;
      continue;
    }
    const char* start = p;
    while (p < end && !is_space(*p) && *p != ',') ++p;
    int charge = 0;
    const ChargeText kind = classify_precursor_charge(std::string_view(start, p - start), charge);
    if (kind == ChargeText::kBad || kind == ChargeText::kNegative) return kind;
    any = true;
    if (kind == ChargeText::kUnknown) continue;
    bool seen = false;
    for (int c : charges) seen = seen || c == charge;
    if (!seen) charges.push_back(charge);
  }
  return any ? ChargeText::kCharge : ChargeText::kBad;
}

// The first number of "a", "a-b" or "a,b,..." (a range or list of retention times / scans).
template <typename Number, typename Parse>
bool parse_first_of_range(std::string_view value, Number& out, Parse parse) {
  const char* p = value.data();
  const char* end = p + value.size();
  if (!parse(p, end, out)) return false;
  if (p == end) return true;
  if (*p != '-' && *p != ',') return false;
  ++p;
  Number second{};
  return parse(p, end, second);  // must be a number too; only the first is used
}

// Finds "scan=N" in an msconvert-style TITLE ("... scan=11461 ..."); -1 if none.
int64_t scan_from_title(std::string_view title) {
  size_t at = title.find("scan=");
  if (at == std::string_view::npos) return -1;
  const char* p = title.data() + at + 5;
  int64_t scan = -1;
  if (!parse_int(p, title.data() + title.size(), scan)) return -1;
  return scan;
}

class MgfReader final : public SpectrumReader {
 public:
  MgfReader(std::string file_name, uint32_t file_index)
      : file_name_(std::move(file_name)), file_index_(file_index) {}

  void feed(std::string_view block, std::vector<RawSpectrum>& out) override {
    out_ = &out;
    cr_seen_ = cr_seen_ || std::memchr(block.data(), '\r', block.size()) != nullptr;
    const char* p = block.data();
    const char* end = p + block.size();
    if (!carry_.empty()) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', block.size()));
      if (nl == nullptr) {
        append_carry(std::string_view(p, block.size()));
        return;
      }
      append_carry(std::string_view(p, nl - p));
      line(carry_, carry_.size() + 1);
      carry_.clear();
      p = nl + 1;
    }
    while (p < end) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
      if (nl == nullptr) {
        append_carry(std::string_view(p, end - p));
        break;
      }
      line(std::string_view(p, nl - p), nl - p + 1);
      p = nl + 1;
    }
  }

  void finish(std::vector<RawSpectrum>& out) override {
    out_ = &out;
    if (!carry_.empty()) {  // a last line without a newline
      if (state_ == State::kInBlock && !is_marker(trim(carry_), "END")) {
        ++line_no_;  // inside a block, the line the file was cut in: not read as a peak
      } else {
        line(carry_, carry_.size());
      }
      carry_.clear();
    }
    if (state_ == State::kInBlock) {  // both name the last line, as the MS2 reader does
      skip(kTruncated);
      note_problem(stats_, kFileEndsEarly, 1, "line " + std::to_string(line_no_));
    } else if (state_ == State::kOrphan) {
      note_lines_outside();
    }
    state_ = State::kBetween;
  }

  const ReadStats& stats() const override { return stats_; }

 private:
  // kHeader: before the first BEGIN IONS (file-level parameters). kInBlock: inside BEGIN/END
  // IONS. kBetween: after an END IONS. kOrphan: spectrum content found outside a block.
  enum class State { kHeader, kInBlock, kBetween, kOrphan };

  void append_carry(std::string_view part) {
    if (carry_.size() + part.size() > kMaxLineBytes) {
      // CR-only line ends longer than a line may be (from the start, or after LF ones): say so.
      refuse_cr_line_ends(file_name_, offset_, line_no_ + 1, carry_, reads_as_mgf_line);
      refuse_cr_line_ends(file_name_, offset_, line_no_ + 1, part, reads_as_mgf_line);
      throw ParseError(file_name_, offset_, line_no_ + 1,
                       "line longer than " + std::to_string(kMaxLineBytes) + " bytes");
    }
    carry_.append(part);
  }

  // One line without its '\n'; `length` is its length in the file including the '\n'.
  void line(std::string_view raw, size_t length) {
    ++line_no_;
    if (line_no_ == 1 && raw.substr(0, 3) == "\xEF\xBB\xBF") raw.remove_prefix(3);  // UTF-8 BOM
    std::string_view s = trim(raw);
    // Once a block held a CR (one memchr per block before), any line holding one: CR-only line
    // ends from the start, or after LF ones (a file that switched lost its later spectra as
    // lines outside a block), are refused at their first line.
    if (cr_seen_ && std::memchr(raw.data(), '\r', raw.size()) != nullptr) {
      refuse_cr_line_ends(file_name_, offset_, line_no_, raw, reads_as_mgf_line);
    }
    if (!s.empty() && s[0] != '#' && s[0] != ';' && s[0] != '!' && s[0] != '/') dispatch(s);
    offset_ += length;
  }

  void dispatch(std::string_view s) {
    switch (state_) {
      case State::kInBlock:
        if (looks_like_peak(s) || is_non_finite(s)) {
          if (!bad_) peak_line(s);
        } else if (is_marker(s, "END")) {
          end_block();
        } else if (is_marker(s, "BEGIN")) {
          skip(kNested);
          begin_block();
        } else {
          parameter_in_block(s);
        }
        return;
      case State::kHeader:
      case State::kBetween:
        if (is_marker(s, "BEGIN")) {
          begin_block();
        } else if (is_marker(s, "END")) {  // a second END IONS, or one at the start: no content
          note_problem(stats_, kLinesOutsideBlocks, 1, "line " + std::to_string(line_no_));
        } else if (state_ == State::kHeader && s[0] != '=' && !looks_like_peak(s) &&
                   s.find('=') != std::string_view::npos) {
          file_parameter(s);
        } else if (state_ == State::kHeader && !looks_like_peak(s)) {
          throw ParseError(file_name_, offset_, line_no_,
                           "neither mzML (which starts with '<') nor MGF: expected BEGIN IONS, a "
                           "KEY=value parameter or a comment, "
                           "found \"" +
                               printable_text(s.substr(0, 40)) + "\"");
        } else {
          state_ = State::kOrphan;  // a block whose BEGIN IONS is missing, or stray lines
          orphan_first_line_ = line_no_;
          orphan_lines_ = 1;
        }
        return;
      case State::kOrphan:
        if (is_marker(s, "END")) {  // a spectrum whose BEGIN IONS is missing
          skip(kEndWithoutBegin);
          state_ = State::kBetween;
        } else if (is_marker(s, "BEGIN")) {  // lines between two spectra: none
          note_lines_outside();
          begin_block();
        } else {
          ++orphan_lines_;
        }
        return;
    }
  }

  // Whether `rest`, what follows a peak's intensity (blanks trimmed, not empty), is one column
  // that reads as a fragment charge, the optional third column of Mascot's MGF ("2+"; also "+2",
  // "2", "0" unknown, "1-" negative mode, as classify_precursor_charge reads a charge) of at most
  // kMaxPrecursorCharge (no fragment carries more charges than its precursor may). It is
  // understood and not used: fragment charges are the search's (max_fragment_charge).
  static bool is_fragment_charge_column(std::string_view rest) {
    for (char c : rest) {
      if (is_space(c)) return false;  // a fourth column
    }
    int charge = 0;
    const ChargeText kind = classify_precursor_charge(rest, charge);
    return kind == ChargeText::kUnknown ||
           ((kind == ChargeText::kCharge || kind == ChargeText::kNegative) &&
            std::abs(charge) <= kMaxPrecursorCharge);
  }

  // A peak line whose m/z is "nan" or "inf" (as C printf writes them), any case.
  static bool is_non_finite(std::string_view s) {
    if (s.size() < 3 || !(iequals(s.substr(0, 3), "NAN") || iequals(s.substr(0, 3), "INF"))) {
      return false;
    }
    for (char c : s) {  // not a KEY=value parameter such as INFO=...
      if (is_space(c)) return true;
      if (c == '=') return false;
    }
    return true;
  }

  void begin_block() {
    state_ = State::kInBlock;
    ++stats_.spectra_seen;
    current_ = RawSpectrum{};
    current_.file_index = file_index_;
    current_.source_line = line_no_;
    current_.mz.reserve(last_peak_count_);  // spectra of one file have similar sizes
    current_.intensity.reserve(last_peak_count_);
    bad_ = nullptr;
    has_pepmass_ = false;
    has_charge_ = false;
    block_line_ = line_no_;
    first_invalid_ = FirstInvalidPeakLines{};
  }

  std::string line_of(uint64_t line) const {
    return "line " + std::to_string(line > 0 ? line : block_line_);
  }

  void end_block() {
    state_ = State::kBetween;
    if (bad_ != nullptr) return skip_counted(bad_, bad_line_);
    // An entry that lacks something (its PEPMASS, any valid peak, a charge the file-level CHARGE
    // would give) is named where it starts, its BEGIN IONS line: the END IONS line named the
    // first of a file without PEPMASS at its line 211 rather than 1.
    if (!has_pepmass_) return skip_counted(kMissingPepmass, block_line_);
    const std::string where = "line " + std::to_string(block_line_);
    // Invalid peaks are dropped and counted at their own lines (peak_line noted the first).
    check_peaks(current_, stats_, line_of(first_invalid_.bad_mz),
                line_of(first_invalid_.bad_intensity), line_of(first_invalid_.negative_intensity));
    if (current_.mz.empty()) return skip_counted(kNoPeaks, block_line_);
    if (!has_charge_) {
      if (const char* reason = charge_skip_reason(default_charge_kind_))
        return skip_counted(reason, block_line_);
      current_.precursor_charges = default_charges_;
    }
    settle_peak_mode(current_, PeakMode::kUnknown, stats_, where);
    if (current_.scan < 0) current_.scan = scan_from_title(current_.native_id);
    current_.spectrum_index = stats_.spectra_emitted++;
    last_peak_count_ = current_.mz.size();
    out_->push_back(std::move(current_));
  }

  // The lines read in kOrphan that no END IONS closed: a data problem, no spectrum.
  void note_lines_outside() {
    note_problem(stats_, kLinesOutsideBlocks, orphan_lines_,
                 "line " + std::to_string(orphan_first_line_));
    orphan_lines_ = 0;
  }

  // Counts a spectrum that was not emitted, at the current line (a nested BEGIN IONS, an END IONS
  // without BEGIN IONS, the last line of a cut file). Orphans (no BEGIN IONS) are counted as
  // seen here.
  void skip(const char* reason) {
    if (state_ != State::kInBlock) ++stats_.spectra_seen;
    skip_counted(reason, line_no_);
  }
  void set_bad(const char* reason) {
    bad_ = reason;
    bad_line_ = line_no_;
  }
  // `line`: where the first spectrum of `reason` is named (the offending line, or the entry's
  // BEGIN IONS line for what it lacks).
  void skip_counted(const char* reason, uint64_t line) {
    ++stats_.skipped[reason];
    stats_.first_skipped_at.emplace(reason, "line " + std::to_string(line));
  }

  void peak_line(std::string_view s) {
    const char* p = s.data();
    const char* end = p + s.size();
    double mz = 0.0;
    if (!parse_peak_double(p, end, mz)) {
      if (bad_ == nullptr) set_bad(kBadPeakLine);
      return;
    }
    double intensity = 1.0;  // a peak line without an intensity counts as intensity 1
    bool has_intensity = false;
    if (p < end) {
      if (!is_space(*p)) {
        if (bad_ == nullptr) set_bad(kBadPeakLine);
        return;
      }
      p = skip_blanks(p, end);
      if (p < end) {
        if (!parse_peak_double(p, end, intensity) || (p < end && !is_space(*p))) {
          if (bad_ == nullptr) set_bad(kBadPeakLine);
          return;
        }
        has_intensity = true;
        p = skip_blanks(p, end);
        if (p < end && !is_fragment_charge_column(std::string_view(p, end - p))) {
          note_problem(stats_, kExtraPeakColumns, 1, "line " + std::to_string(line_no_));
        }
      }
    }
    if (!has_intensity) {
      note_problem(stats_, kPeakWithoutIntensity, 1, "line " + std::to_string(line_no_));
    }
    // A NaN, infinite or non-positive m/z and a NaN, infinite or negative intensity (as stored)
    // are dropped at END IONS (remove_invalid_peaks, as every reader does), counted at their line.
    const auto stored = static_cast<float>(intensity);
    first_invalid_.note(mz, stored, line_no_);
    current_.mz.push_back(mz);
    current_.intensity.push_back(stored);
  }

  static bool split_parameter(std::string_view s, std::string_view& key, std::string_view& value) {
    size_t eq = s.find('=');
    if (eq == std::string_view::npos) return false;
    key = trim(s.substr(0, eq));
    value = trim(s.substr(eq + 1));
    return true;
  }

  void parameter_in_block(std::string_view s) {
    std::string_view key;
    std::string_view value;
    if (!split_parameter(s, key, value)) {
      if (bad_ == nullptr) set_bad(kBadPeakLine);  // neither a peak, a marker nor KEY=value
      return;
    }
    if (iequals(key, "TITLE")) {
      current_.native_id.assign(value);
    } else if (iequals(key, "PEPMASS")) {
      const char* p = value.data();
      const char* end = p + value.size();
      double mz = 0.0;
      double intensity = 0.0;
      bool ok = parse_double(p, end, mz) && mz > 0.0;
      p = skip_blanks(p, end);
      if (ok && p < end) ok = parse_double(p, end, intensity);
      // Anything after the intensity (some writers add the charge) is ignored.
      if (!ok) {
        if (bad_ == nullptr) set_bad(kBadPepmass);
        return;
      }
      current_.precursor_mz = mz;
      current_.precursor_intensity = intensity;
      has_pepmass_ = true;
    } else if (iequals(key, "CHARGE")) {
      const ChargeText kind = parse_charges(value, current_.precursor_charges);
      if (const char* reason = charge_skip_reason(kind)) {
        if (bad_ == nullptr) set_bad(reason);
        return;
      }
      has_charge_ = true;
    } else if (iequals(key, "RTINSECONDS")) {
      double rt = -1.0;
      if (!parse_first_of_range(value, rt, parse_double) || rt < 0.0) {
        if (bad_ == nullptr) set_bad(kBadRt);
        return;
      }
      current_.rt_seconds = rt;
    } else if (iequals(key, "SCANS")) {
      // Only a value that starts with a digit states a scan number. Anything else (OpenMS
      // FileConverter writes SCANS=-1 when the native id has no scan number, and the tail of an
      // unknown native id, which may be text; other writers leave it empty) means "no scan
      // number": the spectrum is kept, and a "scan=N" in TITLE may still give it.
      if (value.empty() || !is_digit(value[0])) {
        current_.scan = -1;
        return;
      }
      int64_t scan = -1;
      if (!parse_first_of_range(value, scan, parse_int)) {
        if (bad_ == nullptr) set_bad(kBadScans);  // "12x", "10-", an overflow: a damaged line
        return;
      }
      current_.scan = scan;
    }
    // Other keys (SEQ, TOL, INSTRUMENT, ...) are ignored.
  }

  void file_parameter(std::string_view s) {
    std::string_view key;
    std::string_view value;
    split_parameter(s, key, value);
    if (iequals(key, "CHARGE")) {
      default_charge_kind_ = parse_charges(value, default_charges_);
      if (default_charge_kind_ == ChargeText::kBad) {
        throw ParseError(file_name_, offset_, line_no_,
                         "file-level CHARGE: expected e.g. 2+ or 2+ and 3+, found \"" +
                             printable_text(value) + "\"");
      }
    }
    // Other file-level parameters are kept out of the spectra: Mascot's search settings (MASS,
    // ITOL, SEARCH, ...) and the keys other writers add, which need not be Mascot parameters
    // at all: Mascot Distiller's _DISTILLER_MDRO_VERSION=... and _DISTILLER_RAWFILE[0]=(1)...,
    // lower-case or underscore keys of other tools.
  }

  std::string file_name_;
  uint32_t file_index_;
  std::vector<RawSpectrum>* out_ = nullptr;
  ReadStats stats_;

  std::string carry_;     // the start of a line that straddles blocks (never holds a '\n')
  uint64_t offset_ = 0;   // byte offset of the current line's first byte
  uint64_t line_no_ = 0;  // 1-based number of the current line
  bool cr_seen_ = false;  // a CR was in a block fed: lines are checked (refuse_cr_line_ends)

  State state_ = State::kHeader;
  std::vector<int> default_charges_;                      // file-level CHARGE
  ChargeText default_charge_kind_ = ChargeText::kCharge;  // kNegative: a negative-mode file
  RawSpectrum current_;
  const char* bad_ = nullptr;  // first reason the current spectrum is malformed
  uint64_t bad_line_ = 0;      // the line that set bad_
  bool has_pepmass_ = false;
  bool has_charge_ = false;
  uint64_t block_line_ = 0;              // the BEGIN IONS line of the current spectrum
  uint64_t orphan_first_line_ = 0;       // kOrphan: its first line
  uint64_t orphan_lines_ = 0;            // kOrphan: its lines (not blank, not comments)
  FirstInvalidPeakLines first_invalid_;  // of the current spectrum's peaks
  size_t last_peak_count_ = 0;
};

}  // namespace

std::unique_ptr<SpectrumReader> make_mgf_reader(std::string file_name, uint32_t file_index) {
  return std::make_unique<MgfReader>(std::move(file_name), file_index);
}

}  // namespace ionflow
