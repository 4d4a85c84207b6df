// finalize_psms / finalize_psm_facts (declared in search.hpp): best PSMs per spectrum across
// charge queries, ranked by the search's statistic; optional semi-supervised rescoring
// (rescoring.hpp), whose score the q-values (fdr.hpp) then use without re-ranking.
// The work is done on PsmFacts (psm_facts.hpp); finalize_psms is a wrapper that carries the
// result back to whole Psms.
#include <algorithm>
#include <utility>

#include "scoring/fdr.hpp"
#include "scoring/psm_facts.hpp"
#include "scoring/rescoring.hpp"
#include "scoring/search.hpp"

namespace ionflow {

namespace {

bool better(const PsmFacts& table, const PsmFact& a, const PsmFact& b) {
  if (a.score != b.score) return a.score > b.score;
  if (a.hyperscore != b.hyperscore) return a.hyperscore > b.hyperscore;
  if (a.decoy != b.decoy) return !a.decoy;  // a tie goes to the target (conservative for FDR)
  return table.proforma(a.proforma) < table.proforma(b.proforma);
}

// Keeps the best `report` PSMs of each spectrum (one per peptide form and charge), ranked 1..n.
// Compacts in place: the kept facts are moved down over the dropped ones and the tail is erased.
void best_per_spectrum(PsmFacts& table, size_t report) {
  std::vector<PsmFact>& psms = table.facts;
  std::sort(psms.begin(), psms.end(), [&table](const PsmFact& a, const PsmFact& b) {
    if (a.file_index != b.file_index) return a.file_index < b.file_index;
    if (a.spectrum_index != b.spectrum_index) return a.spectrum_index < b.spectrum_index;
    return better(table, a, b);
  });
  size_t kept = 0;  // psms[0, kept) are the output so far
  for (size_t i = 0; i < psms.size();) {
    size_t j = i;
    while (j < psms.size() && psms[j].file_index == psms[i].file_index &&
           psms[j].spectrum_index == psms[i].spectrum_index) {
      ++j;
    }
    // Moving psms[k] down to `kept` (<= k) never overwrites a PSM of this group not yet read.
    const size_t group_start = kept;
    int rank = 0;
    for (size_t k = i; k < j && static_cast<size_t>(rank) < report; ++k) {
      bool duplicate = false;
      for (size_t m = group_start; m < kept; ++m) {
        // Interned ProForma ids are equal exactly when the strings are.
        duplicate |= psms[m].proforma == psms[k].proforma && psms[m].charge == psms[k].charge;
      }
      if (duplicate) continue;
      psms[k].rank = ++rank;
      if (kept != k) psms[kept] = psms[k];
      ++kept;
    }
    i = j;
  }
  psms.erase(psms.begin() + static_cast<std::ptrdiff_t>(kept), psms.end());
}

}  // namespace

void finalize_psm_facts(PsmFacts& facts, const SearchParameters& params) {
  const size_t report = static_cast<size_t>(std::max(1, params.report_psms));
  best_per_spectrum(facts, report);
  // The learned score replaces Psm::score for the q-values, but the ranks within a spectrum stay
  // those of the search's own statistic: re-ranking by it let a lower-ranked candidate with a
  // worse E-value but, say, a smaller precursor error take rank 1, so asking for more PSMs per
  // spectrum changed the rank-1 answers (an E. coli search at +-500 Da: 76 PSMs at 1% FDR with
  // report_psms 1, 17 with 2 or more; found by a new-user test).
  rescore_psms(facts.facts);
  assign_spectrum_q_values(facts.facts);
  assign_peptide_q_values(facts.facts);
  assign_protein_q_values(facts, params.database.decoy_tag, params.database.decoy_tag_is_suffix);
  facts.facts.shrink_to_fit();
}

void apply_psm_fact(const PsmFact& fact, Psm& psm) {
  psm.rank = fact.rank;
  psm.score = fact.score;
  psm.spectrum_q = fact.spectrum_q;
  psm.peptide_q = fact.peptide_q;
  psm.protein_q = fact.protein_q;
}

std::vector<Psm> finalize_psms(std::vector<Psm> psms, const SearchParameters& params) {
  PsmFacts facts = facts_of(psms);
  finalize_psm_facts(facts, params);
  std::vector<Psm> out;
  out.reserve(facts.facts.size());
  for (const PsmFact& fact : facts.facts) {
    out.push_back(std::move(psms[fact.arrival]));
    apply_psm_fact(fact, out.back());
  }
  return out;  // best_per_spectrum leaves file_index, spectrum_index, rank order
}

}  // namespace ionflow
