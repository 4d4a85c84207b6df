// finalize_psms / finalize_psm_facts (declared in search.hpp): best PSMs per spectrum across
// charge queries, ranked by the search's statistic; the precursor-error likelihood ratio
// (precursor_calibration.hpp) and optional semi-supervised rescoring (rescoring.hpp), whose score
// the q-values (fdr.hpp; the decoy count tail-bounded unless rescored) then use without
// re-ranking. The work is done on PsmFacts (psm_facts.hpp); finalize_psms is a wrapper that
// carries the result back to whole Psms.
#include <algorithm>
#include <utility>

#include "scoring/fdr.hpp"
#include "scoring/precursor_calibration.hpp"
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
// The PSMs of one charge query keep the scorer's order (its rank: the combined score, ties by
// peptide): the spectrum's list is a merge of its charge queries' lists, taking the better head
// (`better`) each time. So the rank-1 PSM is the better of the queries' rank-1 PSMs whatever
// report_psms is: re-sorting all of them by `better` let a query's rank-2 PSM with the same
// E-value but a higher hyperscore take rank 1 once it was reported (BSA1: one spectrum, and
// through the rescoring 730 of 925 rank-1 spectrum_q values changed with report_psms 5).
// Compacts in place: the kept facts are moved down over the dropped ones and the tail is erased.
void best_per_spectrum(PsmFacts& table, size_t report) {
  std::vector<PsmFact>& psms = table.facts;
  std::sort(psms.begin(), psms.end(), [&table](const PsmFact& a, const PsmFact& b) {
    if (a.file_index != b.file_index) return a.file_index < b.file_index;
    if (a.spectrum_index != b.spectrum_index) return a.spectrum_index < b.spectrum_index;
    if (a.charge != b.charge) return a.charge < b.charge;
    if (a.rank != b.rank) return a.rank < b.rank;
    return better(table, a, b);
  });
  std::vector<PsmFact> group;
  std::vector<std::pair<size_t, size_t>> heads;  // per charge query: [next, end) in `group`
  size_t kept = 0;  // psms[0, kept) are the output so far; kept <= i (the group's start)
  for (size_t i = 0; i < psms.size();) {
    size_t j = i;
    while (j < psms.size() && psms[j].file_index == psms[i].file_index &&
           psms[j].spectrum_index == psms[i].spectrum_index) {
      ++j;
    }
    group.assign(psms.begin() + static_cast<std::ptrdiff_t>(i),
                 psms.begin() + static_cast<std::ptrdiff_t>(j));
    heads.clear();
    for (size_t k = 0; k < group.size(); ++k) {
      if (k == 0 || group[k].charge != group[k - 1].charge) heads.push_back({k, k});
      heads.back().second = k + 1;
    }
    const size_t group_start = kept;
    int rank = 0;
    while (static_cast<size_t>(rank) < report) {
      size_t pick = heads.size();
      for (size_t h = 0; h < heads.size(); ++h) {
        if (heads[h].first == heads[h].second) continue;
        if (pick == heads.size() ||
            better(table, group[heads[h].first], group[heads[pick].first])) {
          pick = h;
        }
      }
      if (pick == heads.size()) break;
      const PsmFact& next = group[heads[pick].first++];
      bool duplicate = false;
      for (size_t m = group_start; m < kept; ++m) {
        // Interned ProForma ids are equal exactly when the strings are.
        duplicate |= psms[m].proforma == next.proforma && psms[m].charge == next.charge;
      }
      if (duplicate) continue;
      psms[kept] = next;
      psms[kept].rank = ++rank;
      ++kept;
    }
    i = j;
  }
  psms.erase(psms.begin() + static_cast<std::ptrdiff_t>(kept), psms.end());
}

}  // namespace

FinalizeReport finalize_psm_facts(PsmFacts& facts, const SearchParameters& params) {
  FinalizeReport report;
  best_per_spectrum(facts, static_cast<size_t>(std::max(1, params.report_psms)));
  // The learned score replaces Psm::score for the q-values, but the ranks within a spectrum stay
  // those of the search's own statistic: re-ranking by it let a lower-ranked candidate with a
  // worse E-value but, say, a smaller precursor error take rank 1, so asking for more PSMs per
  // spectrum changed the rank-1 answers (an E. coli search at +-500 Da: 76 PSMs at 1% FDR with
  // report_psms 1, 17 with 2 or more; found by a new-user test).
  report.precursor_calibration =
      calibrate_precursor_errors(facts.facts, params.precursor_tolerance);
  // The search's statistic is on the -log10 E scale, whose null tail bounds the decoy count of
  // small runs (fdr.hpp); a rescored score is not, and its runs cut among many decoys. Proteins
  // keep D/T (fdr.hpp: not measured by the entrapment check), their q no smaller than their
  // best peptide's.
  const DecoyCount count = rescore_psms(facts.facts, &report.rescoring) ? DecoyCount::kObserved
                                                                        : DecoyCount::kTailBounded;
  assign_spectrum_q_values(facts.facts, count);
  assign_peptide_q_values(facts.facts, count);
  assign_protein_q_values(facts, params.database.decoy_tag, params.database.decoy_tag_is_suffix,
                          DecoyCount::kObserved, ProteinQFloor::kBestPeptide);
  facts.facts.shrink_to_fit();
  return report;
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
