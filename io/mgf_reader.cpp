// MGF reader: a line-oriented state machine over byte blocks; see mgf_reader.hpp for the rules.
#include "io/mgf_reader.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>
#include <utility>

namespace ionflow {

namespace {

// `text` for an error message: bytes outside printable ASCII as \xNN, so that a binary file
// (a .raw renamed .mgf, a gzip without its magic) does not put control bytes in the log.
std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      out += c;
    } else {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

// Skip reasons, the keys of ReadStats::skipped.
constexpr const char* kBadPeakLine = "bad peak line";
constexpr const char* kBadPepmass = "bad PEPMASS";
constexpr const char* kBadCharge = "bad CHARGE";
constexpr const char* kBadRt = "bad RTINSECONDS";
constexpr const char* kBadScans = "bad SCANS";
constexpr const char* kMissingPepmass = "missing PEPMASS";
constexpr const char* kNoPeaks = "no peaks";
constexpr const char* kNested = "nested BEGIN IONS (END IONS missing)";
constexpr const char* kEndWithoutBegin = "END IONS without BEGIN IONS";
constexpr const char* kOutsideBlock = "lines outside BEGIN IONS/END IONS";
constexpr const char* kTruncated = "truncated at end of file";

// A line longer than this is not MGF (or is a runaway file without newlines).
constexpr size_t kMaxLineBytes = 16u << 20;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_letter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
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

// Parses a finite double at p (an optional leading '+' is accepted); advances p.
bool parse_double(const char*& p, const char* end, double& value) {
  if (p < end && *p == '+') ++p;
  auto [next, ec] = std::from_chars(p, end, value);
  if (ec != std::errc() || !std::isfinite(value)) return false;
  p = next;
  return true;
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
// once, in file order. A charge of 0 means unknown and is left out.
bool parse_charges(std::string_view value, std::vector<int>& charges) {
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
    int sign = 0;
    if (*p == '+' || *p == '-') sign = (*p++ == '-') ? -1 : 1;
    int64_t z = 0;
    if (p == end || !is_digit(*p) || !parse_int(p, end, z) || z > 1000) return false;
    if (p < end && (*p == '+' || *p == '-')) {
      if (sign != 0) return false;
      sign = (*p++ == '-') ? -1 : 1;
    }
    if (p < end && !is_space(*p) && *p != ',') return false;
    any = true;
    int charge = static_cast<int>(z) * (sign < 0 ? -1 : 1);
    if (charge == 0) continue;
    bool seen = false;
    for (int c : charges) seen = seen || c == charge;
    if (!seen) charges.push_back(charge);
  }
  return any;
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
    if (!carry_.empty()) {
      line(carry_, carry_.size());  // last line without a newline
      carry_.clear();
    }
    if (state_ == State::kInBlock) {
      skip(kTruncated);
    } else if (state_ == State::kOrphan) {
      skip(kOutsideBlock);
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
    if (!s.empty() && s[0] != '#' && s[0] != ';' && s[0] != '!' && s[0] != '/') dispatch(s);
    offset_ += length;
  }

  void dispatch(std::string_view s) {
    switch (state_) {
      case State::kInBlock:
        if (is_digit(s[0]) || s[0] == '.' || s[0] == '+' || s[0] == '-') {
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
        } else if (is_marker(s, "END")) {
          skip(kEndWithoutBegin);
        } else if (state_ == State::kHeader && is_letter(s[0]) &&
                   s.find('=') != std::string_view::npos) {
          file_parameter(s);
        } else if (state_ == State::kHeader && !looks_like_peak(s)) {
          throw ParseError(file_name_, offset_, line_no_,
                           "neither mzML (which starts with '<') nor MGF: expected BEGIN IONS, a "
                           "KEY=value parameter or a comment, "
                           "found \"" +
                               printable(s.substr(0, 40)) + "\"");
        } else {
          state_ = State::kOrphan;  // a block whose BEGIN IONS is missing
        }
        return;
      case State::kOrphan:
        if (is_marker(s, "END")) {
          skip(kEndWithoutBegin);
          state_ = State::kBetween;
        } else if (is_marker(s, "BEGIN")) {
          skip(kOutsideBlock);
          begin_block();
        }
        return;
    }
  }

  static bool looks_like_peak(std::string_view s) {
    return is_digit(s[0]) || s[0] == '.' || s[0] == '+' || s[0] == '-';
  }

  void begin_block() {
    state_ = State::kInBlock;
    ++stats_.spectra_seen;
    current_ = RawSpectrum{};
    current_.file_index = file_index_;
    current_.mz.reserve(last_peak_count_);  // spectra of one file have similar sizes
    current_.intensity.reserve(last_peak_count_);
    bad_ = nullptr;
    has_pepmass_ = false;
    has_charge_ = false;
  }

  void end_block() {
    state_ = State::kBetween;
    if (bad_ != nullptr) return skip_counted(bad_);
    if (!has_pepmass_) return skip_counted(kMissingPepmass);
    if (current_.mz.empty()) return skip_counted(kNoPeaks);
    if (!has_charge_) current_.precursor_charges = default_charges_;
    if (current_.scan < 0) current_.scan = scan_from_title(current_.native_id);
    current_.spectrum_index = stats_.spectra_emitted++;
    last_peak_count_ = current_.mz.size();
    out_->push_back(std::move(current_));
  }

  // Counts a spectrum that was not emitted. Orphans (no BEGIN IONS) are counted as seen here.
  void skip(const char* reason) {
    if (state_ != State::kInBlock) ++stats_.spectra_seen;
    skip_counted(reason);
  }
  void set_bad(const char* reason) {
    bad_ = reason;
    bad_line_ = line_no_;
  }
  void skip_counted(const char* reason) {
    ++stats_.skipped[reason];
    // Where: the line that made the spectrum malformed, else the current (END IONS) line.
    const uint64_t line = reason == bad_ && bad_line_ > 0 ? bad_line_ : line_no_;
    stats_.first_skipped_at.emplace(reason, "line " + std::to_string(line));
  }

  void peak_line(std::string_view s) {
    const char* p = s.data();
    const char* end = p + s.size();
    double mz = 0.0;
    if (!parse_double(p, end, mz) || mz <= 0.0) {
      if (bad_ == nullptr) set_bad(kBadPeakLine);
      return;
    }
    double intensity = 1.0;  // a peak line without an intensity counts as intensity 1
    if (p < end) {
      if (!is_space(*p)) {
        if (bad_ == nullptr) set_bad(kBadPeakLine);
        return;
      }
      p = skip_blanks(p, end);
      if (p < end) {
        if (!parse_double(p, end, intensity) || (p < end && !is_space(*p)) ||
            !std::isfinite(static_cast<float>(intensity))) {
          if (bad_ == nullptr) set_bad(kBadPeakLine);
          return;
        }
        // A third column (fragment charge, annotation) is ignored.
      }
    }
    current_.mz.push_back(mz);
    current_.intensity.push_back(static_cast<float>(intensity));
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
      if (!parse_charges(value, current_.precursor_charges)) {
        if (bad_ == nullptr) set_bad(kBadCharge);
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
      if (!parse_charges(value, default_charges_)) {
        throw ParseError(
            file_name_, offset_, line_no_,
            "file-level CHARGE: expected e.g. 2+ or 2+ and 3+, found \"" + printable(value) + "\"");
      }
    }
    // Other file-level parameters (MASS, ITOL, SEARCH, ...) are search settings, not ours.
  }

  std::string file_name_;
  uint32_t file_index_;
  std::vector<RawSpectrum>* out_ = nullptr;
  ReadStats stats_;

  std::string carry_;     // the start of a line that straddles blocks (never holds a '\n')
  uint64_t offset_ = 0;   // byte offset of the current line's first byte
  uint64_t line_no_ = 0;  // 1-based number of the current line

  State state_ = State::kHeader;
  std::vector<int> default_charges_;  // file-level CHARGE
  RawSpectrum current_;
  const char* bad_ = nullptr;  // first reason the current spectrum is malformed
  uint64_t bad_line_ = 0;      // the line that set bad_
  bool has_pepmass_ = false;
  bool has_charge_ = false;
  size_t last_peak_count_ = 0;
};

}  // namespace

std::unique_ptr<SpectrumReader> make_mgf_reader(std::string file_name, uint32_t file_index) {
  return std::make_unique<MgfReader>(std::move(file_name), file_index);
}

}  // namespace ionflow
