#include "scoring/proforma.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace ionflow {

std::string proforma_tag(int unimod_accession, double mass_delta_da) {
  if (unimod_accession > 0) return "UNIMOD:" + std::to_string(unimod_accession);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%+.6f", mass_delta_da);
  std::string s(buffer);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

std::vector<AppliedModification> applied_modifications(const Peptide& peptide,
                                                       const PeptideIndex& index) {
  std::vector<AppliedModification> out;
  out.reserve(peptide.modifications.size());
  const int length = static_cast<int>(peptide.sequence.size());
  for (const auto& placed : peptide.modifications) {
    const Modification& m = index.modifications.at(placed.modification);
    AppliedModification a;
    a.position = placed.position;
    a.residue = (placed.position >= 0 && placed.position < length)
                    ? peptide.sequence[static_cast<size_t>(placed.position)]
                    : '\0';
    a.mass_delta_da = m.mass_delta_da;
    a.name = m.name;
    a.unimod_accession = m.unimod_accession;
    a.fixed = m.fixed;
    out.push_back(std::move(a));
  }
  return out;
}

std::string to_proforma(std::string_view sequence,
                        const std::vector<AppliedModification>& modifications) {
  const int length = static_cast<int>(sequence.size());
  std::vector<const AppliedModification*> sorted;
  sorted.reserve(modifications.size());
  for (const auto& m : modifications) {
    if (m.position >= -1 && m.position <= length) sorted.push_back(&m);
  }
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto* a, const auto* b) { return a->position < b->position; });
  std::string out;
  out.reserve(sequence.size() + 16 * sorted.size());
  size_t next = 0;
  auto tags_at = [&](int position) {
    while (next < sorted.size() && sorted[next]->position == position) {
      out += '[';
      out += proforma_tag(sorted[next]->unimod_accession, sorted[next]->mass_delta_da);
      out += ']';
      ++next;
    }
  };
  if (next < sorted.size() && sorted[next]->position == -1) {
    tags_at(-1);
    out += '-';
  }
  for (int i = 0; i < length; ++i) {
    out += sequence[static_cast<size_t>(i)];
    tags_at(i);
  }
  if (next < sorted.size() && sorted[next]->position == length) {
    out += '-';
    tags_at(length);
  }
  return out;
}

std::string to_proforma(const Peptide& peptide, const PeptideIndex& index) {
  return to_proforma(peptide.sequence, applied_modifications(peptide, index));
}

ParsedProforma parse_proforma(std::string_view text) {
  ParsedProforma out;
  auto fail = [&](size_t at, const std::string& why) {
    throw std::invalid_argument("ProForma '" + std::string(text) + "': " + why + " at offset " +
                                std::to_string(at));
  };
  // Reads "[tag]" at i (text[i] == '['); returns the offset after ']'.
  auto read_tag = [&](size_t i, int position) {
    const size_t close = text.find(']', i + 1);
    if (close == std::string_view::npos) fail(i, "unclosed '['");
    if (close == i + 1) fail(i, "empty tag");
    out.tags.push_back({position, std::string(text.substr(i + 1, close - i - 1))});
    return close + 1;
  };
  size_t i = 0;
  if (i < text.size() && text[i] == '[') {
    while (i < text.size() && text[i] == '[') i = read_tag(i, -1);
    if (i >= text.size() || text[i] != '-') fail(i, "expected '-' after the N-terminal tag");
    ++i;
  }
  while (i < text.size()) {
    const char c = text[i];
    if (c == '[') {
      if (out.sequence.empty()) fail(i, "tag before the first residue");
      i = read_tag(i, static_cast<int>(out.sequence.size()) - 1);
    } else if (c == '-') {
      if (out.sequence.empty() || i + 1 >= text.size() || text[i + 1] != '[') {
        fail(i, "'-' not followed by a C-terminal tag");
      }
      ++i;
      while (i < text.size() && text[i] == '[') {
        i = read_tag(i, static_cast<int>(out.sequence.size()));
      }
      if (i != text.size()) fail(i, "text after the C-terminal tag");
    } else if (c >= 'A' && c <= 'Z') {
      out.sequence += c;
      ++i;
    } else {
      fail(i, std::string("unexpected character '") + c + "'");
    }
  }
  if (out.sequence.empty()) fail(0, "no residues");
  return out;
}

}  // namespace ionflow
