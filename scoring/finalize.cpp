// finalize_psms (declared in search.hpp): best PSMs per spectrum across charge queries, optional
// semi-supervised rescoring (rescoring.hpp), then q-values (fdr.hpp).
#include <algorithm>
#include <map>
#include <utility>

#include "scoring/fdr.hpp"
#include "scoring/rescoring.hpp"
#include "scoring/search.hpp"

namespace ionflow {

namespace {

bool better(const Psm& a, const Psm& b) {
  if (a.score != b.score) return a.score > b.score;
  if (a.hyperscore != b.hyperscore) return a.hyperscore > b.hyperscore;
  if (a.decoy != b.decoy) return !a.decoy;  // a tie goes to the target (conservative for FDR)
  return a.proforma < b.proforma;
}

// Keeps the best `report` PSMs of each spectrum (one per peptide form and charge), ranked 1..n.
// Compacts in place: the kept PSMs are moved down over the dropped ones and the tail is erased,
// so no second vector of PSMs exists (on the 683,905-query scale set a copy was ~190 MB of the
// peak).
void best_per_spectrum(std::vector<Psm>& psms, size_t report) {
  std::sort(psms.begin(), psms.end(), [](const Psm& a, const Psm& b) {
    if (a.file_index != b.file_index) return a.file_index < b.file_index;
    if (a.spectrum_index != b.spectrum_index) return a.spectrum_index < b.spectrum_index;
    return better(a, b);
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
        duplicate |= psms[m].proforma == psms[k].proforma && psms[m].charge == psms[k].charge;
      }
      if (duplicate) continue;
      psms[k].rank = ++rank;
      if (kept != k) psms[kept] = std::move(psms[k]);
      ++kept;
    }
    i = j;
  }
  psms.erase(psms.begin() + static_cast<std::ptrdiff_t>(kept), psms.end());
}

}  // namespace

std::vector<Psm> finalize_psms(std::vector<Psm> psms, const SearchParameters& params) {
  const size_t report = static_cast<size_t>(std::max(1, params.report_psms));
  std::vector<Psm> out = std::move(psms);
  best_per_spectrum(out, report);
  if (rescore_psms(out)) {
    // The new score can reorder a spectrum's PSMs: rank again.
    best_per_spectrum(out, report);
  }
  assign_spectrum_q_values(out);
  assign_peptide_q_values(out);
  assign_protein_q_values(out, params.database.decoy_tag, params.database.decoy_tag_is_suffix);
  return out;  // best_per_spectrum leaves file_index, spectrum_index, rank order
}

}  // namespace ionflow
