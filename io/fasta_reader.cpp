// FASTA parsing from memory; see fasta_reader.hpp for the rules.
#include "io/fasta_reader.hpp"

#include <array>
#include <cstring>

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

class FastaParser {
 public:
  FastaParser(std::string_view content, const std::string& file_name, const FastaOptions& options)
      : content_(content), file_name_(file_name), options_(options) {}

  std::vector<Protein> parse() {
    size_t pos = 0;
    if (starts_with(content_, "\xEF\xBB\xBF")) pos = 3;  // UTF-8 byte order mark
    while (pos < content_.size()) {
      const char* nl =
          static_cast<const char*>(std::memchr(content_.data() + pos, '\n', content_.size() - pos));
      size_t end = nl == nullptr ? content_.size() : static_cast<size_t>(nl - content_.data());
      ++line_;
      line_start_ = pos;
      std::string_view text = content_.substr(pos, end - pos);
      if (!text.empty() && text[0] == '>') {
        header(text.substr(1));
      } else {
        sequence_line(text);
      }
      pos = end + 1;
    }
    finish_protein();
    return std::move(proteins_);
  }

 private:
  [[noreturn]] void fail(size_t offset, const std::string& what) const {
    throw ParseError(file_name_, offset, line_, what);
  }

  void header(std::string_view raw) {
    finish_protein();
    std::string_view text = trim(raw);
    if (text.empty()) fail(line_start_, "empty FASTA header: expected an accession after '>'");
    size_t token_end = 0;
    while (token_end < text.size() && !is_blank(text[token_end])) ++token_end;
    std::string_view token = text.substr(0, token_end);
    Protein protein;
    protein.description.assign(trim(text.substr(token_end)));
    protein.is_decoy = false;

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
    if (token_tagged && accession.size() != untagged.size()) {
      // UniProt header with the tag on the whole token: put the tag on the accession.
      protein.accession =
          options_.tag_is_suffix ? std::string(accession) + tag : tag + std::string(accession);
    } else {
      protein.accession.assign(token_tagged ? token : accession);
    }
    if (!tag.empty()) {
      protein.is_decoy = options_.tag_is_suffix ? ends_with(protein.accession, tag)
                                                : starts_with(protein.accession, tag);
    }
    protein.sequence.reserve(expected_length_);
    proteins_.push_back(std::move(protein));
    in_protein_ = true;
    stop_offset_ = kNoStop;
  }

  void sequence_line(std::string_view text) {
    if (!in_protein_) {
      for (size_t i = 0; i < text.size(); ++i) {
        if (!is_blank(text[i])) {
          fail(line_start_ + i, "sequence before the first FASTA header ('>')");
        }
      }
      return;
    }
    std::string& seq = proteins_.back().sequence;
    size_t i = 0;
    while (i < text.size()) {
      // Fast path: a run of upper-case residues is appended at once.
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
          break;
        case Byte::kStop:
          if (stop_offset_ == kNoStop) {
            stop_offset_ = line_start_ + i;
            stop_line_ = line_;
          }
          break;
        case Byte::kBad:
          fail(line_start_ + i, std::string("unexpected character '") + printable(c) +
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

  static std::string printable(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) return std::string(1, c);
    static const char* hex = "0123456789abcdef";
    return std::string("\\x") + hex[u >> 4] + hex[u & 15];
  }

  void finish_protein() {
    if (in_protein_) expected_length_ = proteins_.back().sequence.size();
  }

  static constexpr uint64_t kNoStop = ~uint64_t{0};

  std::string_view content_;
  const std::string& file_name_;
  const FastaOptions& options_;
  std::vector<Protein> proteins_;
  bool in_protein_ = false;
  uint64_t line_ = 0;
  size_t line_start_ = 0;
  size_t expected_length_ = 0;      // capacity hint: the previous protein's length
  uint64_t stop_offset_ = kNoStop;  // byte offset of a '*' seen in the current protein
  uint64_t stop_line_ = 0;
};

}  // namespace

std::vector<Protein> parse_fasta(std::string_view content, const std::string& file_name,
                                 const FastaOptions& options) {
  return FastaParser(content, file_name, options).parse();
}

}  // namespace ionflow
