// Protein groups: the parsimonious protein list explaining the accepted peptides (Occam's razor,
// Nesvizhskii & Aebersold 2005, Mol. Cell. Proteomics 4:1419, "protein inference").
//
// Method:
//  1. Accepted peptides: the unmodified sequences of rank-1 PSMs with peptide_q <= max_peptide_q.
//     A target PSM counts for its target proteins only, a decoy PSM for its decoy proteins.
//  2. Proteins with identical sets of accepted peptides form one group (indistinguishable).
//  3. Greedy set cover: repeatedly keep the group explaining the most not-yet-explained
//     peptides (ties: higher score, then first accession); stop when every peptide is explained.
//     Groups whose peptides are all explained by kept groups — in particular subset proteins —
//     are dropped. Greedy set cover is a ln(n)-approximation of the minimal cover, which is what
//     IDPicker and ProteinProphet's parsimony step approximate as well.
//  4. A group's score is its best peptide score; its q-value the smallest picked-protein q-value
//     of its members (fdr.hpp), 1 when unknown. Peptides shared with another kept group are
//     listed in both (shared_peptides counts them).
//
// Thread-safe: pure function.
#pragma once

#include <string>
#include <vector>

#include "scoring/fdr.hpp"
#include "scoring/psm.hpp"

namespace ionflow {

struct ProteinGroup {
  std::vector<std::string> accessions;  // indistinguishable proteins, sorted; [0] names the group
  std::vector<std::string> peptides;    // accepted peptide sequences it contains, sorted
  int unique_peptides = 0;              // peptides found in no other kept group
  bool decoy = false;
  double score = 0.0;    // best Psm::score among its peptides
  double q_value = 1.0;  // best picked-protein q-value among its members
};

// Groups, best score first (ties by accession). `proteins` from assign_protein_q_values (may be
// empty: q-values stay 1).
std::vector<ProteinGroup> build_protein_groups(const std::vector<Psm>& psms,
                                               const std::vector<ProteinScore>& proteins,
                                               double max_peptide_q = 0.01);

}  // namespace ionflow
