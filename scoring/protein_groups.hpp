// Protein groups: the parsimonious protein list explaining the accepted peptides (Occam's razor,
// Nesvizhskii & Aebersold 2005, Mol. Cell. Proteomics 4:1419, "protein inference").
//
// Method:
//  1. Accepted peptides: the unmodified sequences (the residues of the ProForma) of rank-1 PSMs
//     with peptide_q <= max_peptide_q. A target PSM counts for its target proteins only, a decoy
//     PSM for its decoy proteins, so target and decoy groups share no peptide and the target
//     groups are those of the target PSMs alone. With max_peptide_q = kSummaryFdr they are
//     built from the peptides the job summary counts at 1% (fdr.hpp FdrCounts).
//  2. Proteins with identical sets of accepted peptides form one group (indistinguishable).
//  3. Greedy set cover: repeatedly keep the group explaining the most not-yet-explained
//     peptides (ties: higher score, then first accession); stop when every peptide is explained.
//     Groups whose peptides are all explained by kept groups — in particular subset proteins —
//     are dropped. Greedy set cover is a ln(n)-approximation of the minimal cover, which is what
//     IDPicker and ProteinProphet's parsimony step approximate as well. It runs lazily (a
//     group's count of new peptides only falls, so a group taken from a heap whose count is
//     still current is the best): the groups a rescan of every group at each step keeps, without
//     its groups x kept-groups cost on a large job.
//  4. A group's score is its best peptide score; its q-value the smallest picked-protein q-value
//     of its members (fdr.hpp), 1 when unknown. Peptides shared with another kept group are
//     listed in both (unique_peptides does not count them).
//
// The work is done on PsmFacts (psm_facts.hpp), the form the writer finalizes a job in; the
// std::vector<Psm> form is a wrapper. Thread-safe: pure functions.
#pragma once

#include <string>
#include <vector>

#include "scoring/fdr.hpp"
#include "scoring/psm.hpp"
#include "scoring/psm_facts.hpp"

namespace ionflow {

struct ProteinGroup {
  std::vector<std::string> accessions;  // indistinguishable proteins, sorted; [0] names the group
  std::vector<std::string> peptides;    // accepted peptide sequences it contains, sorted
  int unique_peptides = 0;              // peptides found in no other kept group
  bool decoy = false;
  double score = 0.0;    // best Psm::score among its peptides
  double q_value = 1.0;  // best picked-protein q-value among its members
};

// Groups of finalized facts, best score first (ties by accession), q-values from
// facts.accession_q (empty: q-values stay 1).
std::vector<ProteinGroup> build_protein_groups(const PsmFacts& facts,
                                               double max_peptide_q = kSummaryFdr);

// The same for Psms, q-values from `proteins` (assign_protein_q_values' list; may be empty:
// q-values stay 1).
std::vector<ProteinGroup> build_protein_groups(const std::vector<Psm>& psms,
                                               const std::vector<ProteinScore>& proteins,
                                               double max_peptide_q = kSummaryFdr);

}  // namespace ionflow
