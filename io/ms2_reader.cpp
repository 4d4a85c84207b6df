// MS2 text reader: a line state machine over byte blocks; see ms2_reader.hpp for the rules.
#include "io/ms2_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "io/byte_text.hpp"
#include "io/number_text.hpp"
#include "io/parse_error.hpp"
#include "io/peak_checks.hpp"
#include "io/profile_spectrum.hpp"

namespace ionflow {
namespace {

constexpr size_t kMaxLineBytes = 16u << 20;
constexpr double kProtonMass = 1.007276466621;  // Da, CODATA 2018

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

// Splits `line` into blank-separated fields (at most `max` are kept).
size_t split_fields(std::string_view line, std::string_view* fields, size_t max) {
  size_t n = 0;
  size_t i = 0;
  while (i < line.size() && n < max) {
    while (i < line.size() && is_blank(line[i])) ++i;
    if (i == line.size()) break;
    size_t j = i;
    while (j < line.size() && !is_blank(line[j])) ++j;
    fields[n++] = line.substr(i, j - i);
    i = j;
  }
  return n;
}

// Whether `text` (blanks trimmed, not empty) reads as an MS2 line: a record tag H, S, Z, I or D
// and a blank, or a peak line (for refuse_cr_line_ends, as in MGF).
bool reads_as_ms2_line(std::string_view text) {
  const char tag = text[0];
  if (text.size() >= 2 && (tag == 'H' || tag == 'S' || tag == 'Z' || tag == 'I' || tag == 'D') &&
      (text[1] == '\t' || text[1] == ' ')) {
    return true;
  }
  return (tag >= '0' && tag <= '9') || tag == '.';
}

// A whole field as a number (a leading '+' allowed); non-finite values are parsed too.
bool parse_number(std::string_view text, double& out) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

// As parse_number, for a peak's m/z or intensity: values beyond the double range saturate
// (from_chars_saturating: "1e400" is infinite, so its peak is dropped like "inf").
bool parse_peak_number(std::string_view text, double& out) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const auto [end, ec] = from_chars_saturating(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

bool parse_count(std::string_view text, int64_t& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && out >= 0;
}

class Ms2Reader final : public SpectrumReader {
 public:
  Ms2Reader(std::string file_name, uint32_t file_index)
      : file_name_(std::move(file_name)), file_index_(file_index) {}

  void feed(std::string_view block, std::vector<RawSpectrum>& out) override {
    out_ = &out;
    cr_seen_ = cr_seen_ || std::memchr(block.data(), '\r', block.size()) != nullptr;
    while (!block.empty()) {
      const size_t nl = block.find('\n');
      if (nl == std::string_view::npos) {
        if (carry_.size() + block.size() > kMaxLineBytes) {
          // CR-only line ends longer than a line may be (from the start, or after LF ones).
          refuse_cr_line_ends(file_name_, offset_, line_no_ + 1, carry_, reads_as_ms2_line);
          refuse_cr_line_ends(file_name_, offset_, line_no_ + 1, block, reads_as_ms2_line);
          throw ParseError(file_name_, offset_, line_no_ + 1,
                           "line longer than " + std::to_string(kMaxLineBytes) + " bytes");
        }
        carry_.append(block);
        return;
      }
      if (carry_.empty()) {
        line(block.substr(0, nl), nl + 1);
      } else {
        carry_.append(block.substr(0, nl));
        line(carry_, carry_.size() + 1);
        carry_.clear();
      }
      block.remove_prefix(nl + 1);
    }
  }

  // MS2 has no end marker: a file whose last line has no line end was most likely cut inside
  // it (a peak "812.4 15" of "812.4 1520"), so its last spectrum is skipped as truncated, with
  // the readers' "file ends early" warning, as a cut MGF block is. Writers end every line.
  void finish(std::vector<RawSpectrum>& out) override {
    out_ = &out;
    // Blanks after the last LF (the CR of LF CR line ends) are no cut line.
    const bool cut = std::any_of(carry_.begin(), carry_.end(), [](char c) { return !is_blank(c); });
    if (cut) line(carry_, carry_.size());
    carry_.clear();
    if (open_ && cut) {
      set_bad(kSkipTruncated);
      note_problem(stats_, kFileEndsEarly, 1, "line " + std::to_string(line_no_));
    }
    if (open_) end_spectrum();
  }

  const ReadStats& stats() const override { return stats_; }

 private:
  void line(std::string_view raw, size_t length) {
    ++line_no_;
    if (line_no_ == 1 && raw.substr(0, 3) == "\xEF\xBB\xBF") raw.remove_prefix(3);
    // Any line holding a CR: CR-only line ends, from the start or after LF ones (as in MGF).
    if (cr_seen_ && std::memchr(raw.data(), '\r', raw.size()) != nullptr) {
      refuse_cr_line_ends(file_name_, offset_, line_no_, raw, reads_as_ms2_line);
    }
    while (!raw.empty() && is_blank(raw.back())) raw.remove_suffix(1);
    size_t b = 0;
    while (b < raw.size() && is_blank(raw[b])) ++b;
    raw.remove_prefix(b);
    if (!raw.empty()) dispatch(raw);
    offset_ += length;
  }

  void dispatch(std::string_view s) {
    const char tag = s[0];
    const bool record = s.size() == 1 || is_blank(s[1]);
    if (record && tag == 'S') return start_spectrum(s);
    if (!open_) {
      if (record && tag == 'H') return;
      throw ParseError(file_name_, offset_, line_no_,
                       "not MS2: expected an H or S line before the first spectrum, found \"" +
                           printable_text(s.substr(0, 40)) + "\"");
    }
    if (record && tag == 'I') return info_line(s);
    if (record && tag == 'Z') return charge_line(s);
    if (record && (tag == 'D' || tag == 'H')) return;
    peak_line(s);
  }

  void set_bad(const char* reason) {
    if (bad_ == nullptr) {
      bad_ = reason;
      bad_line_ = line_no_;
    }
  }

  void start_spectrum(std::string_view s) {
    if (open_) end_spectrum();
    open_ = true;
    current_ = RawSpectrum{};
    current_.file_index = file_index_;
    bad_ = nullptr;
    start_line_ = line_no_;
    current_.source_line = line_no_;
    first_invalid_ = FirstInvalidPeakLines{};
    first_mh_ = 0.0;
    std::string_view f[4];
    const size_t n = split_fields(s, f, 4);
    int64_t low = -1, high = -1;
    if (n < 3 || !parse_count(f[1], low) || !parse_count(f[2], high)) return set_bad("bad S line");
    current_.scan = low;
    current_.native_id = "scan=" + std::to_string(low);
    if (n == 4) {
      double mz = 0.0;
      if (!parse_number(f[3], mz) || !std::isfinite(mz)) return set_bad("bad S line");
      current_.precursor_mz = mz;
    }
  }

  void info_line(std::string_view s) {
    std::string_view f[3];
    const size_t n = split_fields(s, f, 3);
    if (n < 3) return;
    if (f[1] == "RTime" || f[1] == "RetTime") {
      double minutes = 0.0;
      if (!parse_number(f[2], minutes) || !std::isfinite(minutes) || minutes < 0.0) {
        return set_bad("bad I line");
      }
      current_.rt_seconds = minutes * 60.0;
    } else if (f[1] == "ActivationType") {
      current_.activation = std::string(f[2]);
    }
  }

  void charge_line(std::string_view s) {
    std::string_view f[3];
    if (split_fields(s, f, 3) < 2) return set_bad("bad Z line");
    int z = 0;
    const ChargeText kind = classify_precursor_charge(f[1], z);
    if (const char* reason = charge_skip_reason(kind); reason != nullptr) return set_bad(reason);
    if (kind != ChargeText::kCharge) return;
    auto& charges = current_.precursor_charges;
    if (std::find(charges.begin(), charges.end(), z) == charges.end()) charges.push_back(z);
    double mh = 0.0;
    if (charges.size() == 1 && !f[2].empty() && parse_number(f[2], mh) && mh > 0.0) {
      first_mh_ = mh;
    }
  }

  void peak_line(std::string_view s) {
    std::string_view f[3];
    const size_t n = split_fields(s, f, 3);
    double mz = 0.0;
    double intensity = 1.0;
    if (!parse_peak_number(f[0], mz) || (n >= 2 && !parse_peak_number(f[1], intensity))) {
      return set_bad("bad peak line");
    }
    if (n == 1) note_problem(stats_, kPeakWithoutIntensity, 1, "line " + std::to_string(line_no_));
    const float stored = static_cast<float>(intensity);
    first_invalid_.note(mz, stored, line_no_);  // dropped at the end, named at their line
    current_.mz.push_back(mz);
    current_.intensity.push_back(stored);
  }

  std::string line_of(uint64_t line) const {
    return "line " + std::to_string(line > 0 ? line : start_line_);
  }

  void end_spectrum() {
    open_ = false;
    ++stats_.spectra_seen;
    const std::string where = "line " + std::to_string(start_line_);
    const char* reason = bad_;
    if (reason == nullptr && !(current_.precursor_mz > 0.0) && first_mh_ > 0.0) {
      const int z = current_.precursor_charges.front();
      current_.precursor_mz = (first_mh_ + (z - 1) * kProtonMass) / z;
    }
    if (reason == nullptr && !(current_.precursor_mz > 0.0)) reason = "no precursor m/z";
    if (reason == nullptr) {
      check_peaks(current_, stats_, line_of(first_invalid_.bad_mz),
                  line_of(first_invalid_.bad_intensity),
                  line_of(first_invalid_.negative_intensity));
      if (current_.mz.empty()) reason = kSkipNoPeaks;
    }
    if (reason != nullptr) {
      ++stats_.skipped[reason];
      stats_.first_skipped_at.emplace(
          reason, "line " + std::to_string(reason == bad_ ? bad_line_ : start_line_));
      return;
    }
    settle_peak_mode(current_, PeakMode::kUnknown, stats_, where);
    current_.spectrum_index = stats_.spectra_emitted++;
    out_->push_back(std::move(current_));
  }

  std::string file_name_;
  uint32_t file_index_;
  std::vector<RawSpectrum>* out_ = nullptr;
  ReadStats stats_;
  std::string carry_;
  uint64_t offset_ = 0;
  uint64_t line_no_ = 0;
  bool cr_seen_ = false;  // a CR was in a block fed: lines are checked (refuse_cr_line_ends)

  bool open_ = false;
  RawSpectrum current_;
  const char* bad_ = nullptr;
  uint64_t bad_line_ = 0;
  uint64_t start_line_ = 0;
  FirstInvalidPeakLines first_invalid_;  // of the current spectrum's peaks
  double first_mh_ = 0.0;                // M+H of the first Z line
};

}  // namespace

std::unique_ptr<SpectrumReader> make_ms2_reader(std::string file_name, uint32_t file_index) {
  return std::make_unique<Ms2Reader>(std::move(file_name), file_index);
}

}  // namespace ionflow
