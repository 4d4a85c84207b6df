#include "scoring/proforma.hpp"

#include <algorithm>
#include <cstdio>

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

}  // namespace ionflow
