// Ms1SpectrumFilter (mzml_ms1_filter.hpp): a three-state scan over the bytes — passing, holding a
// spectrum's head until its <binaryDataArrayList> (or end) shows whether it is MS1, dropping
// through its </spectrum>. Bytes that could begin a tag split between two pieces are kept for
// the next piece.
#include "io/mzml_ms1_filter.hpp"

#include <algorithm>

namespace ionflow {
namespace {

constexpr std::string_view kOpen = "<spectrum";
constexpr std::string_view kClose = "</spectrum>";
constexpr std::string_view kArrays = "<binaryDataArrayList";
constexpr size_t kPieceBytes = 256u << 10;  // routed at a time (stays in cache)
constexpr size_t kMaxHeadBytes = 1u << 20;  // a longer spectrum head passes undecided

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

}  // namespace

bool Ms1SpectrumFilter::drops(std::string_view head, std::string_view& native_id) {
  const size_t tag_end = head.find('>');
  if (tag_end == std::string_view::npos) return false;
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

void Ms1SpectrumFilter::emit(std::string_view bytes, Sink& sink) {
  if (bytes.empty()) return;
  passed_ += bytes.size();
  sink.pass(bytes);
}

size_t Ms1SpectrumFilter::route(bool final, Sink& sink) {
  const std::string_view b = buffer_;
  size_t pos = 0;
  for (;;) {
    switch (state_) {
      case State::kPass: {
        const size_t p = b.find(kOpen, pos);
        if (p == std::string_view::npos) {
          // Up to kOpen.size() - 1 final bytes may begin "<spectrum": kept for the next piece.
          const size_t keep = final ? 0 : std::min(b.size() - pos, kOpen.size() - 1);
          emit(b.substr(pos, b.size() - keep - pos), sink);
          return b.size() - keep;
        }
        const size_t next = p + kOpen.size();
        if (next >= b.size() && !final) {  // the character after "<spectrum" is still to come
          emit(b.substr(pos, p - pos), sink);
          return p;
        }
        if (next >= b.size() || !is_space(b[next])) {  // "<spectrumList", "<spectrumRef", ...
          emit(b.substr(pos, next - pos), sink);
          pos = next;
          continue;
        }
        emit(b.substr(pos, p - pos), sink);
        pos = p;
        state_ = State::kHead;
        continue;
      }
      case State::kHead: {
        const std::string_view rest = b.substr(pos);
        const size_t end = std::min(rest.find(kArrays), rest.find(kClose));
        std::string_view id;
        if (end == std::string_view::npos && !final && rest.size() <= kMaxHeadBytes) return pos;
        if (end == std::string_view::npos || !drops(rest.substr(0, end), id)) {
          emit(rest.substr(0, kOpen.size()), sink);  // the parser reads this spectrum
          pos += kOpen.size();
          state_ = State::kPass;
          continue;
        }
        dropping_id_.assign(id);
        dropping_bytes_ = dropping_lines_ = 0;
        state_ = State::kDrop;
        continue;
      }
      case State::kDrop: {
        const size_t q = b.find(kClose, pos);
        const size_t keep = final ? 0 : kClose.size() - 1;
        const size_t upto = q != std::string_view::npos ? q + kClose.size()
                            : b.size() > pos + keep     ? b.size() - keep
                                                        : pos;
        const std::string_view gone = b.substr(pos, upto - pos);
        dropping_bytes_ += gone.size();
        dropping_lines_ += static_cast<uint64_t>(std::count(gone.begin(), gone.end(), '\n'));
        pos = upto;
        if (q == std::string_view::npos && !final) return pos;
        const Drop previous = drops_.empty() ? Drop{0, 0, 0} : drops_.back();
        drops_.push_back({passed_, previous.bytes_before + dropping_bytes_,
                          previous.lines_before + dropping_lines_});
        state_ = State::kPass;
        if (q == std::string_view::npos) return pos;  // the file ends inside the spectrum
        sink.dropped(dropping_id_);
        continue;
      }
    }
  }
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

uint64_t Ms1SpectrumFilter::file_offset(uint64_t passed_offset) const {
  auto it = std::upper_bound(drops_.begin(), drops_.end(), passed_offset,
                             [](uint64_t x, const Drop& d) { return x < d.passed_offset; });
  return passed_offset + (it == drops_.begin() ? 0 : std::prev(it)->bytes_before);
}

uint64_t Ms1SpectrumFilter::file_line(uint64_t passed_offset, uint64_t passed_line) const {
  auto it = std::upper_bound(drops_.begin(), drops_.end(), passed_offset,
                             [](uint64_t x, const Drop& d) { return x < d.passed_offset; });
  return passed_line + (it == drops_.begin() ? 0 : std::prev(it)->lines_before);
}

}  // namespace ionflow
