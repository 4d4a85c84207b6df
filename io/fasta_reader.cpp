// FASTA parsing from memory; see fasta_reader.hpp for the rules.
//
// Speed (this runs on the critical path of every search job): one memchr pass over the file finds
// the headers, so the protein vector is allocated once and each sequence once (at most the bytes
// up to the next header); a sequence line as wide as the one before and made of upper-case
// residues only (checked by a loop the compiler vectorizes) is copied whole, and only other lines
// go byte by byte through the rules, which give the exact residues and errors. perf/
// bench_mgf_fasta.cpp: ~1.5 GB/s on the 10 MB SoCe target/decoy database, against ~0.9 GB/s for
// the per-character parser this replaced (same proteins, byte for byte: fasta_reader_test.cpp).
#include "io/fasta_reader.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>

#include "io/byte_text.hpp"

namespace ionflow {

namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trim(std::string_view s) {
  size_t b = 0;
  size_t e = s.size();
  while (b < e && is_blank(s[b])) ++b;
  while (e > b && is_blank(s[e - 1])) --e;
  return s.substr(b, e - b);
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// What each byte of a sequence line is.
enum class Byte : unsigned char { kUpper, kLower, kBlank, kStop, kBad };

constexpr std::array<Byte, 256> make_byte_classes() {
  std::array<Byte, 256> t{};
  for (auto& b : t) b = Byte::kBad;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = Byte::kUpper;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = Byte::kLower;
  for (char c : {' ', '\t', '\r', '\f', '\v'}) t[static_cast<unsigned char>(c)] = Byte::kBlank;
  t['*'] = Byte::kStop;
  return t;
}
constexpr std::array<Byte, 256> kByteClass = make_byte_classes();

// The UniProt accession of "sp|P02769|ALBU_BOVIN" / "tr|A9EMV1|A9EMV1_SORC5" (UniProt FASTA
// header format, https://www.uniprot.org/help/fasta-headers), or the token itself otherwise.
std::string_view accession_of(std::string_view token) {
  if (token.size() >= 3 && token[2] == '|' &&
      (starts_with(token, "sp") || starts_with(token, "tr"))) {
    std::string_view rest = token.substr(3);
    return rest.substr(0, rest.find('|'));
  }
  return token;
}

// Decoy tags in common use (Comet/Crux and OpenMS "DECOY_", TPP and OpenMS "rev_", MaxQuant
// "REV__", the suffix form of the BSA example "_rev"): a header whose first word carries one
// while no protein carries the job's decoy_tag most likely means the tag is set wrong.
bool looks_like_decoy(std::string_view token) {
  const std::string_view accession = accession_of(token);
  for (std::string_view prefix : {"rev_", "REV_", "decoy_", "DECOY_", "XXX_", "reverse_"}) {
    if (starts_with(token, prefix) || starts_with(accession, prefix)) return true;
  }
  for (std::string_view suffix : {"_rev", "_REV", "_decoy", "_DECOY", "_reverse"}) {
    if (ends_with(token, suffix)) return true;
  }
  return false;
}

class FastaParser {
 public:
  FastaParser(std::string_view content, const std::string& file_name, const FastaOptions& options)
      : content_(content), file_name_(file_name), options_(options) {}

  std::vector<Protein> parse(std::vector<std::string>* warnings) {
    size_t pos = 0;
    if (starts_with(content_, "\xEF\xBB\xBF")) pos = 3;  // UTF-8 byte order mark
    // Allocated once at its final size: no doubling growth, no moves, no pages faulted in twice.
    std::vector<size_t> headers = header_offsets(pos);
    // A one-protein file of lone-'\r' lines has no '>' after a '\r': look at its first header.
    if (!headers.empty() && !lone_cr_) {
      const size_t first_end = headers.size() > 1 ? headers[1] : content_.size();
      const char* data = content_.data();
      const char* nl =
          static_cast<const char*>(std::memchr(data + headers[0], '\n', first_end - headers[0]));
      const size_t lf = nl == nullptr ? first_end : static_cast<size_t>(nl - data);
      const char* cr =
          static_cast<const char*>(std::memchr(data + headers[0], '\r', lf - headers[0]));
      lone_cr_ = cr != nullptr && static_cast<size_t>(cr - data) + 1 != lf;
    }
    proteins_.reserve(headers.size());
    header_lines_.reserve(headers.size());
    lines(pos, headers.empty() ? content_.size() : headers[0]);  // before the first header
    for (size_t k = 0; k < headers.size(); ++k) {
      const size_t start = headers[k];
      const size_t end = k + 1 < headers.size() ? headers[k + 1] : content_.size();
      const size_t header_end = line_end(start, end);
      ++line_;
      line_start_ = start;
      header(content_.substr(start + 1, header_end - start - 1));
      // The sequence starts after the header's line end: "\n", "\r\n" or a lone '\r'.
      size_t body = header_end + 1;
      if (header_end + 1 < end && content_[header_end] == '\r' && content_[header_end + 1] == '\n')
        ++body;
      if (body < end) sequence_lines(body, end);
    }
    warn_of_untagged_decoys(warnings);
    warn_of_empty_entries(warnings);
    drop_duplicate_accessions(warnings);
    return std::move(proteins_);
  }

 private:
  // No protein carries the decoy tag but some headers carry another common one: they would be
  // searched as targets (and their decoy accessions may repeat their targets').
  void warn_of_untagged_decoys(std::vector<std::string>* warnings) const {
    if (warnings == nullptr || decoy_looking_ == 0 || options_.decoy_tag.empty()) return;
    for (const Protein& p : proteins_) {
      if (p.is_decoy) return;
    }
    warnings->push_back(
        file_name_ + ": no protein carries the decoy tag '" + options_.decoy_tag + "' (as a " +
        (options_.tag_is_suffix ? "suffix" : "prefix") + "), but " +
        std::to_string(decoy_looking_) +
        (decoy_looking_ == 1 ? " header looks like a decoy, on line "
                             : " headers look like decoys, the first on line ") +
        std::to_string(first_decoy_looking_line_) + " ('" + first_decoy_looking_ +
        "'): they are taken as targets (or dropped where their accession repeats a target's); "
        "set decoy_tag and decoy_tag_position to match them");
  }

  // Entries whose header is followed by no residue (an empty line, the next header, the end of
  // the file, only '*'): kept, for they make no peptide, but counted in one warning naming the
  // first, as the spectra readers count a data problem. Not an error: nothing read is wrong
  // or lost, as with a repeated accession (a warning too), unlike a residue that is not a letter.
  void warn_of_empty_entries(std::vector<std::string>* warnings) const {
    if (warnings == nullptr) return;
    size_t count = 0;
    size_t first = 0;
    for (size_t i = 0; i < proteins_.size(); ++i) {
      if (!proteins_[i].sequence.empty()) continue;
      if (count++ == 0) first = i;
    }
    if (count == 0) return;
    warnings->push_back(
        file_name_ + ": " + std::to_string(count) + (count == 1 ? " entry" : " entries") +
        " without a sequence (first at line " + std::to_string(header_lines_[first]) +
        ", accession " + proteins_[first].accession + ")");
  }

  // Keeps the first entry of each accession, in file order; a later entry with the same
  // accession is dropped and reported (naming both header lines). Hashes sorted rather than a
  // map of strings: a 200,000-entry database costs a sort of 200,000 integers.
  void drop_duplicate_accessions(std::vector<std::string>* warnings) {
    std::vector<std::pair<uint64_t, uint32_t>> keys;
    keys.reserve(proteins_.size());
    for (uint32_t i = 0; i < proteins_.size(); ++i) {
      keys.emplace_back(std::hash<std::string>{}(proteins_[i].accession), i);
    }
    std::sort(keys.begin(), keys.end());
    std::vector<std::pair<uint32_t, uint32_t>> dropped;  // (dropped index, kept index)
    for (size_t a = 0; a < keys.size();) {
      size_t b = a + 1;
      while (b < keys.size() && keys[b].first == keys[a].first) ++b;
      for (size_t i = a + 1; i < b; ++i) {  // rare: equal hashes; compare the strings
        for (size_t j = a; j < i; ++j) {
          if (proteins_[keys[j].second].accession == proteins_[keys[i].second].accession) {
            dropped.emplace_back(keys[i].second, keys[j].second);
            break;
          }
        }
      }
      a = b;
    }
    if (dropped.empty()) return;
    std::sort(dropped.begin(), dropped.end());
    // Within a hash group the indices ascend, so the entry found is the accession's first.
    // The first kListedRepeats are named one by one, the rest counted in one line (a FASTA of
    // decoys read with the wrong tag repeated 9,335 accessions: as many warning lines).
    size_t listed = 0;
    for (const auto& [later, first] : dropped) {
      if (warnings != nullptr && listed++ < kListedRepeats) {
        const bool same = proteins_[later].sequence == proteins_[first].sequence;
        warnings->push_back(file_name_ + ": accession " + proteins_[later].accession + " on line " +
                            std::to_string(header_lines_[later]) + " repeats line " +
                            std::to_string(header_lines_[first]) + " (" +
                            (same ? "same" : "different") + " sequence); the entry on line " +
                            std::to_string(header_lines_[later]) + " is not searched");
      }
    }
    if (warnings != nullptr && dropped.size() > kListedRepeats) {
      // Worded to sort after the lines above ("accession P..." < "accessions ..."): the
      // summary lists warnings in order.
      const size_t more = dropped.size() - kListedRepeats;
      warnings->push_back(
          file_name_ + ": accessions repeated by " + std::to_string(more) +
          (more == 1 ? " more entry, not searched either" : " more entries, not searched either"));
    }
    std::vector<bool> drop(proteins_.size(), false);
    for (const auto& entry : dropped) drop[entry.first] = true;
    size_t kept = 0;
    for (size_t i = 0; i < proteins_.size(); ++i) {
      if (drop[i]) continue;
      if (kept != i) proteins_[kept] = std::move(proteins_[i]);
      ++kept;
    }
    proteins_.resize(kept);
  }

  [[noreturn]] void fail(size_t offset, const std::string& what) const {
    throw ParseError(file_name_, offset, line_, what);
  }

  // The end of the header line starting at `begin`: its first '\n' before `end` (or `end`), or,
  // in a file with lone-'\r' line ends, its first '\r' if that comes first. (Only headers need
  // it: a '\r' in a sequence line is a blank, see sequence_line().) LF and CRLF files skip the
  // '\r' search: it cost ~5% of the parse of the CRLF SoCe database.
  size_t line_end(size_t begin, size_t end) const {
    const char* data = content_.data();
    const char* nl = static_cast<const char*>(std::memchr(data + begin, '\n', end - begin));
    const size_t lf = nl == nullptr ? end : static_cast<size_t>(nl - data);
    if (!lone_cr_) return lf;
    const char* cr = static_cast<const char*>(std::memchr(data + begin, '\r', lf - begin));
    return cr == nullptr ? lf : static_cast<size_t>(cr - data);
  }

  // Offsets of the '>' of every header line, i.e. every '>' at a line start (after '\n', or
  // after a lone '\r': old Mac OS line ends); `first` is the first line start (after a byte order
  // mark). Sets lone_cr_ when a '>' follows a '\r'.
  std::vector<size_t> header_offsets(size_t first) {
    std::vector<size_t> offsets;
    const char* data = content_.data();
    const size_t size = content_.size();
    size_t pos = first;
    while (pos < size) {
      const char* gt = static_cast<const char*>(std::memchr(data + pos, '>', size - pos));
      if (gt == nullptr) break;
      const size_t at = static_cast<size_t>(gt - data);
      if (at == first || data[at - 1] == '\n') {
        offsets.push_back(at);
      } else if (data[at - 1] == '\r') {
        offsets.push_back(at);
        lone_cr_ = true;
      }
      pos = at + 1;
    }
    return offsets;
  }

  // The lines of [begin, end) before the first header (sequence_line() checks they are blank).
  void lines(size_t begin, size_t end) {
    const char* data = content_.data();
    size_t pos = begin;
    while (pos < end) {
      const char* nl = static_cast<const char*>(std::memchr(data + pos, '\n', end - pos));
      const size_t line_end = nl == nullptr ? end : static_cast<size_t>(nl - data);
      ++line_;
      line_start_ = pos;
      sequence_line(content_.substr(pos, line_end - pos));
      pos = line_end + 1;
    }
  }

  // The sequence lines [begin, end) of the last protein: up to the next header line or the end of
  // the file, so end - begin bounds its length and the sequence is allocated once.
  //
  // Fast path, nearly every line of a real database: the line is as long as the previous one
  // (databases wrap at a fixed width) and holds only upper-case residues, then perhaps the '\r'
  // of CRLF. Checking that it is all residues also proves it holds no earlier '\n', so the line
  // end needs no search; the residues are appended with one copy. Any other line (the short last
  // one, lower case, blanks, '*', a bad byte) is found with memchr and takes sequence_line(),
  // which gives the exact result or error.
  void sequence_lines(size_t begin, size_t end) {
    const char* data = content_.data();
    std::string& seq = proteins_.back().sequence;
    seq.reserve(end - begin);
    size_t width = 0;  // the previous line's length, without its '\n'
    size_t pos = begin;
    while (pos < end) {
      ++line_;
      line_start_ = pos;
      if (width > 0 && pos + width < end && data[pos + width] == '\n') {
        const size_t residues = width - (data[pos + width - 1] == '\r' ? 1 : 0);
        if (all_upper(data + pos, residues)) {
          if (residues > 0) {
            if (stop_offset_ != kNoStop) stop_inside();
            seq.append(data + pos, residues);
          }
          pos += width + 1;
          continue;
        }
      }
      const char* nl = static_cast<const char*>(std::memchr(data + pos, '\n', end - pos));
      const size_t line_end = nl == nullptr ? end : static_cast<size_t>(nl - data);
      width = line_end - pos;
      sequence_line(content_.substr(pos, width));
      pos = line_end + 1;
    }
  }

  void header(std::string_view raw) {
    std::string_view text = trim(raw);
    if (text.empty()) fail(line_start_, "empty FASTA header: expected an accession after '>'");
    size_t token_end = 0;
    while (token_end < text.size() && !is_blank(text[token_end])) ++token_end;
    std::string_view token = text.substr(0, token_end);

    // The decoy tag may sit on the whole token ("rev_sp|P02769|ALBU_BOVIN", "sp|A9F596|
    // ACCA_SORC5_rev", "P02769|ALBU_BOVIN_rev") or on the UniProt accession itself
    // ("sp|DECOY_P02769|ALBU_BOVIN"). In every case the accession keeps the tag, so that a decoy
    // accession differs from its target's and says what it is.
    const std::string& tag = options_.decoy_tag;
    std::string_view untagged = token;
    bool token_tagged = false;
    if (!tag.empty() && token.size() > tag.size()) {
      if (options_.tag_is_suffix && ends_with(token, tag)) {
        untagged = token.substr(0, token.size() - tag.size());
        token_tagged = true;
      } else if (!options_.tag_is_suffix && starts_with(token, tag)) {
        untagged = token.substr(tag.size());
        token_tagged = true;
      }
    }
    std::string_view accession = accession_of(untagged);
    if (accession.empty()) fail(line_start_, "empty accession in FASTA header");
    if (!token_tagged && looks_like_decoy(token) && decoy_looking_++ == 0) {
      first_decoy_looking_line_ = line_;
      first_decoy_looking_ = printable_text(token.substr(0, 80));  // quoted in a warning
    }

    // Filled in place: the vector was reserved for every header, so this never reallocates.
    Protein& protein = proteins_.emplace_back();
    header_lines_.push_back(line_);
    protein.description.assign(trim(text.substr(token_end)));
    if (token_tagged && accession.size() != untagged.size()) {
      // UniProt header with the tag on the whole token: put the tag on the accession.
      protein.accession.reserve(accession.size() + tag.size());
      if (options_.tag_is_suffix) {
        protein.accession.append(accession).append(tag);
      } else {
        protein.accession.append(tag).append(accession);
      }
    } else {
      protein.accession.assign(token_tagged ? token : accession);
    }
    protein.is_decoy = false;
    if (!tag.empty()) {
      protein.is_decoy = options_.tag_is_suffix ? ends_with(protein.accession, tag)
                                                : starts_with(protein.accession, tag);
    }
    in_protein_ = true;
    stop_offset_ = kNoStop;
  }

  // True when every byte of [p, p + n) is 'A'..'Z'. No early exit, so the compiler vectorizes
  // it: one pass over a typical 60-80 residue line is a handful of SIMD compares.
  static bool all_upper(const char* p, size_t n) {
    unsigned char bad = 0;
    for (size_t i = 0; i < n; ++i) {
      bad |= static_cast<unsigned char>(static_cast<unsigned char>(p[i]) - 'A') > 'Z' - 'A';
    }
    return bad == 0;
  }

  // A '\r' at text[i] that is not the last byte of `text` (whose lines end at '\n') is a lone
  // '\r', an old Mac OS line end: count the line that starts after it, for error positions.
  void lone_cr(std::string_view text, size_t i) {
    if (i + 1 < text.size()) {
      ++line_;
      line_start_ = static_cast<size_t>(text.data() - content_.data()) + i + 1;
    }
  }

  void sequence_line(std::string_view text) {
    // A line that starts with ';' is a comment (Pearson's original FASTA format; NCBI calls it
    // obsolete, old databases still open with them): skipped, up to a lone '\r' in a file of
    // lone-'\r' lines, whose next line is read on.
    while (!text.empty() && text[0] == ';') {
      const size_t cr = text.find('\r');
      if (cr == std::string_view::npos || cr + 1 == text.size()) return;
      lone_cr(text, cr);
      text.remove_prefix(cr + 1);
    }
    const size_t text_start = static_cast<size_t>(text.data() - content_.data());
    if (!in_protein_) {
      for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\r') lone_cr(text, i);
        if (!is_blank(text[i])) {
          fail(text_start + i, "sequence before the first FASTA header ('>')");
        }
      }
      return;
    }
    // Fast path, nearly every line of a real database: upper-case residues, then perhaps the
    // '\r' of CRLF. Appended with one copy. Anything else (lower case, blanks, '*', a bad byte)
    // takes the per-character path below, which gives the exact result or error.
    size_t residues = text.size();
    if (residues > 0 && text[residues - 1] == '\r') --residues;
    if (all_upper(text.data(), residues)) {
      if (residues > 0) {
        if (stop_offset_ != kNoStop) stop_inside();
        proteins_.back().sequence.append(text.data(), residues);
      }
      return;
    }
    std::string& seq = proteins_.back().sequence;
    size_t i = 0;
    while (i < text.size()) {
      // A run of upper-case residues is appended at once.
      size_t run = i;
      while (run < text.size() && kByteClass[static_cast<unsigned char>(text[run])] == Byte::kUpper)
        ++run;
      if (run > i) {
        if (stop_offset_ != kNoStop) stop_inside();
        seq.append(text.data() + i, run - i);
        i = run;
        if (i == text.size()) break;
      }
      char c = text[i];
      switch (kByteClass[static_cast<unsigned char>(c)]) {
        case Byte::kUpper:
          break;  // unreachable: consumed by the run above
        case Byte::kLower:
          if (stop_offset_ != kNoStop) stop_inside();
          seq.push_back(static_cast<char>(c - 'a' + 'A'));
          break;
        case Byte::kBlank:
          if (c == '\r') lone_cr(text, i);
          break;
        case Byte::kStop:
          if (stop_offset_ == kNoStop) {
            stop_offset_ = text_start + i;
            stop_line_ = line_;
          }
          break;
        case Byte::kBad:
          fail(text_start + i, "unexpected character '" + printable_text(text.substr(i, 1)) +
                                   "' in the sequence of " + proteins_.back().accession +
                                   " (expected a residue letter)");
      }
      ++i;
    }
  }

  // A '*' followed by more residues: a stop codon inside a translated sequence. Dropping it would
  // join two unrelated stretches into peptides that do not exist, so it is an error.
  [[noreturn]] void stop_inside() const {
    throw ParseError(file_name_, stop_offset_, stop_line_,
                     "'*' inside the sequence of " + proteins_.back().accession +
                         " (only a trailing '*' is allowed)");
  }

  static constexpr uint64_t kNoStop = ~uint64_t{0};
  static constexpr size_t kListedRepeats = 10;  // repeated accessions named one by one

  std::string_view content_;
  const std::string& file_name_;
  const FastaOptions& options_;
  std::vector<Protein> proteins_;
  std::vector<uint64_t> header_lines_;  // the header line of each protein
  uint64_t decoy_looking_ = 0;          // headers without the tag that look like decoys
  uint64_t first_decoy_looking_line_ = 0;
  std::string first_decoy_looking_;  // its first word (its first 80 bytes, printable_text)
  bool in_protein_ = false;
  // The file has lone-'\r' line ends (old Mac OS) before a header or inside the first header:
  // header lines may then end at a '\r'.
  bool lone_cr_ = false;
  uint64_t line_ = 0;
  size_t line_start_ = 0;
  uint64_t stop_offset_ = kNoStop;  // byte offset of a '*' seen in the current protein
  uint64_t stop_line_ = 0;
};

}  // namespace

std::vector<Protein> parse_fasta(std::string_view content, const std::string& file_name,
                                 const FastaOptions& options, std::vector<std::string>* warnings) {
  return FastaParser(content, file_name, options).parse(warnings);
}

}  // namespace ionflow
