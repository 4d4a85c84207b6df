// SpectrumScorer (declared in search.hpp): candidate generation by precursor mass, two scores per
// candidate (hyperscore and XCorr), and a per-spectrum E-value from survival fits of a null
// distribution.
//
// 1. Candidates: for each isotope error k of params.isotope_errors, the peptides whose neutral
//    mass m satisfies Tolerance::contains(m, expmass − k·C13), i.e. the observed mass lies in the
//    precursor window around the theoretical one (asymmetric windows allowed). A peptide reached
//    by two isotope errors keeps the smaller |k|.
//    Wide windows (open search): with a FragmentIndex and more than kFragmentPrefilterAbove
//    window peptides, the candidates are only the kFragmentTopK peptides sharing the most
//    fragment peaks with the query (FragmentSearcher, the first pass of MSFragger and Sage).
//    With FragmentSlices instead (an index over the memory budget) every slice the query's
//    precursor windows overlap is searched in turn and the slices' top-K merged: slices
//    partition the peptide ids, so the candidates are those of the whole index, bit for bit.
// 2. Scores: fragments of params.ion_types at charges 1..fragment_charge_limit (ion_series.hpp);
//    hyperscore (hyperscore.hpp) against the 50 most intense prepared peaks (X!Tandem's
//    "spectrum, total peaks" default; 100 for high-resolution fragment windows,
//    hyperscore_peak_count), XCorr (xcorr.hpp) against all prepared peaks (a high-resolution
//    bin that two fragments reach counted once).
//    The hyperscore match goes through a per-query PeakTable (peak_table.hpp: match_fragments'
//    result, one table read per fragment); fragment ppm errors are summed for candidates only.
//    Null peptides are collected first and scored in one pass that prefetches each peptide's
//    residues and modifications (PeptideIndex's shared buffers) a few peptides ahead. Output is
//    bit-identical to the plain loop.
// 3. Null distribution: the candidates plus, while fewer than kNearestNullPeptides = 400 peptides
//    are scored (a 10 ppm window always gives fewer), the null-pool peptides (PeptideIndex::
//    null_pool(): a fixed 1-in-stride sample of the database's sequences, peptide_index.hpp)
//    nearest in neutral mass outside the windows — as Comet fills a sparse XCorr histogram with
//    decoy scores (Eng et al. 2013, Proteomics 13:22). A sample rather than every peptide, so
//    that a narrow search indexes only its windows' peptides and the pool
//    (precursor_selection.hpp); on the BSA example database the 400 span about ±15 Da. Each is
//    scored mass-matched: the terminus away from the enzyme's sites carries the difference to
//    the query's neutral mass (the N-terminus for trypsin, Lys-C, Glu-C...; the C-terminus for
//    Lys-N and Asp-N, Enzyme::cleaves_c_terminal), so b_i + y_(n-i) equals the precursor's sum
//    as for a candidate (a null peptide of another mass lacks those complementary matches and
//    scores too low; Comet's decoy XCorrs are likewise built at the precursor mass), while the
//    ions of the cleavage end stay where a candidate's are: every tryptic peptide ends in K or
//    R, so a random candidate's y1 (and, when it shares the last residues, y2, y3) lands on the
//    spectrum's true y ions. Until 2026-12-05 the C-terminus always carried it: the null's y
//    ions seldom matched so (y1: 6% of null peptides on the yeast run, 97% now), and on
//    high-resolution HCD runs, where y1 is among the strongest peaks, the null was too weak
//    and random matches looked too significant. Measured after the change (saved perf/ident
//    outputs, rank-1 decoys found before and after): their E-values rose 8x on the yeast mzML run
//    (median +0.91 decades), 6x on its MGF (+0.79), 1.7x on E. coli (+0.22); on the ion-trap BSA
//    runs, whose y1 lies mostly below the low-mass cutoff (rank-1 decoys match it in ~10% of
//    spectra), they moved by -0.02 to 0.00 with a spread of ~0.2 decades (a reshuffle). perf/ident
//    (40 searches, peers reused; C-terminus -> N-terminus): PSMs at 1% by E-value through the
//    common D/T script 1,780 -> 1,784 (at least the best peer on 21 -> 23 searches), by the own q
//    1,954 -> 1,932 (BSA3 31 -> 21, the pooled run 182 -> 162, Ecoli 85 -> 90, the yeast run 68 ->
//    71); entrapment PSMs pooled over the own databases by E-value 17 of 348 (5.1%) -> 4 of 314
//    (1.3%), by the own q 5 -> 2 — all of those removed in the BSA and pooled runs, where the
//    change only reshuffles E-values: as likely chance as the mechanism. Tried as well: the
//    difference on the middle residue (short b and y ions both unmoved) 1,804 / 1,934 with 9
//    entrapment PSMs by E-value; on either terminus by peptide parity 1,770 / 1,941, 7.
//    For each spectrum:
//      p_hs(s), p_xc(s)  survival fits (evalue.hpp) of the hyperscores and of the XCorrs of all
//                        scored peptides, each leaving out its single best value;
//      combined          c = −log10 p_hs(hyperscore) − log10 p_xc(XCorr)  (Fisher-style sum of
//                        the two log p-values; a candidate with no matched fragment gets 0 for
//                        the hyperscore part);
//      E-value           a third survival fit over c of all scored peptides (best left out):
//                        Psm::evalue = E_fit(c) = expected number of the ~400 scored peptides
//                        with a combined statistic >= c (Comet's E-value definition on a
//                        histogram of fixed size). When a fit fails, the empirical count
//                        (#null >= c + 1)/(N + 1) · N is used.
//    With the fragment prefilter the candidates were chosen for their matches, so they leave the
//    fits: the null is instead kNullPeptides window peptides at an even stride over the windows
//    (a sample of the peptides tested). Two estimates of the expected number of random matches
//    among every peptide the query was tested against (N window peptides) then exist:
//      E_sample = p_fit(c) · N     the sample's fit, extrapolated from its ~800 values to
//                                  p ~ 1/N (3-4 decades on an open search of a large database)
//      E_tail   = E_fit'(c)        the survival fit over c of the prefilter's top candidates but
//                                  the best (X!Tandem's and Comet's way: a fit of the tail
//                                  itself, absolute counts, as the top candidates hold the
//                                  window's high scorers); that tail also holds relatives of the
//                                  best peptide (its modified forms, overlapping peptides
//                                  sharing its fragments), so it counts too many
//    and E = sqrt(E_sample · E_tail), their geometric mean; E_sample alone when the tail fit
//    fails or fewer than kFragmentTopK / 2 candidates were scored. (A first open search that
//    fitted on the candidates alone accepted 3 PSMs on BSA1 instead of 36: perf/README.md.)
//    Measured (perf/ident, 2026-12-05; the six searches that use it: BSA1-3 at ±1.2 Da with the
//    entrapment proteomes, BSA1 and E. coli at ±500 Da; own-q PSMs / E-value PSMs through the
//    common D/T script): E_sample alone 201 / 189; E_tail alone 254 / 167, but BSA1 at
//    ±500 Da 1 PSM by E-value (was 12) and two entrapment PSMs more at the own q; the larger of
//    the two 228 / 178; the geometric mean 233 / 186 with no entrapment PSM more (E. coli
//    ±500 Da with the entrapment proteomes: own q 54 -> 61, E-value 34 -> 43; Comet 52).
//    Candidates are ranked by c; Psm::score = −log10 E-value; Psm::delta_next = c − c of the
//    next-ranked candidate.
// Measured (perf/tool_core_search, demo settings, target PSMs at 1% FDR before rescoring):
//   −log10 E of hyperscore alone 46/47/35 on BSA1/2/3, of XCorr alone 68/29/24, combined
//   60/48/34; Ecoli 86, 80, 88 (with 1000 null peptides).
// Null size, with the nearest peptides of the whole index (perf/tool_core_search, PSMs at 1% FDR
// after rescoring, BSA1/BSA2/BSA3/Ecoli, and the first 20,000 queries of the scale set against
// the 4.50 M-peptide human-size database; scorer thread-CPU queries/s on the loaded shared 2-core
// machine, ±10%):
//   1000: 63/48/43/88, scale 951 PSMs, ~3,000-3,200 q/s per core on the scale slice
//    800: 62/49/40/88, scale 937 PSMs, ~4,100 q/s per core
//    700: 64/45/40/89, scale 905;  500: 62/-/-/87;  300: 57/-/-/84.
// With the null pool, mass-matched: perf/compare/run.sh (target PSMs at 1% FDR on the E-value,
// as for Comet and X!Tandem, BSA1/2/3/Ecoli; own spectrum q in parentheses) and the 100,000-query
// scale set (own q, scorer queries/s per core):
//   whole index, 800, not mass-matched (before the pool): 58/44/37/88 (62/49/40/88)
//   pool, 800, not mass-matched: 52/41/29/89 (62/46/37/89); at 400 the whole index gave 46/32/32
//   pool, 800: 64/46/31/89 (67/46/42/89), scale 4,920 PSMs, 5,063 q/s
//   pool, 600: 60/47/35/86 (68/47/43/86);  500: 60/46/41/81 (66/48/42/81)
//   pool, 400: 57/51/32/82 (65/51/43/85), scale 4,609 PSMs, 8,622 q/s
// (counts of a few dozen PSMs move by ±5 between neighbouring settings). 400 halves the scoring
// time; the open-search null (below) keeps kNullPeptides = 800.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "scoring/enzyme.hpp"
#include "scoring/evalue.hpp"
#include "scoring/fragment_index.hpp"
#include "scoring/fragment_pass.hpp"
#include "scoring/fragment_slices.hpp"
#include "scoring/hyperscore.hpp"
#include "scoring/ion_series.hpp"
#include "scoring/mass.hpp"
#include "scoring/peak_table.hpp"
#include "scoring/precursor_window.hpp"
#include "scoring/proforma.hpp"
#include "scoring/search.hpp"
#include "scoring/xcorr.hpp"

namespace ionflow {

namespace {

// Peptides scored per query for the null distribution (candidates included); see the measured
// trade-off above: narrow windows (nearest null-pool peptides), and the sampled null of wide
// windows with the fragment prefilter.
constexpr size_t kNearestNullPeptides = 400;
constexpr size_t kNullPeptides = 800;

// Step 1 with a FragmentIndex (wide windows): above kFragmentPrefilterAbove window peptides,
// only the kFragmentTopK that share the most fragment peaks with the query are scored in full.
// Measured (precursor ±150 Da, isotope error 0, demo settings otherwise; one core; target PSMs
// at 1% FDR after rescoring): BSA1 exhaustive 58.9 s / 36 PSMs, top 400 3.6 s / 33, top 800
// 4.2 s / 37, top 1600 5.0 s / 5 (one decoy near the top: small-number noise); E. coli
// exhaustive 2.17 s / 79, top 800 0.28 s / 78, top 1600 0.38 s / 74.
static_assert(kFragmentPrefilterAbove == 4 * kNullPeptides);
static_assert(kFragmentTopK == kNullPeptides);

struct Candidate {
  uint32_t peptide = 0;
  int isotope_error = 0;
  double primary = 0.0;
  double hyperscore = 0.0;
  double xcorr = 0.0;
  int matched = 0;
  int theoretical = 0;
  double summed_abs_ppm = 0.0;
};

struct MassWindow {
  int isotope_error = 0;
  size_t first = 0;  // [first, last) of PeptideIndex peptide ids
  size_t last = 0;
};

// `masses`: PeptideIndex::masses(), ascending.
size_t lower_index(const std::vector<double>& masses, double mass_da) {
  return std::lower_bound(masses.begin(), masses.end(), mass_da) - masses.begin();
}
size_t upper_index(const std::vector<double>& masses, double mass_da) {
  return std::upper_bound(masses.begin(), masses.end(), mass_da) - masses.begin();
}

}  // namespace

struct SpectrumScorer::Impl {
  std::shared_ptr<const PeptideIndex> index;
  SearchParameters params;
  IonTypes ion_types;
  std::shared_ptr<const FragmentIndex> fragment_index;  // may be null
  std::shared_ptr<FragmentSlices> fragment_slices;      // or this; may be null
  std::unique_ptr<FragmentSearcher> fragment_searcher;  // with either
  FragmentCandidates prefiltered;
  std::vector<PrecursorWindow> slice_windows;     // the query's windows, to pick slices
  std::vector<std::pair<size_t, size_t>> needed;  // slice numbers [a, b) per window
  std::vector<size_t> missing;                    // of those, the slices not in memory
  bool sampled_null = false;                      // this query's null is collect_window_sample()

  // Scratch, reused for every query and candidate.
  ModifiedResidues residues;
  std::vector<Fragment> fragments;
  std::vector<MassWindow> windows;
  std::vector<Candidate> candidates;
  // Null scores of each fit (top value left out): hyperscore, XCorr, combined; and, with a
  // sampled null, the candidates' combined statistic but the best (E_tail, step 3).
  std::vector<double> null_hs, null_xc, null_combined, tail_scores;
  SurvivalFitter hs_fitter{0.1};
  SurvivalFitter xc_fitter{0.05};
  SurvivalFitter fitter{0.1};
  std::vector<Candidate> nulls;
  std::vector<Peak> hyperscore_peaks;
  XcorrSpectrum xcorr;
  PeakTable peak_table;  // over hyperscore_peaks

  // How a peptide is scored: a candidate also sums its fragment ppm errors; a mass-matched null
  // peptide (step 3) carries the difference to the query's neutral mass on the terminus away
  // from the enzyme's sites (its b ions move for trypsin, its y ions for Lys-N), and b_i +
  // y_(n-i) then sums to the precursor's like a candidate's.
  enum class Role { kCandidate, kNull, kMassMatchedNull };
  bool shift_null_n_terminus = true;  // the enzyme cleaves C-terminal to its residues

  Candidate score_peptide(const Query& query, uint32_t peptide_index, int fragment_charge,
                          Role role) {
    const Peptide peptide = index->peptide(peptide_index);
    modified_residue_masses(peptide, index->modifications, residues);
    if (role == Role::kMassMatchedNull) {
      const double difference = query.neutral_mass - peptide.neutral_mass_da;
      (shift_null_n_terminus ? residues.n_term_da : residues.c_term_da) += difference;
    }
    Candidate c;
    c.peptide = peptide_index;
    FragmentScores scored;  // one pass over the fragments (fragment_pass.hpp), else three
    if (!score_fragments(residues, ion_types, fragment_charge, peak_table, xcorr,
                         role == Role::kCandidate, scored)) {
      fragment_ions(residues, ion_types, fragment_charge, fragments);
      scored.matches = peak_table.match(fragments, role == Role::kCandidate);
      scored.xcorr = xcorr.score(fragments);
      scored.fragments = static_cast<int>(fragments.size());
    }
    const FragmentMatches& m = scored.matches;
    c.hyperscore = hyperscore(m);
    c.xcorr = scored.xcorr;
    c.matched = m.total_matched;
    c.theoretical = scored.fragments;
    c.summed_abs_ppm = m.summed_abs_ppm;
    return c;
  }

  void find_windows(const Query& query) {
    windows.clear();
    const std::vector<double>& masses = index->masses();
    for (int k : params.isotope_errors) {
      auto [lo, hi] = precursor_window_da(params, query.neutral_mass, k);
      MassWindow w{k, lower_index(masses, lo), upper_index(masses, hi)};
      if (w.first < w.last) windows.push_back(w);
    }
  }

  bool in_windows(size_t i) const {
    for (const MassWindow& w : windows) {
      if (i >= w.first && i < w.last) return true;
    }
    return false;
  }

  // Appends to `nulls` the peptides nearest to the query mass outside the windows (ids only,
  // unscored), until candidates + nulls reach kNearestNullPeptides.
  void collect_null(const Query& query) {
    const std::vector<double>& masses = index->masses();
    const std::vector<uint32_t>& pool = index->null_pool();
    nulls.clear();
    if (candidates.size() >= kNearestNullPeptides || pool.empty()) return;
    const size_t wanted = kNearestNullPeptides - candidates.size();
    // Positions in `pool`: the first peptide at or above the query mass, and its left neighbour.
    size_t right =
        std::partition_point(pool.begin(), pool.end(),
                             [&](uint32_t id) { return masses[id] < query.neutral_mass; }) -
        pool.begin();
    size_t left = right;  // next to take on the left is left - 1
    while (nulls.size() < wanted && (left > 0 || right < pool.size())) {
      bool take_left;
      if (left == 0) {
        take_left = false;
      } else if (right >= pool.size()) {
        take_left = true;
      } else {
        take_left =
            query.neutral_mass - masses[pool[left - 1]] < masses[pool[right]] - query.neutral_mass;
      }
      const size_t i = pool[take_left ? --left : right++];
      if (in_windows(i)) continue;
      Candidate c;
      c.peptide = static_cast<uint32_t>(i);
      nulls.push_back(c);
    }
  }

  // Wide windows with the fragment prefilter: kNullPeptides window peptides at an even stride
  // over the (merged) window id ranges — a sample of the peptides the query was tested against,
  // unbiased by the prefilter's choice.
  void collect_window_sample() {
    nulls.clear();
    thread_local std::vector<std::pair<size_t, size_t>> ranges;
    ranges.clear();
    for (const MassWindow& w : windows) ranges.push_back({w.first, w.last});
    std::sort(ranges.begin(), ranges.end());
    size_t total = 0, end = 0;
    for (const auto& [a, b] : ranges) {
      if (std::max(a, end) < b) total += b - std::max(a, end), end = b;
    }
    const size_t stride = std::max<size_t>(1, total / kNullPeptides);
    size_t position = 0;  // of the range's first id within the union
    end = 0;
    for (auto [a, b] : ranges) {
      a = std::max(a, end);
      if (a >= b) continue;
      end = b;
      for (size_t i = a + (stride - position % stride) % stride; i < b; i += stride) {
        Candidate c;
        c.peptide = static_cast<uint32_t>(i);
        nulls.push_back(c);
      }
      position += b - a;
    }
  }

  // Prefetches the residues and modifications of a peptide scored soon: records are
  // contiguous in mass order but the shared buffers are in sequence order, so these lines are
  // scattered on a large index.
  void prefetch_peptide(uint32_t peptide_index) const {
    const PeptideRecord& r = index->records()[peptide_index];
    __builtin_prefetch(index->residues().data() + r.residues);
    if (r.modification_count != 0) {
      __builtin_prefetch(index->placed_modifications().data() + r.modifications);
    }
  }

  // Scores every entry of `list` in place (isotope error kept), prefetching ahead: the 24-byte
  // PeptideRecord kFar entries ahead, the buffers it points into kNear entries ahead.
  void score_all(const Query& query, std::vector<Candidate>& list, int fragment_charge, Role role) {
    constexpr size_t kNear = 4;
    constexpr size_t kFar = 16;
    const PeptideRecord* records = index->records().data();
    for (size_t j = 0; j < std::min(kFar, list.size()); ++j) {
      __builtin_prefetch(records + list[j].peptide);
    }
    for (size_t j = 0; j < std::min(kNear, list.size()); ++j) prefetch_peptide(list[j].peptide);
    for (size_t j = 0; j < list.size(); ++j) {
      if (j + kFar < list.size()) __builtin_prefetch(records + list[j + kFar].peptide);
      if (j + kNear < list.size()) prefetch_peptide(list[j + kNear].peptide);
      const int k = list[j].isotope_error;
      list[j] = score_peptide(query, list[j].peptide, fragment_charge, role);
      list[j].isotope_error = k;
    }
  }

  // Survival fit of one score over candidates and nulls, leaving out the single best value.
  template <typename Get>
  // With sampled_null the candidates (chosen for their matches) are left out altogether.
  SurvivalFit fit_without_top(SurvivalFitter& f, std::vector<double>& null_scores, Get get) {
    null_scores.clear();
    size_t top = 0;
    bool top_in_candidates = true;
    double best = -1e300;
    const size_t fitted_candidates = sampled_null ? 0 : candidates.size();
    for (size_t i = 0; i < fitted_candidates; ++i) {
      if (get(candidates[i]) > best) best = get(candidates[i]), top = i;
    }
    for (size_t i = 0; i < nulls.size(); ++i) {
      if (get(nulls[i]) > best) best = get(nulls[i]), top = i, top_in_candidates = false;
    }
    for (size_t i = 0; i < fitted_candidates; ++i) {
      if (!(top_in_candidates && i == top)) null_scores.push_back(get(candidates[i]));
    }
    for (size_t i = 0; i < nulls.size(); ++i) {
      if (!(!top_in_candidates && i == top)) null_scores.push_back(get(nulls[i]));
    }
    const SurvivalFit fit = f.fit(null_scores);
    if (!fit.valid) std::sort(null_scores.begin(), null_scores.end());  // for minus_log10_p
    return fit;
  }

  // −log10 p of `score` under `fit`, or the empirical estimate when the fit failed.
  static double minus_log10_p(const SurvivalFit& fit, const std::vector<double>& null_scores,
                              double score) {
    if (fit.valid) return -fit.log10_p_value(score);
    // REQUIRES: null_scores sorted ascending (fit_without_top does it when the fit fails).
    const size_t at_least =
        null_scores.end() - std::lower_bound(null_scores.begin(), null_scores.end(), score);
    return -std::log10((at_least + 1.0) / (null_scores.size() + 1.0));
  }

  // E_tail's fit (step 3 above): the combined statistic of the prefilter's candidates but the
  // best; no fit (invalid) below kFragmentTopK / 2 candidates, too few for a tail in absolute
  // counts. REQUIRES: candidates[0] the best (score() sorts it first).
  SurvivalFit fit_candidate_tail() {
    if (candidates.size() <= kFragmentTopK / 2) return SurvivalFit{};
    tail_scores.clear();
    for (size_t i = 1; i < candidates.size(); ++i) tail_scores.push_back(candidates[i].primary);
    return fitter.fit(tail_scores);
  }

  // Step 1's first pass: `prefiltered` from the whole fragment index, or merged over the slices
  // the query's windows overlap (each searched once).
  void search_fragments(const Query& query) {
    if (fragment_index) {
      fragment_searcher->search(*fragment_index, query, prefiltered);
      return;
    }
    precursor_windows(*index, params, query, slice_windows);
    needed.clear();
    for (const PrecursorWindow& w : slice_windows) {
      needed.push_back(fragment_slices->overlapping(w.first, w.last));
    }
    std::sort(needed.begin(), needed.end());
    prefiltered.top.clear();
    prefiltered.window_candidates = 0;
    // The merged top-K is the same in any slice order (a total order, disjoint slices): the
    // cached slices first, then the missing ones built.
    missing.clear();
    size_t next = 0;  // slices below it are taken
    for (const auto& [a, b] : needed) {
      for (size_t s = std::max(a, next); s < b; ++s) {
        if (auto slice = fragment_slices->if_cached(s)) {
          fragment_searcher->search_and_merge(*slice, query, prefiltered);
        } else {
          missing.push_back(s);
        }
      }
      next = std::max(next, b);
    }
    for (size_t s : missing) {
      fragment_searcher->search_and_merge(*fragment_slices->acquire(s), query, prefiltered);
    }
  }

  Psm make_psm(const Query& query, const Candidate& c, int rank, double delta_next, double evalue,
               int n_candidates) const;

  std::vector<Psm> score(const Query& query);
};

Psm SpectrumScorer::Impl::make_psm(const Query& query, const Candidate& c, int rank,
                                   double delta_next, double evalue, int n_candidates) const {
  const Peptide peptide = index->peptide(c.peptide);
  Psm psm;
  psm.file_index = query.file_index;
  psm.spectrum_index = query.spectrum_index;
  psm.native_id = query.native_id;
  psm.scan = query.scan;
  psm.rt_seconds = query.rt_seconds;
  psm.precursor_mz = query.precursor_mz;
  psm.charge = query.charge;
  psm.expmass = query.neutral_mass;
  psm.calcmass = peptide.neutral_mass_da;
  psm.rank = rank;
  psm.sequence = peptide.sequence;
  psm.modifications = applied_modifications(peptide, *index);
  psm.proforma = to_proforma(psm.sequence, psm.modifications);
  // Evidence, targets first.
  bool any_target = false;
  for (int pass = 0; pass < 2; ++pass) {
    for (const PeptideOccurrence& occ : peptide.occurrences) {
      const Protein& protein = index->proteins[occ.protein];
      if (protein.is_decoy != (pass == 1)) continue;
      PeptideEvidence e;
      e.protein_accession = protein.accession;
      e.start = occ.start;
      e.pre = occ.start > 0 ? protein.sequence[occ.start - 1] : '-';
      const size_t end = occ.start + peptide.sequence.size();
      e.post = end < protein.sequence.size() ? protein.sequence[end] : '-';
      e.decoy = protein.is_decoy;
      any_target |= !protein.is_decoy;
      psm.evidence.push_back(std::move(e));
    }
  }
  psm.decoy = peptide.occurrences.empty() ? peptide.decoy : !any_target;
  psm.missed_cleavages = peptide.missed_cleavages;
  psm.enzymatic_termini = peptide.enzymatic_termini;
  psm.isotope_error = c.isotope_error;
  psm.precursor_ppm =
      (query.neutral_mass - c.isotope_error * mass::kC13C12Spacing - peptide.neutral_mass_da) /
      peptide.neutral_mass_da * 1e6;
  psm.fragment_ppm = c.matched > 0 ? c.summed_abs_ppm / c.matched : 0.0;
  psm.hyperscore = c.hyperscore;
  psm.xcorr = c.xcorr;
  psm.delta_next = delta_next;
  psm.evalue = evalue;
  psm.matched_peaks = c.matched;
  psm.theoretical_peaks = c.theoretical;
  psm.candidates = n_candidates;
  psm.score = -std::log10(std::max(evalue, 1e-300));
  return psm;
}

std::vector<Psm> SpectrumScorer::Impl::score(const Query& query) {
  std::vector<Psm> out;
  if (query.peaks.empty() || index->empty() || query.charge < 1) return out;
  const int fragment_charge = fragment_charge_limit(query.charge, params.max_fragment_charge);

  // 1. Candidate generation (separable: a fragment index can replace this step).
  find_windows(query);
  candidates.clear();
  size_t window_peptides = 0;  // with overlaps between isotope windows counted twice
  for (const MassWindow& w : windows) window_peptides += w.last - w.first;
  size_t n_window = 0;  // distinct peptides in the windows
  sampled_null = fragment_searcher && window_peptides > kFragmentPrefilterAbove;
  if (sampled_null) {
    // Wide windows: the MSFragger/Sage first pass (shared fragment peaks) picks who is scored.
    search_fragments(query);
    for (const FragmentCandidate& f : prefiltered.top) {
      candidates.push_back(Candidate{f.peptide, f.isotope_error});
    }
    n_window = prefiltered.window_candidates;
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate& a, const Candidate& b) { return a.peptide < b.peptide; });
  } else {
    for (const MassWindow& w : windows) {
      for (size_t i = w.first; i < w.last; ++i) {
        Candidate c{static_cast<uint32_t>(i), w.isotope_error};
        candidates.push_back(c);
      }
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
      if (a.peptide != b.peptide) return a.peptide < b.peptide;
      return std::abs(a.isotope_error) < std::abs(b.isotope_error);
    });
    candidates.erase(
        std::unique(candidates.begin(), candidates.end(),
                    [](const Candidate& a, const Candidate& b) { return a.peptide == b.peptide; }),
        candidates.end());
    n_window = candidates.size();
  }
  if (candidates.empty()) return out;

  // 2. Scoring.
  select_hyperscore_peaks(query.peaks, hyperscore_peak_count(params.fragment_tolerance),
                          hyperscore_peaks);
  peak_table.prepare(hyperscore_peaks, params.fragment_tolerance);
  xcorr.prepare(query.peaks, query.neutral_mass, params.fragment_tolerance);
  score_all(query, candidates, fragment_charge, Role::kCandidate);

  // 3. Null distribution, survival fits of each score, combined statistic.
  if (sampled_null) {
    collect_window_sample();
  } else {
    collect_null(query);
  }
  score_all(query, nulls, fragment_charge, sampled_null ? Role::kNull : Role::kMassMatchedNull);
  const SurvivalFit fit_hs =
      fit_without_top(hs_fitter, null_hs, [](const Candidate& c) { return c.hyperscore; });
  const SurvivalFit fit_xc =
      fit_without_top(xc_fitter, null_xc, [](const Candidate& c) { return c.xcorr; });
  auto combine = [&](Candidate& c) {
    const double a = c.matched > 0 ? minus_log10_p(fit_hs, null_hs, c.hyperscore) : 0.0;
    const double b = minus_log10_p(fit_xc, null_xc, c.xcorr);
    c.primary = a + b;
  };
  for (Candidate& c : candidates) combine(c);
  for (Candidate& c : nulls) combine(c);
  const SurvivalFit fit =
      fit_without_top(fitter, null_combined, [](const Candidate& c) { return c.primary; });

  const size_t report = static_cast<size_t>(std::max(1, params.report_psms));
  const size_t keep = std::min(candidates.size(), report + 1);
  std::partial_sort(candidates.begin(), candidates.begin() + keep, candidates.end(),
                    [](const Candidate& a, const Candidate& b) {
                      if (a.primary != b.primary) return a.primary > b.primary;
                      return a.peptide < b.peptide;  // ties: stable output
                    });
  const int n_candidates = static_cast<int>(std::min<size_t>(n_window, INT32_MAX));
  // E = tested peptides × p (with a sampled null, every window peptide was tested: E_sample);
  // with a sampled null and a valid tail fit, the geometric mean with E_tail (step 3 above).
  const size_t n_null = std::max<size_t>(1, sampled_null ? n_window : null_combined.size());
  const int charges = std::max(1, query.charges_tried);
  const SurvivalFit tail = sampled_null ? fit_candidate_tail() : SurvivalFit{};
  for (size_t r = 0; r < std::min(report, candidates.size()); ++r) {
    const Candidate& c = candidates[r];
    if (c.matched == 0) break;
    double log10_e =
        -minus_log10_p(fit, null_combined, c.primary) + std::log10(double(n_null) * charges);
    if (tail.valid) {  // the geometric mean with the tail's estimate (step 3 above)
      const double log10_tail = tail.intercept + tail.slope * c.primary + std::log10(charges);
      log10_e = 0.5 * (log10_e + log10_tail);
    }
    const double evalue = std::pow(10.0, log10_e);
    const double next = r + 1 < candidates.size() ? candidates[r + 1].primary : 0.0;
    out.push_back(
        make_psm(query, c, static_cast<int>(r) + 1, c.primary - next, evalue, n_candidates));
  }
  return out;
}

SpectrumScorer::SpectrumScorer(std::shared_ptr<const PeptideIndex> index,
                               const SearchParameters& params,
                               std::shared_ptr<const FragmentIndex> fragments,
                               std::shared_ptr<FragmentSlices> slices)
    : impl_(std::make_unique<Impl>()) {
  if (!index) throw std::invalid_argument("SpectrumScorer: null peptide index");
  if (fragments && slices) {
    throw std::invalid_argument("SpectrumScorer: a fragment index and its slices both given");
  }
  if (slices && &slices->peptides() != index.get()) {
    throw std::invalid_argument("SpectrumScorer: fragment slices of another peptide index");
  }
  impl_->index = std::move(index);
  impl_->params = params;
  if (fragments || slices) {
    impl_->fragment_searcher =
        std::make_unique<FragmentSearcher>(*impl_->index, params, kFragmentTopK);
    impl_->fragment_index = std::move(fragments);
    impl_->fragment_slices = std::move(slices);
  }
  impl_->ion_types = IonTypes::parse(params.ion_types);
  impl_->shift_null_n_terminus = Enzyme(params.database.enzyme).cleaves_c_terminal();
  impl_->fragments.reserve(512);
  impl_->null_hs.reserve(kNullPeptides);
  impl_->null_xc.reserve(kNullPeptides);
  impl_->null_combined.reserve(kNullPeptides);
}

SpectrumScorer::~SpectrumScorer() = default;

std::vector<Psm> SpectrumScorer::score(const Query& query) {
  return impl_->score(query);
}

}  // namespace ionflow
