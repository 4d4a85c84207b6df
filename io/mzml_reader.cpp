// Streaming mzML reader: expat callbacks route each cvParam by its context (spectrum, first
// precursor's isolation window / first selected ion / activation, binaryDataArray) into an
// MzmlSpectrumBuilder, and decode <binary> text as it arrives (Base64Decoder), then the array
// bytes (BinaryArrayDecoder) when the element ends. referenceableParamGroup contents are stored
// when met at the top of the file and replayed where a referenceableParamGroupRef appears.
// Chromatograms, the indexList and fileChecksum are ignored. The bytes reach expat through an
// Ms1SpectrumFilter, which drops MS1 spectra unread (mzml_ms1_filter.hpp) and offers every other
// spectrum whole: one in the plain XML subset of xml_element_scan.hpp is tokenized here and its
// events go to the same handlers expat's callbacks call (perf/bench_mzml: the whole BSA1 read
// 3x faster); any other passes to expat, which also reads everything outside spectra.
#include "io/mzml_reader.hpp"

#include <expat.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <exception>
#include <unordered_map>
#include <vector>

#include "io/base64.hpp"
#include "io/binary_array.hpp"
#include "io/mzml_ms1_filter.hpp"
#include "io/mzml_spectrum_builder.hpp"
#include "io/peak_checks.hpp"
#include "io/profile_spectrum.hpp"
#include "io/xml_element_scan.hpp"
#include "io/xml_root_end.hpp"

namespace ionflow {
namespace {

constexpr int kMzArray = 1000514;         // MS:1000514 m/z array
constexpr int kIntensityArray = 1000515;  // MS:1000515 intensity array

enum class Element {
  kOther,
  kCvParam,
  kParamGroupRef,
  kParamGroup,
  kSpectrum,
  kSpectrumList,
  kChromatogram,
  kPrecursor,
  kIsolationWindow,
  kSelectedIon,
  kActivation,
  kBinaryDataArray,
  kBinary,
};

std::string_view local_name(std::string_view name) {
  const size_t colon = name.rfind(':');
  return colon != std::string_view::npos ? name.substr(colon + 1) : name;
}

Element classify(std::string_view qualified_name) {
  const std::string_view n = local_name(qualified_name);
  if (n.empty()) return Element::kOther;
  switch (n[0]) {
    case 'c':
      if (n == "cvParam") return Element::kCvParam;
      if (n == "chromatogram") return Element::kChromatogram;
      break;
    case 'r':
      if (n == "referenceableParamGroupRef") return Element::kParamGroupRef;
      if (n == "referenceableParamGroup") return Element::kParamGroup;
      break;
    case 's':
      if (n == "spectrum") return Element::kSpectrum;
      if (n == "spectrumList") return Element::kSpectrumList;
      if (n == "selectedIon") return Element::kSelectedIon;
      break;
    case 'p':
      if (n == "precursor") return Element::kPrecursor;
      break;
    case 'i':
      if (n == "isolationWindow") return Element::kIsolationWindow;
      break;
    case 'a':
      if (n == "activation") return Element::kActivation;
      break;
    case 'b':
      if (n == "binary") return Element::kBinary;
      if (n == "binaryDataArray") return Element::kBinaryDataArray;
      break;
    default:
      break;
  }
  return Element::kOther;
}

// The attributes of one start tag, from expat or from scan_plain_xml_element.
struct Attributes {
  const XmlAttribute* begin;
  const XmlAttribute* end;

  // The value of attribute `name`, or nullptr when the tag has none.
  const std::string_view* find(std::string_view name) const {
    for (const XmlAttribute* a = begin; a != end; ++a) {
      if (a->name == name) return &a->value;
    }
    return nullptr;
  }
  std::string_view value_or_empty(std::string_view name) const {
    const std::string_view* v = find(name);
    return v != nullptr ? *v : std::string_view();
  }
};

// "MS:1000511" -> 1000511; 0 for other CVs or malformed accessions (or "").
int ms_accession(std::string_view accession) {
  if (accession.substr(0, 3) != "MS:") return 0;
  const char* begin = accession.data() + 3;
  const char* end = accession.data() + accession.size();
  int n = 0;
  const auto [ptr, ec] = std::from_chars(begin, end, n);
  return ec == std::errc() && ptr == end ? n : 0;
}

// A non-negative count, or -1 when missing or not a plain decimal number.
int64_t parse_count(const std::string_view* text) {
  if (text == nullptr) return -1;
  const char* end = text->data() + text->size();
  int64_t n = -1;
  const auto [ptr, ec] = std::from_chars(text->data(), end, n);
  return ec == std::errc() && ptr == end && n >= 0 ? n : -1;
}

struct CvParam {
  int accession = 0;  // MS accession number, 0 for other CVs
  std::string value;
  std::string unit_accession;
};

class MzmlReader final : public SpectrumReader, private Ms1SpectrumFilter::Sink {
 public:
  MzmlReader(std::string file_name, uint32_t file_index, bool tokenize_plain_spectra)
      : file_name_(std::move(file_name)),
        file_index_(file_index),
        tokenize_plain_spectra_(tokenize_plain_spectra) {
    parser_ = XML_ParserCreate(nullptr);
    if (parser_ == nullptr) throw std::bad_alloc();
    XML_SetUserData(parser_, this);
    XML_SetElementHandler(parser_, &MzmlReader::on_start, &MzmlReader::on_end);
    // A DTD could declare default attributes or entities the fast path would not apply.
    XML_SetStartDoctypeDeclHandler(parser_, &MzmlReader::on_doctype);
  }
  ~MzmlReader() override { XML_ParserFree(parser_); }
  MzmlReader(const MzmlReader&) = delete;
  MzmlReader& operator=(const MzmlReader&) = delete;

  void feed(std::string_view block, std::vector<RawSpectrum>& out) override {
    check_not_failed();
    fed_bytes_ += block.size();
    out_ = &out;
    ms1_filter_.push(block, *this);  // passes the bytes it keeps to pass(), below
    out_ = nullptr;
  }

  void finish(std::vector<RawSpectrum>& out) override {
    check_not_failed();
    out_ = &out;
    ms1_filter_.finish(*this);
    parse(nullptr, 0, true);
    out_ = nullptr;
  }

  const ReadStats& stats() const override { return stats_; }

 private:
  // --- Ms1SpectrumFilter::Sink -----------------------------------------------------------------

  // Pieces of 256 KiB or less as a rule (the filter routes 256 KiB at a time; a held spectrum,
  // comment or CDATA section may be longer, up to 4 MiB): expat copies them into its buffer,
  // which then stays small and in cache.
  void pass(std::string_view bytes) override {
    passed_bytes_ += bytes.size();
    parse(bytes.data(), static_cast<int>(bytes.size()), false);
  }
  // Spectra are taken while expat is between elements of the spectrum list (nothing of a
  // spectrum, parameter group or chromatogram open), holds no partial token (its position is
  // the end of what it was given: "<binaryDa<spectrum" must fail where expat fails, not after
  // the taken spectrum; found by mzml_tokenizer_fuzzer) and no DOCTYPE was met.
  bool takes_spectra() const override {
    return tokenize_plain_spectra_ && seen_root_ && depth_ >= 1 && in_spectrum_list_ &&
           !in_spectrum_ && !in_chromatogram_ && current_group_ == nullptr && !saw_doctype_ &&
           XML_GetCurrentByteIndex(parser_) == static_cast<XML_Index>(passed_bytes_);
  }
  // Tokenizes a plain spectrum and replays its events into the handlers expat would call; any
  // other goes back to expat (which then also reports its errors, with positions).
  bool take(std::string_view element) override {
    if (!scan_plain_xml_element(element, scan_)) return false;
    if (depth_ + scan_.max_depth > kMaxElementDepth) return false;
    // A spectrum inside it (self-closing, or the end tag would have cut it) is expat's to
    // report, with its position.
    for (size_t e = 1; e < scan_.events.size(); ++e) {
      if (scan_.events[e].kind == XmlEvent::Kind::kStart &&
          classify(scan_.events[e].text) == Element::kSpectrum) {
        return false;
      }
    }
    // Where expat would have met the element: the end of what it was given (takes_spectra()),
    // so the spectrum's source_byte is the same on both paths.
    start_byte_ = static_cast<XML_Index>(passed_bytes_);
    start_line_ = XML_GetCurrentLineNumber(parser_);
    try {
      for (const XmlEvent& event : scan_.events) {
        switch (event.kind) {
          case XmlEvent::Kind::kStart: {
            ++depth_;
            const XmlAttribute* first = scan_.attributes.data() + event.first_attribute;
            start_element(event.text, Attributes{first, first + event.attribute_count});
            break;
          }
          case XmlEvent::Kind::kEnd:
            --depth_;
            end_element(event.text);
            break;
          case XmlEvent::Kind::kText:
            if (decoding_binary_) binary_text(event.text);
            break;
        }
      }
    } catch (...) {  // e.g. std::bad_alloc: the reader stays failed, as after expat's path
      failed_what_ = failed_message_ = "internal error while reading mzML";
      throw;
    }
    return true;
  }

  // Not inside an unclosed spectrum: there the next spectrum's start tag is the error to report
  // (a new user's file with one MS1 </spectrum> missing was reported at the first MS2 spectrum,
  // 20,000 lines on, the MS1 spectra between dropped unseen).
  bool drops_spectra() const override { return !in_spectrum_; }

  // Counted as the builder counts an MS1 spectrum it read (MzmlSpectrumBuilder::finish).
  void dropped(std::string_view native_id) override {
    if (root_end_.closed) return;  // after the root element: not part of the document
    if (!in_spectrum_list_) return outside_spectrum_list(native_id);
    ++stats_.spectra_seen;
    const std::string reason = "MS level 1";
    ++stats_.skipped[reason];
    stats_.first_skipped_at.emplace(reason, "spectrum " + std::string(native_id));
  }

  // --- expat plumbing -------------------------------------------------------------------------

  static void XMLCALL on_start(void* self, const XML_Char* name, const XML_Char** atts) {
    auto* reader = static_cast<MzmlReader*>(self);
    // mzML nests about 10 deep; expat keeps every open element, so a file of millions of nested
    // tags would cost ~50 bytes of memory per input byte (a new-user test: 30 MB -> 1.6 GB).
    if (++reader->depth_ > kMaxElementDepth) {
      reader->fatal("elements nested more than " + std::to_string(kMaxElementDepth) +
                    " deep: not mzML");
      return;
    }
    reader->guarded([&](MzmlReader& r) {
      r.start_byte_ = XML_GetCurrentByteIndex(r.parser_);
      r.start_line_ = XML_GetCurrentLineNumber(r.parser_);
      r.expat_attributes_.clear();
      for (; atts[0] != nullptr; atts += 2) r.expat_attributes_.push_back({atts[0], atts[1]});
      const XmlAttribute* first = r.expat_attributes_.data();
      r.start_element(name, Attributes{first, first + r.expat_attributes_.size()});
    });
  }
  static void XMLCALL on_end(void* self, const XML_Char* name) {
    auto* reader = static_cast<MzmlReader*>(self);
    if (--reader->depth_ == 0) reader->root_ended();
    reader->guarded([&](MzmlReader& r) { r.end_element(name); });
  }
  // Where the root element ends (its end tag's '<'): a problem after it is noted there.
  void root_ended() {
    const XML_Index byte = XML_GetCurrentByteIndex(parser_);
    const uint64_t passed = byte < 0 ? 0 : static_cast<uint64_t>(byte);
    root_end_ = {true, ms1_filter_.file_offset(passed),
                 ms1_filter_.file_line(passed, XML_GetCurrentLineNumber(parser_))};
  }
  static void XMLCALL on_binary_text(void* self, const XML_Char* s, int len) {
    static_cast<MzmlReader*>(self)->binary_text(std::string_view(s, static_cast<size_t>(len)));
  }
  static void XMLCALL on_doctype(void* self, const XML_Char*, const XML_Char*, const XML_Char*,
                                 int) {
    static_cast<MzmlReader*>(self)->saw_doctype_ = true;
  }

  void binary_text(std::string_view text) { base64_ok_ = base64_.feed(text, bytes_) && base64_ok_; }

  // Exceptions must not cross expat's C frames: keep the first one and stop the parser.
  template <typename F>
  void guarded(F&& f) {
    try {
      f(*this);
    } catch (...) {
      if (!pending_exception_) pending_exception_ = std::current_exception();
      XML_StopParser(parser_, XML_FALSE);
    }
  }

  void parse(const char* data, int len, bool is_final) {
    if (after_root_ignored_) return;
    if (XML_Parse(parser_, data, len, is_final ? XML_TRUE : XML_FALSE) == XML_STATUS_OK) return;
    if (pending_exception_) {  // e.g. std::bad_alloc inside a callback
      failed_what_ = failed_message_ = "internal error while reading mzML";
      std::rethrow_exception(pending_exception_);
    }
    const XML_Error code = XML_GetErrorCode(parser_);
    // expat counts the bytes and lines it was given: add back the MS1 spectra dropped before.
    const XML_Index byte = XML_GetCurrentByteIndex(parser_);
    const uint64_t passed = byte < 0 ? 0 : static_cast<uint64_t>(byte);
    const uint64_t offset = ms1_filter_.file_offset(passed);
    const uint64_t line = ms1_filter_.file_line(passed, XML_GetCurrentLineNumber(parser_));
    if (fatal_message_.empty() && root_end_.closed) {  // expat's verdict there depends on cuts
      after_root_ignored_ = true;
      note_problem(stats_, kBytesAfterRootIgnored, 1, root_end_where(root_end_, root_name_));
      return;
    }
    if (is_final && fatal_message_.empty() && seen_root_ && ends_early(code)) {
      truncated();  // every byte so far was well-formed: the file was cut
      return;
    }
    std::string what;
    uint64_t at_offset = offset;
    uint64_t at_line = line;
    if (!fatal_message_.empty()) {
      what = fatal_message_;
    } else if (in_spectrum_ && code == XML_ERROR_TAG_MISMATCH && closes_spectrum_list()) {
      // A missing </spectrum> shows at the end tag of the list (or run) around it; the problem
      // is the spectrum that was never closed: report where it starts.
      what = unclosed_spectrum_message("</" + mismatched_end_tag() +
                                       "> comes first (</spectrum> missing?)");
      at_offset = spectrum_offset_;
      at_line = spectrum_line_;
    } else {
      what = std::string("XML not well-formed: ") + XML_ErrorString(code);
    }
    if (!fatal_message_.empty() && fatal_at_spectrum_) {
      at_offset = fatal_offset_;
      at_line = fatal_line_;
    }
    throw_error(at_offset, at_line, what);
  }

  // Throws the ParseError and keeps it: the reader then throws it again on every call.
  [[noreturn]] void throw_error(uint64_t offset, uint64_t line, const std::string& what) {
    ParseError error(file_name_, offset, line, what);
    failed_message_ = error.what();
    failed_offset_ = offset;
    failed_line_ = line;
    failed_what_ = what;
    throw error;
  }

  // The name in the end tag expat stopped at (it points at the name, after "</"), from the
  // bytes expat still holds; "" when they are gone.
  std::string mismatched_end_tag() const {
    int offset = 0;
    int size = 0;
    const char* context = XML_GetInputContext(parser_, &offset, &size);
    if (context == nullptr || offset < 0 || offset >= size) return {};
    std::string name;
    for (int i = offset; i < size && name.size() < 64; ++i) {
      const char c = context[i];
      if (c == '>' || c == ' ' || c == '\t' || c == '\r' || c == '\n') break;
      name += c;
    }
    return name;
  }

  // Whether the mismatched end tag is one of the elements around the spectrum list.
  bool closes_spectrum_list() const {
    const std::string name = mismatched_end_tag();
    const std::string_view n = local_name(name);
    return n == "spectrumList" || n == "run" || n == "mzML" || n == "indexedmzML";
  }

  // expat's errors for input that stops inside the document, not for bad bytes.
  static bool ends_early(XML_Error code) {
    return code == XML_ERROR_NO_ELEMENTS || code == XML_ERROR_UNCLOSED_TOKEN ||
           code == XML_ERROR_PARTIAL_CHAR || code == XML_ERROR_UNCLOSED_CDATA_SECTION;
  }

  // The file ended inside the document. The spectra read are kept; an open spectrum is cut and
  // skipped, as the MGF reader skips a block without END IONS. Outside a spectrum the problem is
  // where the file ends and the element it ends in: "byte 78, the end of the file, inside <run>".
  void truncated() {
    std::string where;
    if (in_spectrum_) {
      where = "spectrum " + builder_.native_id();
      ++stats_.spectra_seen;
      ++stats_.skipped[kSkipTruncated];
      stats_.first_skipped_at.emplace(kSkipTruncated, where);
      in_spectrum_ = false;
    } else {
      where = file_end_where(fed_bytes_,
                             depth_ >= 1 ? open_names_[std::min(depth_, kNamedDepth) - 1] : "");
    }
    note_problem(stats_, kFileEndsEarly, 1, where);
  }

  std::string unclosed_spectrum_message(const std::string& what) const {
    return "<spectrum id=\"" + builder_.native_id() + "\"> starting at line " +
           std::to_string(spectrum_line_) + " is not closed: " + what;
  }

  // A <spectrum> outside <spectrumList> (in a cvList, after </mzML> in indexedmzML) is no
  // spectrum of the run: not searched, counted as a problem.
  void outside_spectrum_list(std::string_view native_id) {
    note_problem(stats_, "spectra outside <spectrumList> ignored", 1,
                 "spectrum " + std::string(native_id));
  }

  void check_not_failed() const {
    if (!failed_message_.empty()) {
      throw ParseError(file_name_, failed_offset_, failed_line_, failed_what_);
    }
  }

  // Stops parsing with a ParseError for input that is XML but cannot be mzML.
  void fatal(std::string message) {
    fatal_message_ = std::move(message);
    XML_StopParser(parser_, XML_FALSE);
  }

  // --- elements -------------------------------------------------------------------------------

  void start_element(std::string_view name, const Attributes& atts) {
    const Element element = classify(name);
    if (depth_ <= kNamedDepth && !in_spectrum_) open_names_[depth_ - 1].assign(local_name(name));
    if (!seen_root_) {
      seen_root_ = true;
      const std::string_view n = local_name(name);
      root_name_ = n;
      if (n != "mzML" && n != "indexedmzML") {
        fatal("root element <" + std::string(name) + "> is not <mzML> or <indexedmzML>");
      }
      return;
    }
    if (in_chromatogram_) return;
    if (ignored_depth_ > 0) {  // inside a spectrum outside the spectrum list
      if (element == Element::kSpectrum) ++ignored_depth_;
      return;
    }
    switch (element) {
      case Element::kCvParam:
        cv_param(ms_accession(atts.value_or_empty("accession")), atts.value_or_empty("value"),
                 atts.value_or_empty("unitAccession"));
        break;
      case Element::kParamGroupRef:
        param_group_ref(atts.find("ref"));
        break;
      case Element::kParamGroup:
        if (!in_spectrum_) {
          current_group_ = &param_groups_[std::string(atts.value_or_empty("id"))];
          current_group_->clear();
        }
        break;
      case Element::kSpectrumList:
        in_spectrum_list_ = true;
        break;
      case Element::kSpectrum: {
        if (in_spectrum_) {  // would silently replace the spectrum being read
          fatal_at_spectrum_ = true;
          fatal_offset_ = spectrum_offset_;
          fatal_line_ = spectrum_line_;
          const uint64_t at = start_byte_ < 0 ? 0 : static_cast<uint64_t>(start_byte_);
          fatal(unclosed_spectrum_message("another <spectrum> starts at line " +
                                          std::to_string(ms1_filter_.file_line(at, start_line_)) +
                                          " (</spectrum> missing?)"));
          return;
        }
        if (!in_spectrum_list_) {
          outside_spectrum_list(atts.value_or_empty("id"));
          ++ignored_depth_;
          return;
        }
        spectrum_offset_ =
            ms1_filter_.file_offset(start_byte_ < 0 ? 0 : static_cast<uint64_t>(start_byte_));
        spectrum_line_ = ms1_filter_.file_line(
            start_byte_ < 0 ? 0 : static_cast<uint64_t>(start_byte_), start_line_);
        const std::string_view* default_length = atts.find("defaultArrayLength");
        builder_.begin(atts.value_or_empty("id"), parse_count(default_length));
        default_length_invalid_ = default_length != nullptr && builder_.default_array_length() < 0;
        in_spectrum_ = true;
        precursors_ = 0;
        break;
      }
      case Element::kChromatogram:
        in_chromatogram_ = true;
        break;
      case Element::kPrecursor:
        if (in_spectrum_) {
          in_precursor_ = true;
          ++precursors_;
          selected_ions_ = 0;
          builder_.saw_precursor();
        }
        break;
      case Element::kIsolationWindow:
        in_isolation_window_ = in_precursor_;
        break;
      case Element::kSelectedIon:
        in_selected_ion_ = in_precursor_;
        if (in_precursor_) ++selected_ions_;
        break;
      case Element::kActivation:
        in_activation_ = in_precursor_;
        break;
      case Element::kBinaryDataArray:
        if (in_spectrum_) {
          in_array_ = true;
          array_kind_ = 0;
          encoding_ = BinaryArrayEncoding{};
          array_length_ = parse_count(atts.find("arrayLength"));
        }
        break;
      case Element::kBinary:
        if (in_array_) start_binary();
        break;
      case Element::kOther:
        break;
    }
  }

  void end_element(std::string_view name) {
    if (!fatal_message_.empty()) return;  // expat may still report the end of an empty element
    const Element element = classify(name);
    if (in_chromatogram_) {
      if (element == Element::kChromatogram) in_chromatogram_ = false;
      return;
    }
    if (ignored_depth_ > 0) {
      if (element == Element::kSpectrum) --ignored_depth_;
      return;
    }
    switch (element) {
      case Element::kSpectrumList:
        in_spectrum_list_ = false;
        break;
      case Element::kParamGroup:
        current_group_ = nullptr;
        break;
      case Element::kSpectrum:
        if (in_spectrum_) end_spectrum();
        break;
      case Element::kPrecursor:
        in_precursor_ = false;
        break;
      case Element::kIsolationWindow:
        in_isolation_window_ = false;
        break;
      case Element::kSelectedIon:
        in_selected_ion_ = false;
        break;
      case Element::kActivation:
        in_activation_ = false;
        break;
      case Element::kBinaryDataArray:
        in_array_ = false;
        break;
      case Element::kBinary:
        if (decoding_binary_) end_binary();
        break;
      default:
        break;
    }
  }

  void cv_param(int accession, std::string_view v, std::string_view u) {
    if (current_group_ != nullptr) {
      current_group_->push_back({accession, std::string(v), std::string(u)});
      return;
    }
    if (!in_spectrum_ || accession == 0) return;
    if (in_array_) {
      if (accession == kMzArray || accession == kIntensityArray) {
        array_kind_ = accession;
      } else {
        encoding_.apply_cv_term(accession);
      }
    } else if (in_precursor_) {
      if (precursors_ != 1) return;  // only the first precursor is searched
      if (in_isolation_window_) {
        builder_.isolation_window_term(accession, v);
      } else if (in_selected_ion_) {
        if (selected_ions_ == 1) builder_.selected_ion_term(accession, v);
      } else if (in_activation_) {
        builder_.activation_term(accession);
      }
    } else {
      builder_.spectrum_term(accession, v, u);
    }
  }

  void param_group_ref(const std::string_view* ref) {
    if (ref == nullptr || current_group_ != nullptr) return;
    const auto it = param_groups_.find(std::string(*ref));
    if (it == param_groups_.end()) {
      if (in_spectrum_) builder_.fail("unknown referenceableParamGroup");
      return;
    }
    for (const CvParam& p : it->second) {
      cv_param(p.accession, p.value, p.unit_accession);
    }
  }

  void start_binary() {
    // Arrays of spectra that will be skipped anyway are not decoded (MS1 spectra are most of
    // the bytes of a typical DDA file).
    const int level = builder_.ms_level();
    if (array_kind_ == 0 || builder_.failed() || (level != 0 && level != 2)) return;
    decoding_binary_ = true;
    bytes_.clear();
    base64_.reset();
    base64_ok_ = true;
    XML_SetCharacterDataHandler(parser_, &MzmlReader::on_binary_text);
  }

  void end_binary() {
    decoding_binary_ = false;
    XML_SetCharacterDataHandler(parser_, nullptr);
    if (!base64_ok_ || !base64_.finish(bytes_)) {
      builder_.fail("bad base64");
      return;
    }
    const int64_t length = array_length_ >= 0 ? array_length_ : builder_.default_array_length();
    if (length < 0) {  // "-5", "3.0": invalid, not missing (a hostile check's "-5")
      builder_.fail(default_length_invalid_ ? "invalid defaultArrayLength"
                                            : "no defaultArrayLength");
      return;
    }
    const char* error = nullptr;
    if (array_kind_ == kMzArray) {
      error = arrays_.decode(encoding_, bytes_, static_cast<size_t>(length), builder_.mz());
      builder_.saw_mz_array();
    } else {
      error = arrays_.decode(encoding_, bytes_, static_cast<size_t>(length), builder_.intensity());
      builder_.saw_intensity_array();
    }
    if (error != nullptr) builder_.fail(error);
  }

  void end_spectrum() {
    in_spectrum_ = in_precursor_ = in_isolation_window_ = in_selected_ion_ = false;
    in_activation_ = in_array_ = false;
    ++stats_.spectra_seen;
    RawSpectrum spectrum;
    const std::string where = "spectrum " + builder_.native_id();
    std::string reason = builder_.finish(spectrum);
    if (reason.empty()) {
      check_peaks(spectrum, stats_, where);
      if (spectrum.mz.empty()) reason = kSkipNoPeaks;
    }
    if (!reason.empty()) {
      ++stats_.skipped[reason];
      stats_.first_skipped_at.emplace(reason, where);
      return;
    }
    settle_peak_mode(spectrum, builder_.peak_mode(), stats_, where);
    spectrum.file_index = file_index_;
    spectrum.source_byte = spectrum_offset_;
    spectrum.spectrum_index = stats_.spectra_emitted++;
    out_->push_back(std::move(spectrum));
  }

  std::string file_name_;
  uint32_t file_index_;
  bool tokenize_plain_spectra_;
  XML_Parser parser_ = nullptr;
  uint64_t passed_bytes_ = 0;  // handed to expat so far
  Ms1SpectrumFilter ms1_filter_;
  std::vector<RawSpectrum>* out_ = nullptr;
  ReadStats stats_;

  // Failure state: a reader that threw keeps throwing the same error.
  std::exception_ptr pending_exception_;
  std::string fatal_message_;
  std::string failed_message_;
  std::string failed_what_;
  uint64_t failed_offset_ = 0;
  uint64_t failed_line_ = 0;

  // Where the parser is.
  static constexpr int kMaxElementDepth = 64;
  int depth_ = 0;  // open elements
  bool seen_root_ = false;
  std::string root_name_;  // local name, e.g. "indexedmzML"
  XmlRootEnd root_end_;
  bool after_root_ignored_ = false;  // bytes after the root were not XML: the rest is ignored
  bool saw_doctype_ = false;
  // The local names of the open elements at depths 1 to kNamedDepth (indexedmzML, mzML, run,
  // spectrumList), to name the element a file that ends outside a spectrum ends in (the
  // innermost of these open); not kept inside a spectrum, whose id names a cut there.
  static constexpr int kNamedDepth = 4;
  std::array<std::string, kNamedDepth> open_names_;
  uint64_t fed_bytes_ = 0;  // the file's bytes fed so far
  bool in_chromatogram_ = false;
  bool in_spectrum_list_ = false;
  int ignored_depth_ = 0;  // open spectra outside the spectrum list
  bool in_spectrum_ = false;
  // Where the current spectrum's start tag is (expat path; a taken spectrum is whole) and where
  // the element expat reported last starts.
  uint64_t spectrum_offset_ = 0;
  uint64_t spectrum_line_ = 0;
  XML_Index start_byte_ = 0;
  uint64_t start_line_ = 0;
  bool fatal_at_spectrum_ = false;  // a fatal error reported at the open spectrum's start
  uint64_t fatal_offset_ = 0;
  uint64_t fatal_line_ = 0;
  bool in_precursor_ = false;
  bool in_isolation_window_ = false;
  bool in_selected_ion_ = false;
  bool in_activation_ = false;
  bool in_array_ = false;
  bool decoding_binary_ = false;
  int precursors_ = 0;     // <precursor> elements met in this spectrum
  int selected_ions_ = 0;  // <selectedIon> elements met in this precursor

  std::unordered_map<std::string, std::vector<CvParam>> param_groups_;
  std::vector<CvParam>* current_group_ = nullptr;  // group being read, if any

  // The current spectrum and binaryDataArray.
  MzmlSpectrumBuilder builder_;
  int array_kind_ = 0;  // kMzArray, kIntensityArray or 0 (another array: not decoded)
  int64_t array_length_ = -1;
  bool default_length_invalid_ = false;  // the spectrum's defaultArrayLength given but invalid
  BinaryArrayEncoding encoding_;
  Base64Decoder base64_;
  bool base64_ok_ = true;
  std::string bytes_;  // decoded bytes of the current <binary>
  BinaryArrayDecoder arrays_;

  XmlElementScan scan_;                         // the spectrum being taken
  std::vector<XmlAttribute> expat_attributes_;  // the start tag expat reports
};

}  // namespace

std::unique_ptr<SpectrumReader> make_mzml_reader(std::string file_name, uint32_t file_index,
                                                 bool tokenize_plain_spectra) {
  return std::make_unique<MzmlReader>(std::move(file_name), file_index, tokenize_plain_spectra);
}

}  // namespace ionflow
