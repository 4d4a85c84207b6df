#include "scoring/decoy.hpp"

#include <algorithm>

namespace ionflow {

std::string reverse_peptide(std::string_view peptide) {
  std::string out(peptide);
  if (out.size() > 1) std::reverse(out.begin(), out.end() - 1);
  return out;
}

int decoy_position(int position, int length) {
  if (position < 0 || position >= length - 1) return position;
  return length - 2 - position;
}

std::string decoy_accession(std::string_view accession, std::string_view tag, bool tag_is_suffix) {
  std::string out;
  out.reserve(accession.size() + tag.size());
  if (tag_is_suffix) {
    out.append(accession).append(tag);
  } else {
    out.append(tag).append(accession);
  }
  return out;
}

Protein decoy_protein(const Protein& target, std::string_view tag, bool tag_is_suffix,
                      bool reverse_sequence) {
  Protein decoy;
  decoy.accession = decoy_accession(target.accession, tag, tag_is_suffix);
  decoy.description = target.description;
  decoy.sequence = target.sequence;
  if (reverse_sequence) std::reverse(decoy.sequence.begin(), decoy.sequence.end());
  decoy.is_decoy = true;
  return decoy;
}

}  // namespace ionflow
