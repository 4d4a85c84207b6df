// Streaming mzXML reader on expat: a stack of open <scan> elements, each finished (emitted or
// skipped) when its first child scan starts or its end tag comes, so spectra leave in the file
// order of their start tags. <peaks> text is base64-decoded as it arrives. See mzxml_reader.hpp.
#include "io/mzxml_reader.hpp"

#include <expat.h>
#include <zlib.h>

#include <climits>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <exception>
#include <vector>

#include "io/base64.hpp"
#include "io/number_text.hpp"
#include "io/peak_checks.hpp"
#include "io/profile_spectrum.hpp"
#include "io/xml_root_end.hpp"

namespace ionflow {
namespace {

constexpr int kMaxElementDepth = 64;

std::string_view local_name(std::string_view name) {
  const size_t colon = name.rfind(':');
  return colon != std::string_view::npos ? name.substr(colon + 1) : name;
}

bool parse_double(std::string_view text, double& out) {
  return parse_whole_double(text, out);
}
bool parse_int(std::string_view text, int64_t& out) {
  return parse_whole_int(text, out);
}

enum class Inflated { kOk, kCorrupt, kTooLarge };

// Inflates a whole RFC 1950 stream into `out` (replaced); `size_hint` is the expected size, and
// no more than `max_size` bytes are made (kTooLarge when the stream holds more).
Inflated inflate_all(std::string_view in, size_t size_hint, size_t max_size, std::string& out) {
  if (in.size() > UINT_MAX) return Inflated::kCorrupt;
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return Inflated::kCorrupt;
  out.resize(std::max<size_t>(std::min(size_hint, max_size), 64));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  size_t used = 0;
  int rc = Z_OK;
  while (rc == Z_OK) {
    if (used == out.size()) {
      if (out.size() >= max_size) break;
      out.resize(std::min(max_size, out.size() * 2));
    }
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + used);
    zs.avail_out = static_cast<uInt>(std::min<size_t>(out.size() - used, UINT_MAX));
    const uInt before = zs.avail_out;
    rc = inflate(&zs, Z_NO_FLUSH);
    used += before - zs.avail_out;
    if (rc == Z_BUF_ERROR && zs.avail_in > 0) rc = Z_OK;  // only output room was missing
  }
  inflateEnd(&zs);
  out.resize(used);
  if (rc == Z_OK) return Inflated::kTooLarge;  // stopped at max_size with the stream unfinished
  return rc == Z_STREAM_END && zs.avail_in == 0 ? Inflated::kOk : Inflated::kCorrupt;
}

template <typename Word>
Word load_big_endian(const char* p) {
  Word w = 0;
  for (size_t i = 0; i < sizeof(Word); ++i) {
    w = static_cast<Word>((w << 8) | static_cast<unsigned char>(p[i]));
  }
  return w;
}

// Splits big-endian m/z-intensity pairs into the two arrays; nullptr or a skip reason.
const char* decode_pairs(std::string_view bytes, int precision_bits, int64_t peaks_count,
                         std::vector<double>& mz, std::vector<float>& intensity) {
  const size_t width = precision_bits == 64 ? 8 : 4;
  if (bytes.size() % (2 * width) != 0) return "peaks length mismatch";
  const size_t n = bytes.size() / (2 * width);
  if (peaks_count >= 0 && static_cast<uint64_t>(peaks_count) != n) return "peaks length mismatch";
  if (n > kMaxPeaksPerSpectrum) return kSkipTooManyPeaks;
  mz.resize(n);
  intensity.resize(n);
  const char* p = bytes.data();
  for (size_t i = 0; i < n; ++i, p += 2 * width) {
    if (width == 8) {
      double m = 0.0, in = 0.0;
      const uint64_t a = load_big_endian<uint64_t>(p);
      const uint64_t b = load_big_endian<uint64_t>(p + 8);
      std::memcpy(&m, &a, 8);
      std::memcpy(&in, &b, 8);
      mz[i] = m;
      intensity[i] = static_cast<float>(in);
    } else {
      float m = 0.0f, in = 0.0f;
      const uint32_t a = load_big_endian<uint32_t>(p);
      const uint32_t b = load_big_endian<uint32_t>(p + 4);
      std::memcpy(&m, &a, 4);
      std::memcpy(&in, &b, 4);
      mz[i] = m;
      intensity[i] = in;
    }
  }
  return nullptr;
}

// mzXML activationMethod values (schema 3.x enumeration, plus HCD as Thermo converters write).
std::string activation_from_mzxml(std::string_view method) {
  if (method == "CID" || method == "HCD" || method == "ETD" || method == "ECD" ||
      method == "ETD+SA" || method == "EThcD") {
    return method == "ETD+SA" ? "ETD" : std::string(method);
  }
  return {};
}

struct Scan {
  RawSpectrum spectrum;
  int ms_level = 0;               // 0 while unknown
  bool ms_level_invalid = false;  // msLevel given but no MS level (kSkipInvalidMsLevel)
  int64_t peaks_count = -1;
  PeakMode mode = PeakMode::kUnknown;
  bool has_precursor = false;
  bool has_peaks = false;
  bool finished = false;    // emitted or skipped already (a child scan started)
  std::string failure;      // first skip reason
  uint64_t start_line = 0;  // where its start tag is, for messages
};

class MzxmlReader final : public SpectrumReader {
 public:
  MzxmlReader(std::string file_name, uint32_t file_index)
      : file_name_(std::move(file_name)), file_index_(file_index) {
    parser_ = XML_ParserCreate(nullptr);
    if (parser_ == nullptr) throw std::bad_alloc();
    XML_SetUserData(parser_, this);
    XML_SetElementHandler(parser_, &MzxmlReader::on_start, &MzxmlReader::on_end);
    XML_SetCharacterDataHandler(parser_, &MzxmlReader::on_text);
  }
  ~MzxmlReader() override { XML_ParserFree(parser_); }
  MzxmlReader(const MzxmlReader&) = delete;
  MzxmlReader& operator=(const MzxmlReader&) = delete;

  void feed(std::string_view block, std::vector<RawSpectrum>& out) override {
    check_not_failed();
    fed_bytes_ += block.size();
    out_ = &out;
    // expat takes an int length: feed huge blocks in pieces.
    constexpr size_t kPiece = 1u << 28;
    for (size_t at = 0; at < block.size(); at += kPiece) {
      const std::string_view piece = block.substr(at, kPiece);
      parse(piece.data(), static_cast<int>(piece.size()), false);
    }
    out_ = nullptr;
  }

  void finish(std::vector<RawSpectrum>& out) override {
    check_not_failed();
    out_ = &out;
    parse(nullptr, 0, true);
    out_ = nullptr;
  }

  const ReadStats& stats() const override { return stats_; }

 private:
  static void XMLCALL on_start(void* self, const XML_Char* name, const XML_Char** atts) {
    auto* r = static_cast<MzxmlReader*>(self);
    if (++r->depth_ > kMaxElementDepth) {
      r->fatal("elements nested more than " + std::to_string(kMaxElementDepth) +
               " deep: not mzXML");
      return;
    }
    r->guarded([&] { r->start_element(local_name(name), atts); });
  }
  static void XMLCALL on_end(void* self, const XML_Char* name) {
    auto* r = static_cast<MzxmlReader*>(self);
    if (--r->depth_ == 0) r->root_ended();
    r->guarded([&] { r->end_element(local_name(name)); });
  }
  // Where the root element ends (its end tag's '<'): a problem after it is noted there.
  void root_ended() {
    const XML_Index byte = XML_GetCurrentByteIndex(parser_);
    root_end_ = {true, byte < 0 ? 0 : static_cast<uint64_t>(byte),
                 static_cast<uint64_t>(XML_GetCurrentLineNumber(parser_))};
  }
  static void XMLCALL on_text(void* self, const XML_Char* s, int len) {
    auto* r = static_cast<MzxmlReader*>(self);
    const std::string_view text(s, static_cast<size_t>(len));
    if (r->in_peaks_) {
      r->base64_ok_ = r->base64_.feed(text, r->bytes_) && r->base64_ok_;
    } else if (r->in_precursor_) {
      if (r->text_.size() < 256) r->text_.append(text);
    }
  }

  template <typename F>
  void guarded(F&& f) {
    try {
      f();
    } catch (...) {
      if (!pending_exception_) pending_exception_ = std::current_exception();
      XML_StopParser(parser_, XML_FALSE);
    }
  }

  void fatal(std::string message) {
    fatal_message_ = std::move(message);
    XML_StopParser(parser_, XML_FALSE);
  }

  void parse(const char* data, int len, bool is_final) {
    if (after_root_ignored_) return;
    if (XML_Parse(parser_, data, len, is_final ? XML_TRUE : XML_FALSE) == XML_STATUS_OK) return;
    if (pending_exception_) {
      failed_ = "internal error while reading mzXML";
      std::rethrow_exception(pending_exception_);
    }
    const XML_Index byte = XML_GetCurrentByteIndex(parser_);
    const uint64_t offset = byte < 0 ? 0 : static_cast<uint64_t>(byte);
    const uint64_t line = XML_GetCurrentLineNumber(parser_);
    if (fatal_message_.empty() && root_end_.closed) {  // expat's verdict there depends on cuts
      after_root_ignored_ = true;
      note_problem(stats_, kBytesAfterRootIgnored, 1, root_end_where(root_end_, root_name_));
      return;
    }
    if (is_final && fatal_message_.empty() && seen_root_) {
      truncated();  // every byte was well-formed: the file ends early
      return;
    }
    std::string what = !fatal_message_.empty() ? fatal_message_
                                               : std::string("XML not well-formed: ") +
                                                     XML_ErrorString(XML_GetErrorCode(parser_));
    if (fatal_message_.empty() && !scans_.empty()) {
      what += "; the open <scan num=\"" + std::to_string(scans_.back().spectrum.scan) +
              "\"> starts at line " + std::to_string(scans_.back().start_line);
    }
    throw_error(offset, line, what);
  }

  // Throws the ParseError and keeps it: the reader then throws it again on every call.
  [[noreturn]] void throw_error(uint64_t offset, uint64_t line, const std::string& what) {
    ParseError error(file_name_, offset, line, what);
    failed_ = error.what();
    failed_offset_ = offset;
    failed_line_ = line;
    failed_what_ = what;
    throw error;
  }

  void check_not_failed() const {
    if (!failed_what_.empty())
      throw ParseError(file_name_, failed_offset_, failed_line_, failed_what_);
    if (!failed_.empty()) throw std::runtime_error(failed_);
  }

  // The file ended inside the document: open scans that were not finished are cut. Outside a
  // scan the problem is where the file ends and the element it ends in: "byte 78, the end of
  // the file, inside <msRun>".
  void truncated() {
    std::string where;
    if (!scans_.empty()) {
      where = "line " + std::to_string(scans_.back().start_line);
    } else {
      where = file_end_where(fed_bytes_,
                             depth_ >= 1 ? open_names_[std::min(depth_, kNamedDepth) - 1] : "");
    }
    for (Scan& scan : scans_) {
      if (scan.finished) continue;
      ++stats_.spectra_seen;
      ++stats_.skipped[kSkipTruncated];
      stats_.first_skipped_at.emplace(kSkipTruncated, "line " + std::to_string(scan.start_line));
    }
    scans_.clear();
    note_problem(stats_, kFileEndsEarly, 1, where);
  }

  static const char* attribute(const XML_Char** atts, std::string_view name) {
    for (; atts[0] != nullptr; atts += 2) {
      if (name == atts[0]) return atts[1];
    }
    return nullptr;
  }

  void start_element(std::string_view name, const XML_Char** atts) {
    if (depth_ <= kNamedDepth && scans_.empty()) open_names_[depth_ - 1].assign(name);
    if (!seen_root_) {
      seen_root_ = true;
      root_name_ = name;
      if (name != "mzXML" && name != "msRun") {
        fatal("root element <" + std::string(name) + "> is not <mzXML> or <msRun>");
      }
      if (name == "mzXML") return;
    }
    if (name == "msRun") {
      in_run_ = true;
    } else if (name == "scan") {
      scan_began_.push_back(in_run_);
      if (in_run_) start_scan(atts);
    } else if (name == "precursorMz") {
      if (!scans_.empty() && !scans_.back().has_precursor) {
        start_precursor(atts);
      }
    } else if (name == "peaks") {
      if (!scans_.empty() && !scans_.back().has_peaks) start_peaks(atts);
    }
  }

  void end_element(std::string_view name) {
    if (name == "msRun") {
      in_run_ = false;
    } else if (name == "scan") {
      // Only the end of a <scan> that began one ends one: "<msRun/>" inside a scan ends the
      // run, and a <scan> after it, not read, must not pop the scan whose <peaks> is open
      // (mzxml_reader_fuzzer: end_peaks() on no scan).
      const bool began = !scan_began_.empty() && scan_began_.back();
      if (!scan_began_.empty()) scan_began_.pop_back();
      if (began && !scans_.empty()) {
        finish_scan(scans_.back());
        scans_.pop_back();
      }
    } else if (name == "precursorMz") {
      if (in_precursor_) end_precursor();
    } else if (name == "peaks") {
      if (in_peaks_) end_peaks();
    }
  }

  void start_scan(const XML_Char** atts) {
    if (!scans_.empty()) finish_scan(scans_.back());  // the parent's own data is complete
    scans_.emplace_back();
    Scan& scan = scans_.back();
    scan.start_line = XML_GetCurrentLineNumber(parser_);
    scan.spectrum.source_line = scan.start_line;
    scan.spectrum.file_index = file_index_;
    int64_t num = -1;
    if (const char* v = attribute(atts, "num"); v != nullptr && parse_int(v, num) && num >= 0) {
      scan.spectrum.scan = num;
      scan.spectrum.native_id = "scan=" + std::to_string(num);
    }
    if (const char* v = attribute(atts, "msLevel"); v != nullptr) {
      scan.ms_level_invalid = !parse_ms_level(v, scan.ms_level);
    }
    if (const char* v = attribute(atts, "peaksCount"); v != nullptr) {
      int64_t n = -1;
      if (parse_int(v, n) && n >= 0) scan.peaks_count = n;
    }
    if (const char* v = attribute(atts, "retentionTime"); v != nullptr) {
      double rt = 0.0;
      if (parse_xs_duration_seconds(v, rt) && rt >= 0.0) {
        scan.spectrum.rt_seconds = rt;
      } else {
        fail(scan, "bad retentionTime");
      }
    }
    if (const char* v = attribute(atts, "centroided"); v != nullptr) {
      if (std::strcmp(v, "0") == 0) scan.mode = PeakMode::kProfile;
      if (std::strcmp(v, "1") == 0) scan.mode = PeakMode::kCentroid;
    }
  }

  static void fail(Scan& scan, std::string reason) {
    if (scan.failure.empty()) scan.failure = std::move(reason);
  }

  // A scan's decodable data is complete; MS1 and other levels are not decoded.
  bool wanted(const Scan& scan) const { return scan.ms_level == 0 || scan.ms_level == 2; }

  void start_precursor(const XML_Char** atts) {
    Scan& scan = scans_.back();
    scan.has_precursor = true;
    in_precursor_ = true;
    text_.clear();
    std::vector<int>& charges = scan.spectrum.precursor_charges;
    auto add_charge = [&](std::string_view text) {
      int z = 0;
      const ChargeText kind = classify_precursor_charge(text, z);
      if (const char* reason = charge_skip_reason(kind); reason != nullptr) fail(scan, reason);
      if (kind == ChargeText::kCharge &&
          std::find(charges.begin(), charges.end(), z) == charges.end()) {
        charges.push_back(z);
      }
    };
    if (const char* v = attribute(atts, "precursorCharge"); v != nullptr) add_charge(v);
    if (const char* v = attribute(atts, "possibleCharges"); v != nullptr && charges.empty()) {
      std::string_view list = v;
      while (!list.empty()) {
        const size_t comma = list.find(',');
        add_charge(list.substr(0, comma));
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
      }
    }
    if (const char* v = attribute(atts, "precursorIntensity"); v != nullptr) {
      parse_double(v, scan.spectrum.precursor_intensity);
    }
    if (const char* v = attribute(atts, "activationMethod"); v != nullptr) {
      scan.spectrum.activation = activation_from_mzxml(v);
    }
  }

  void end_precursor() {
    in_precursor_ = false;
    double mz = 0.0;
    if (parse_precursor_mz(text_, mz)) {
      scans_.back().spectrum.precursor_mz = mz;
    } else {
      fail(scans_.back(), kSkipInvalidPrecursorMz);
    }
  }

  void start_peaks(const XML_Char** atts) {
    Scan& scan = scans_.back();
    const char* content = attribute(atts, "contentType");
    if (content == nullptr) content = attribute(atts, "pairOrder");
    if (content != nullptr && std::strcmp(content, "m/z-int") != 0) return;  // another array
    scan.has_peaks = true;
    if (!wanted(scan) || !scan.failure.empty()) return;
    precision_bits_ = 32;
    if (const char* v = attribute(atts, "precision"); v != nullptr) {
      if (std::strcmp(v, "64") == 0) {
        precision_bits_ = 64;
      } else if (std::strcmp(v, "32") != 0) {
        return fail(scan, "unsupported peaks precision");
      }
    }
    if (const char* v = attribute(atts, "byteOrder"); v != nullptr && std::strcmp(v, "network")) {
      return fail(scan, "unsupported byteOrder");
    }
    zlib_ = false;
    if (const char* v = attribute(atts, "compressionType"); v != nullptr) {
      if (std::strcmp(v, "zlib") == 0) {
        zlib_ = true;
      } else if (std::strcmp(v, "none") != 0) {
        return fail(scan, "unsupported compressionType");
      }
    }
    in_peaks_ = true;
    bytes_.clear();
    base64_.reset();
    base64_ok_ = true;
  }

  void end_peaks() {
    in_peaks_ = false;
    Scan& scan = scans_.back();
    // An empty <peaks/> (peaksCount 0) is a scan without peaks, not bad base64.
    if (!base64_ok_ || !base64_.finish(bytes_)) return fail(scan, "bad base64");
    if (scan.peaks_count > static_cast<int64_t>(kMaxPeaksPerSpectrum)) {
      return fail(scan, kSkipTooManyPeaks);
    }
    std::string_view data = bytes_;
    if (zlib_ && !bytes_.empty()) {
      // A stream may not inflate past its peaksCount (or kMaxPeaksPerSpectrum without one): one
      // byte more than the pairs it declares tells a longer stream apart.
      const size_t pair_bytes = static_cast<size_t>(precision_bits_) / 4;
      const uint64_t declared =
          scan.peaks_count >= 0 ? static_cast<uint64_t>(scan.peaks_count) : kMaxPeaksPerSpectrum;
      const size_t max_size = static_cast<size_t>(declared) * pair_bytes + 1;
      const size_t hint = scan.peaks_count > 0 ? max_size : 0;
      switch (inflate_all(bytes_, hint, max_size, inflated_)) {
        case Inflated::kOk:
          break;
        case Inflated::kCorrupt:
          return fail(scan, "bad zlib data");
        case Inflated::kTooLarge:
          return fail(scan, scan.peaks_count >= 0 ? "peaks length mismatch" : kSkipTooManyPeaks);
      }
      data = inflated_;
    }
    const char* error = decode_pairs(data, precision_bits_, scan.peaks_count, scan.spectrum.mz,
                                     scan.spectrum.intensity);
    if (error != nullptr) fail(scan, error);
  }

  void finish_scan(Scan& scan) {
    if (scan.finished) return;
    scan.finished = true;
    ++stats_.spectra_seen;
    const std::string where = "line " + std::to_string(scan.start_line);
    std::string reason = scan.failure;
    const int level = scan.ms_level != 0 ? scan.ms_level : (scan.has_precursor ? 2 : 0);
    if (scan.ms_level_invalid) {
      reason = kSkipInvalidMsLevel;
    } else if (level != 2) {
      reason = level == 0 ? "no MS level" : "MS level " + std::to_string(level);
    } else if (reason.empty() && !(scan.spectrum.precursor_mz > 0.0)) {
      reason = "no precursor m/z";
    }
    if (reason.empty()) {
      check_peaks(scan.spectrum, stats_, where);
      if (scan.spectrum.mz.empty()) reason = kSkipNoPeaks;
    }
    if (!reason.empty()) {
      ++stats_.skipped[reason];
      stats_.first_skipped_at.emplace(reason, where);
      return;
    }
    settle_peak_mode(scan.spectrum, scan.mode, stats_, where);
    scan.spectrum.spectrum_index = stats_.spectra_emitted++;
    out_->push_back(std::move(scan.spectrum));
  }

  std::string file_name_;
  uint32_t file_index_;
  XML_Parser parser_ = nullptr;
  std::vector<RawSpectrum>* out_ = nullptr;
  ReadStats stats_;

  std::exception_ptr pending_exception_;
  std::string fatal_message_;
  std::string failed_;       // an internal error's message
  std::string failed_what_;  // a ParseError's parts
  uint64_t failed_offset_ = 0;
  uint64_t failed_line_ = 0;

  int depth_ = 0;
  bool seen_root_ = false;
  std::string root_name_;  // local name: "mzXML" or "msRun"
  // The local names of the open elements at depths 1 to kNamedDepth (mzXML, msRun, a top-level
  // scan), to name the element a file that ends outside a scan ends in (the innermost of these
  // open); not kept inside a scan, whose line names a cut there.
  static constexpr int kNamedDepth = 3;
  std::array<std::string, kNamedDepth> open_names_;
  uint64_t fed_bytes_ = 0;  // the file's bytes fed so far
  XmlRootEnd root_end_;
  bool after_root_ignored_ = false;  // bytes after the root were not XML: the rest is ignored
  bool in_run_ = false;
  std::vector<Scan> scans_;       // open scans, outermost first
  std::vector<bool> scan_began_;  // per open <scan> element: whether it began a Scan (in a run)

  bool in_precursor_ = false;
  std::string text_;  // precursorMz text
  bool in_peaks_ = false;
  int precision_bits_ = 32;
  bool zlib_ = false;
  Base64Decoder base64_;
  bool base64_ok_ = true;
  std::string bytes_;
  std::string inflated_;
};

}  // namespace

bool parse_xs_duration_seconds(std::string_view text, double& seconds) {
  text = trim_blanks(text);
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  if (text.empty() || text.front() != 'P') return false;
  text.remove_prefix(1);
  double total = 0.0;
  bool in_time = false;
  bool any = false;
  while (!text.empty()) {
    if (text.front() == 'T') {
      if (in_time) return false;
      in_time = true;
      text.remove_prefix(1);
      if (text.empty()) return false;  // "PT" alone
      continue;
    }
    double value = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end == text.data() + text.size() || !(value >= 0.0)) return false;
    const char unit = *end;
    text.remove_prefix(static_cast<size_t>(end - text.data()) + 1);
    if (!in_time && unit == 'D') {
      total += value * 86400.0;
    } else if (in_time && unit == 'H') {
      total += value * 3600.0;
    } else if (in_time && unit == 'M') {
      total += value * 60.0;
    } else if (in_time && unit == 'S') {
      total += value;
    } else {
      return false;  // Y and month M have no fixed length; anything else is not a duration
    }
    any = true;
  }
  if (!any || !std::isfinite(total)) return false;
  seconds = negative ? -total : total;
  return true;
}

std::unique_ptr<SpectrumReader> make_mzxml_reader(std::string file_name, uint32_t file_index) {
  return std::make_unique<MzxmlReader>(std::move(file_name), file_index);
}

}  // namespace ionflow
