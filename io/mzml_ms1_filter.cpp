// Ms1SpectrumFilter (mzml_ms1_filter.hpp): a scan over the bytes in three states — passing
// until a "<spectrum" start tag; holding that element whole until its end tag decides whether
// it is dropped, taken by the sink or passed; and passing the inside of a comment, CDATA
// section or PI too long to hold until its closer. Bytes that could begin a tag or closer split
// between two pieces are kept for the next piece; a held element is searched for its head's
// end and its own end from where the last search stopped.
#include "io/mzml_ms1_filter.hpp"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ionflow {
namespace {

constexpr std::string_view kOpen = "<spectrum";
constexpr std::string_view kClose = "</spectrum";
constexpr std::string_view kArrays = "<binaryDataArrayList";
constexpr size_t kPieceBytes = 256u << 10;  // routed at a time (stays in cache)
constexpr size_t kMaxHoldBytes = 4u << 20;  // a longer spectrum passes undecided

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The value of attribute `name` (e.g. "id") in the tag text `tag`, if written name="value" after
// whitespace; false if absent.
bool attribute(std::string_view tag, std::string_view name, std::string_view& value) {
  for (size_t at = tag.find(name); at != std::string_view::npos; at = tag.find(name, at + 1)) {
    const size_t eq = at + name.size();
    if (at == 0 || !is_space(tag[at - 1]) || eq + 1 >= tag.size() || tag[eq] != '=' ||
        tag[eq + 1] != '"') {
      continue;
    }
    const size_t end = tag.find('"', eq + 2);
    if (end == std::string_view::npos) return false;
    value = tag.substr(eq + 2, end - (eq + 2));
    return true;
  }
  return false;
}

// Line ends in `s` as expat counts them: LF, CR LF, lone CR (std::count widens every byte to a
// 64-bit lane; this adds 16 at a time).
uint64_t count_newlines(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  uint64_t lines = 0;
#if defined(__SSE2__)
  const __m128i lf = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
  while (i + 16 <= n) {
    // Up to 255 blocks per byte-lane counter before it could overflow.
    const size_t blocks = std::min<size_t>((n - i) / 16, 255);
    __m128i counts = zero;
    for (size_t b = 0; b < blocks; ++b, i += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(v, lf));
    }
    const __m128i sums = _mm_sad_epu8(counts, zero);
    lines += static_cast<uint64_t>(_mm_cvtsi128_si64(sums)) +
             static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  }
#endif
  for (; i < n; ++i) lines += p[i] == '\n';
  // A lone CR ends a line too (XML 1.0 section 2.11; expat counts it): rare, so counted apart.
  if (std::memchr(p, '\r', n) != nullptr) {
    for (size_t k = 0; k < n; ++k) lines += p[k] == '\r' && (k + 1 == n || p[k + 1] != '\n');
  }
  return lines;
}

}  // namespace

bool Ms1SpectrumFilter::head_says_ms1(std::string_view head, std::string_view& native_id) {
  const size_t tag_end = head.find('>');
  if (tag_end == std::string_view::npos || head[tag_end - 1] == '/') return false;
  if (!attribute(head.substr(0, tag_end), "id", native_id)) return false;
  if (native_id.find_first_of("&<") != std::string_view::npos) return false;
  if (head.find("<precursor") != std::string_view::npos ||
      head.find("<referenceableParamGroupRef") != std::string_view::npos) {
    return false;
  }
  bool level_one = false;
  for (size_t at = head.find("<cvParam"); at != std::string_view::npos;
       at = head.find("<cvParam", at + 1)) {
    const size_t end = head.find('>', at);
    if (end == std::string_view::npos) return false;
    const std::string_view tag = head.substr(at, end - at);
    std::string_view accession, value;
    if (!attribute(tag, "accession", accession) || accession != "MS:1000511") continue;
    if (!attribute(tag, "value", value) || value != "1") return false;
    level_one = true;
  }
  return level_one;
}

bool Ms1SpectrumFilter::plain(std::string_view element) {
  // One spectrum (a "<spectrum" inside a comment, or a self-closing one, would make the held
  // text span two), no comment, CDATA section or processing instruction (whose text could hide
  // or fake any tag).
  if (element.find(kOpen, 1) != std::string_view::npos) return false;
  for (std::string_view markup : {"<!--", "-->", "<![CDATA[", "]]>", "<?", "?>"}) {
    if (element.find(markup) != std::string_view::npos) return false;
  }
  return true;
}

void Ms1SpectrumFilter::emit(std::string_view bytes, Sink& sink) {
  if (bytes.empty()) return;
  passed_ += bytes.size();
  sink.pass(bytes);
}

// The end of the element that starts at b[0] ("<spectrum ..."): the position after the '>' of
// its first "</spectrum" end tag (whitespace allowed before '>'), searching from `from`;
// npos if not in `b` yet. `from` is updated to where a later search may resume.
size_t Ms1SpectrumFilter::element_end(std::string_view b, size_t& from) {
  for (size_t q = b.find(kClose, from); q != std::string_view::npos; q = b.find(kClose, q + 1)) {
    size_t k = q + kClose.size();
    while (k < b.size() && is_space(b[k])) ++k;
    if (k == b.size()) {  // "</spectrum" and maybe blanks so far: look again with more bytes
      from = q;
      return std::string_view::npos;
    }
    if (b[k] == '>') return k + 1;  // else "</spectrumList" and the like
  }
  from = b.size() >= kClose.size() ? b.size() - kClose.size() + 1 : 0;
  return std::string_view::npos;
}

// The piece route() works on, where it is, and the next comment, CDATA section or PI start.
// Comments, CDATA sections and processing instructions pass whole, so that a "<spectrum" in
// their text never starts a held element. `hidden` is the first one at or after some earlier
// pos, so still the next one while it is npos or >= pos (searched again only when passed).
// It is first searched when asked for: a piece that only extends a held spectrum is not
// scanned for it (each piece of a spectrum held over many had rescanned all held bytes).
struct Ms1SpectrumFilter::Scan {
  std::string_view b;
  bool final = false;
  size_t pos = 0;
  size_t hidden = std::string_view::npos;
  bool hidden_known = false;

  size_t find_hidden(size_t from) const {  // "<!--", "<![CDATA[", "<?": one pass over the '<'s
    for (size_t q = b.find('<', from); q != std::string_view::npos; q = b.find('<', q + 1)) {
      if (q + 1 < b.size() && (b[q + 1] == '!' || b[q + 1] == '?')) return q;
    }
    return std::string_view::npos;
  }
  size_t next_hidden() {
    if (!hidden_known || (hidden != std::string_view::npos && hidden < pos)) {
      hidden = find_hidden(pos);
      hidden_known = true;
    }
    return hidden;
  }
};

size_t Ms1SpectrumFilter::route(bool final, Sink& sink) {
  Scan scan{buffer_, final};
  for (;;) {
    const bool go_on = state_ == State::kMarkup ? route_markup(scan, sink)
                       : state_ == State::kPass ? route_pass(scan, sink)
                                                : route_hold(scan, sink);
    if (!go_on) return scan.pos;
  }
}

// kMarkup: inside a comment, CDATA section or PI too long to hold.
bool Ms1SpectrumFilter::route_markup(Scan& scan, Sink& sink) {
  const std::string_view b = scan.b;
  size_t& pos = scan.pos;
  const size_t e = b.find(markup_closer_, pos);
  if (e == std::string_view::npos) {
    // Up to closer.size() - 1 final bytes may begin the closer: kept for the next piece.
    const size_t keep = scan.final ? 0 : std::min(b.size() - pos, markup_closer_.size() - 1);
    emit(b.substr(pos, b.size() - keep - pos), sink);
    pos = b.size() - keep;
    return false;
  }
  emit(b.substr(pos, e + markup_closer_.size() - pos), sink);
  pos = e + markup_closer_.size();
  state_ = State::kPass;
  scan.hidden_known = false;
  return true;
}

// kPass: passes bytes up to the next "<spectrum " start tag (then kHold) or comment, CDATA
// section or PI (route_hidden).
bool Ms1SpectrumFilter::route_pass(Scan& scan, Sink& sink) {
  const std::string_view b = scan.b;
  size_t& pos = scan.pos;
  const bool final = scan.final;
  if (absorb_space_) {  // whitespace after a skipped spectrum is skipped with it
    size_t q = pos;
    while (q < b.size() && is_space(b[q])) ++q;
    if (q > pos) skip(b.substr(pos, q - pos));
    pos = q;
    if (q == b.size() && !final) return false;
    absorb_space_ = false;
  }
  const size_t p = b.find(kOpen, pos);
  const size_t h = scan.next_hidden();
  if (h != std::string_view::npos && (p == std::string_view::npos || h < p)) {
    return route_hidden(scan, h, sink);
  }
  if (p == std::string_view::npos) {
    // Up to kOpen.size() - 1 final bytes may begin "<spectrum": kept for the next piece.
    const size_t keep = final ? 0 : std::min(b.size() - pos, kOpen.size() - 1);
    emit(b.substr(pos, b.size() - keep - pos), sink);
    pos = b.size() - keep;
    return false;
  }
  const size_t next = p + kOpen.size();
  if (next >= b.size() && !final) {  // the character after "<spectrum" is still to come
    emit(b.substr(pos, p - pos), sink);
    pos = p;
    return false;
  }
  if (next >= b.size() || !is_space(b[next])) {  // "<spectrumList", "<spectrumRef", ...
    emit(b.substr(pos, next - pos), sink);
    pos = next;
    return true;
  }
  emit(b.substr(pos, p - pos), sink);
  pos = p;
  state_ = State::kHold;
  scanned_ = 0;
  head_scanned_ = 0;
  head_end_ = std::string_view::npos;
  return true;
}

// kPass at b[h], the start of a comment, CDATA section, PI or other markup ("<!DOCTYPE").
bool Ms1SpectrumFilter::route_hidden(Scan& scan, size_t h, Sink& sink) {
  const std::string_view b = scan.b;
  size_t& pos = scan.pos;
  const bool final = scan.final;
  if (h + 9 > b.size() && !final) {  // not yet known which it is
    emit(b.substr(pos, h - pos), sink);
    pos = h;
    return false;
  }
  const bool comment = b.compare(h, 4, "<!--") == 0;
  const bool cdata = !comment && b.compare(h, 9, "<![CDATA[") == 0;
  if (!comment && !cdata && b[h + 1] == '!') {  // "<!DOCTYPE" and the like: markup
    emit(b.substr(pos, h + 2 - pos), sink);
    pos = h + 2;
    return true;
  }
  const std::string_view closer = comment ? "-->" : cdata ? "]]>" : "?>";
  const size_t e = b.find(closer, h + (comment ? 4 : cdata ? 9 : 2));
  if (e != std::string_view::npos) {
    emit(b.substr(pos, e + closer.size() - pos), sink);
    pos = e + closer.size();
    return true;
  }
  // Its end is still to come: hold it; a huge one passes as it comes, and nothing in it
  // is routed until its end (a "<spectrum" in its text is not a spectrum).
  if (!final && b.size() - h <= kMaxHoldBytes) {
    emit(b.substr(pos, h - pos), sink);
    pos = h;
    return false;
  }
  const size_t opened = h + (comment ? 4 : cdata ? 9 : 2);
  emit(b.substr(pos, opened - pos), sink);
  pos = opened;
  markup_closer_ = closer;
  state_ = State::kMarkup;
  return true;
}

// kHold: b[pos] starts "<spectrum ". Its head (up to <binaryDataArrayList>, or its end)
// decides most spectra; one that says MS1, or any when the sink takes whole spectra, is
// held whole until its end tag.
bool Ms1SpectrumFilter::route_hold(Scan& scan, Sink& sink) {
  size_t& pos = scan.pos;
  const std::string_view rest = scan.b.substr(pos);
  std::string_view id;
  if (head_end_ == std::string_view::npos) {
    // Searched from where the last piece's search stopped (less a pattern's length, which may
    // straddle pieces): a spectrum of megabytes held over many pieces is scanned once, and its
    // head read once.
    const size_t from = head_scanned_ >= kArrays.size() ? head_scanned_ - kArrays.size() : 0;
    head_end_ = std::min(rest.find(kArrays, from), rest.find(kClose, from));
    if (head_end_ == std::string_view::npos) head_scanned_ = rest.size();
    head_ms1_ = head_end_ != std::string_view::npos && head_says_ms1(rest.substr(0, head_end_), id);
  }
  const size_t head_end = head_end_;
  const bool ms1 = head_ms1_;
  const bool whole = head_end != std::string_view::npos && (ms1 || sink.takes_spectra());
  size_t end = std::string_view::npos;
  if (whole) {
    scanned_ = std::max(scanned_, head_end);
    end = element_end(rest, scanned_);
  }
  const bool undecided =
      head_end == std::string_view::npos || (whole && end == std::string_view::npos);
  if (undecided && !scan.final && rest.size() <= kMaxHoldBytes) return false;
  bool gone = false;
  if (end != std::string_view::npos) {
    const std::string_view element = rest.substr(0, end);
    if (ms1 && plain(element) && sink.drops_spectra()) {
      head_says_ms1(rest.substr(0, head_end), id);  // the id, into this piece's bytes
      sink.dropped(id);
      gone = true;
    } else if (!ms1 && sink.take(element)) {
      gone = true;
    }
  }
  if (!gone) {
    emit(rest.substr(0, kOpen.size()), sink);  // the parser reads this spectrum
    pos += kOpen.size();
    state_ = State::kPass;
    return true;
  }
  skip(rest.substr(0, end));
  pos += end;
  state_ = State::kPass;
  absorb_space_ = true;
  return true;
}

void Ms1SpectrumFilter::skip(std::string_view bytes) {
  uint64_t lines = count_newlines(bytes);
  const bool ended_with_cr = skip_ended_with_cr_;
  skip_ended_with_cr_ = !bytes.empty() && bytes.back() == '\r';
  if (!drops_.empty() && drops_.back().passed_offset == passed_) {  // nothing passed since
    // A CR LF split between two skips: the CR was counted as a lone one, the LF is its end.
    if (ended_with_cr && !bytes.empty() && bytes.front() == '\n') --lines;
    drops_.back().bytes_before += bytes.size();
    drops_.back().lines_before += lines;
    return;
  }
  const Drop previous = drops_.empty() ? Drop{0, 0, 0} : drops_.back();
  drops_.push_back({passed_, previous.bytes_before + bytes.size(), previous.lines_before + lines});
}

void Ms1SpectrumFilter::push(std::string_view bytes, Sink& sink) {
  while (!bytes.empty()) {
    const size_t n = std::min(bytes.size(), kPieceBytes);
    buffer_.append(bytes.data(), n);
    bytes.remove_prefix(n);
    buffer_.erase(0, route(false, sink));
  }
}

void Ms1SpectrumFilter::finish(Sink& sink) {
  buffer_.erase(0, route(true, sink));
  emit(buffer_, sink);
  buffer_.clear();
}

const Ms1SpectrumFilter::Drop* Ms1SpectrumFilter::last_drop_before(uint64_t passed_offset) const {
  auto it = std::upper_bound(drops_.begin(), drops_.end(), passed_offset,
                             [](uint64_t x, const Drop& d) { return x < d.passed_offset; });
  return it == drops_.begin() ? nullptr : &*std::prev(it);
}

uint64_t Ms1SpectrumFilter::file_offset(uint64_t passed_offset) const {
  const Drop* d = last_drop_before(passed_offset);
  return passed_offset + (d != nullptr ? d->bytes_before : 0);
}

uint64_t Ms1SpectrumFilter::file_line(uint64_t passed_offset, uint64_t passed_line) const {
  const Drop* d = last_drop_before(passed_offset);
  return passed_line + (d != nullptr ? d->lines_before : 0);
}

}  // namespace ionflow
