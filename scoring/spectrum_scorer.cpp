// SpectrumScorer (declared in search.hpp): candidate generation by precursor mass, hyperscore
// of each candidate, and a per-spectrum E-value from the survival fit of a null distribution.
//
// Candidates: for each isotope error k of params.isotope_errors, the peptides whose neutral mass
// m satisfies Tolerance::contains(m, expmass − k·C13), i.e. the observed mass lies in the
// precursor window around the theoretical one (asymmetric windows allowed). A peptide reached
// by two isotope errors keeps the smaller |k|.
//
// Null distribution for the E-value: the candidates' hyperscores, plus — when there are fewer
// than kNullPeptides candidates, which a 10 ppm window on a small database always gives — the
// hyperscores of the peptides nearest in neutral mass outside the window until kNullPeptides
// are scored. Comet does the same when its histogram is too sparse (it scores decoy fragment
// patterns to fill it; Eng et al. 2013). The top candidate is left out of its own null.
//
// Psm::evalue = p · n, with p = E_fit(hyperscore) / N_null (evalue.hpp) and n the number of
// candidates in the precursor window; when the fit fails, p is the empirical
// (count of null scores >= hyperscore + 1) / (N_null + 1). Psm::score = −log10(E-value).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "scoring/evalue.hpp"
#include "scoring/hyperscore.hpp"
#include "scoring/ion_series.hpp"
#include "scoring/mass.hpp"
#include "scoring/search.hpp"

namespace ionflow {

namespace {

// Peptides scored per query for the null distribution (candidates included).
constexpr size_t kNullPeptides = 1000;

struct Candidate {
  uint32_t peptide = 0;
  int isotope_error = 0;
  double hyperscore = 0.0;
  int matched = 0;
  int theoretical = 0;
  double summed_abs_ppm = 0.0;
};

struct MassWindow {
  int isotope_error = 0;
  size_t first = 0;  // [first, last) into PeptideIndex::peptides
  size_t last = 0;
};

size_t lower_index(const std::vector<Peptide>& peptides, double mass_da) {
  return std::lower_bound(peptides.begin(), peptides.end(), mass_da,
                          [](const Peptide& p, double m) { return p.neutral_mass_da < m; }) -
         peptides.begin();
}
size_t upper_index(const std::vector<Peptide>& peptides, double mass_da) {
  return std::upper_bound(peptides.begin(), peptides.end(), mass_da,
                          [](double m, const Peptide& p) { return m < p.neutral_mass_da; }) -
         peptides.begin();
}

// Theoretical masses m with `observed` inside tolerance.bounds(m): for Da, observed − hi <= m <=
// observed − lo; for ppm, observed / (1 + hi·1e-6) <= m <= observed / (1 + lo·1e-6).
std::pair<double, double> theoretical_mass_range(const Tolerance& tol, double observed) {
  if (tol.unit == Tolerance::Unit::kDa) return {observed - tol.upper, observed - tol.lower};
  return {observed / (1.0 + tol.upper * 1e-6), observed / (1.0 + tol.lower * 1e-6)};
}

}  // namespace

struct SpectrumScorer::Impl {
  std::shared_ptr<const PeptideIndex> index;
  SearchParameters params;
  IonTypes ion_types;

  // Scratch, reused for every query and candidate.
  ModifiedResidues residues;
  std::vector<Fragment> fragments;
  std::vector<MassWindow> windows;
  std::vector<Candidate> candidates;
  std::vector<double> null_scores;
  SurvivalFitter fitter;

  Candidate score_peptide(const Query& query, uint32_t peptide_index, int fragment_charge) {
    const Peptide& peptide = index->peptides[peptide_index];
    modified_residue_masses(peptide, index->modifications, residues);
    fragment_ions(residues, ion_types, fragment_charge, fragments);
    const FragmentMatches m = match_fragments(query.peaks, fragments, params.fragment_tolerance);
    Candidate c;
    c.peptide = peptide_index;
    c.hyperscore = hyperscore(m);
    c.matched = m.total_matched;
    c.theoretical = static_cast<int>(fragments.size());
    c.summed_abs_ppm = m.summed_abs_ppm;
    return c;
  }

  void find_windows(const Query& query) {
    windows.clear();
    const auto& peptides = index->peptides;
    for (int k : params.isotope_errors) {
      const double observed = query.neutral_mass - k * mass::kC13C12Spacing;
      auto [lo, hi] = theoretical_mass_range(params.precursor_tolerance, observed);
      MassWindow w{k, lower_index(peptides, lo), upper_index(peptides, hi)};
      if (w.first < w.last) windows.push_back(w);
    }
  }

  bool in_windows(size_t i) const {
    for (const MassWindow& w : windows) {
      if (i >= w.first && i < w.last) return true;
    }
    return false;
  }

  // Appends hyperscores of peptides nearest to the query mass outside the windows.
  void fill_null(const Query& query, int fragment_charge) {
    const auto& peptides = index->peptides;
    if (null_scores.size() >= kNullPeptides || peptides.empty()) return;
    size_t right = lower_index(peptides, query.neutral_mass);
    size_t left = right;  // next to take on the left is left - 1
    while (null_scores.size() < kNullPeptides && (left > 0 || right < peptides.size())) {
      bool take_left;
      if (left == 0) {
        take_left = false;
      } else if (right >= peptides.size()) {
        take_left = true;
      } else {
        take_left = query.neutral_mass - peptides[left - 1].neutral_mass_da <
                    peptides[right].neutral_mass_da - query.neutral_mass;
      }
      const size_t i = take_left ? --left : right++;
      if (in_windows(i)) continue;
      null_scores.push_back(
          score_peptide(query, static_cast<uint32_t>(i), fragment_charge).hyperscore);
    }
  }

  Psm make_psm(const Query& query, const Candidate& c, int rank, double delta_next, double evalue,
               int n_candidates) const;

  std::vector<Psm> score(const Query& query);
};

namespace {

void fill_modifications(const Peptide& peptide, const PeptideIndex& index, Psm& psm) {
  psm.modifications.clear();
  const int n = static_cast<int>(peptide.sequence.size());
  for (const PlacedModification& placed : peptide.modifications) {
    const Modification& mod = index.modifications[placed.modification];
    AppliedModification a;
    a.position = placed.position < 0 ? -1 : (placed.position >= n ? n : placed.position);
    a.residue = (a.position >= 0 && a.position < n) ? peptide.sequence[a.position] : '\0';
    a.mass_delta_da = mod.mass_delta_da;
    a.name = mod.name;
    a.unimod_accession = mod.unimod_accession;
    a.fixed = mod.fixed;
    psm.modifications.push_back(std::move(a));
  }
}

// ProForma 2.0 (HUPO-PSI 2020, section 4.2): residues with [UNIMOD:n] (or a signed mass in Da
// when there is no accession) after the modified residue; terminal modifications as
// "[..]-SEQ" and "SEQ-[..]".
std::string proforma_of(const Psm& psm) {
  auto tag = [](const AppliedModification& m) {
    if (m.unimod_accession > 0) return "[UNIMOD:" + std::to_string(m.unimod_accession) + "]";
    char buf[32];
    std::snprintf(buf, sizeof buf, "[%+.4f]", m.mass_delta_da);
    return std::string(buf);
  };
  const int n = static_cast<int>(psm.sequence.size());
  std::string out;
  for (const auto& m : psm.modifications) {
    if (m.position < 0) out += tag(m);
  }
  if (!out.empty()) out += '-';
  for (int i = 0; i < n; ++i) {
    out += psm.sequence[i];
    for (const auto& m : psm.modifications) {
      if (m.position == i) out += tag(m);
    }
  }
  std::string c_term;
  for (const auto& m : psm.modifications) {
    if (m.position >= n) c_term += tag(m);
  }
  if (!c_term.empty()) out += "-" + c_term;
  return out;
}

}  // namespace

Psm SpectrumScorer::Impl::make_psm(const Query& query, const Candidate& c, int rank,
                                   double delta_next, double evalue, int n_candidates) const {
  const Peptide& peptide = index->peptides[c.peptide];
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
  fill_modifications(peptide, *index, psm);
  psm.proforma = proforma_of(psm);
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
  if (query.peaks.empty() || index->peptides.empty() || query.charge < 1) return out;
  const int fragment_charge = fragment_charge_limit(query.charge, params.max_fragment_charge);

  // 1. Candidate generation (separable: a fragment index can replace this step).
  find_windows(query);
  candidates.clear();
  for (const MassWindow& w : windows) {
    for (size_t i = w.first; i < w.last; ++i) {
      Candidate c{static_cast<uint32_t>(i), w.isotope_error};
      candidates.push_back(c);
    }
  }
  if (candidates.empty()) return out;
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    if (a.peptide != b.peptide) return a.peptide < b.peptide;
    return std::abs(a.isotope_error) < std::abs(b.isotope_error);
  });
  candidates.erase(
      std::unique(candidates.begin(), candidates.end(),
                  [](const Candidate& a, const Candidate& b) { return a.peptide == b.peptide; }),
      candidates.end());

  // 2. Scoring.
  for (Candidate& c : candidates) {
    const int k = c.isotope_error;
    c = score_peptide(query, c.peptide, fragment_charge);
    c.isotope_error = k;
  }
  const size_t report = static_cast<size_t>(std::max(1, params.report_psms));
  const size_t keep = std::min(candidates.size(), report + 1);
  std::partial_sort(candidates.begin(), candidates.begin() + keep, candidates.end(),
                    [](const Candidate& a, const Candidate& b) {
                      if (a.hyperscore != b.hyperscore) return a.hyperscore > b.hyperscore;
                      // Tie: the target peptide first, then the lower index (stable output).
                      return a.peptide < b.peptide;
                    });

  // 3. Null distribution and survival fit (top candidate excluded).
  null_scores.clear();
  for (size_t i = 1; i < candidates.size(); ++i) null_scores.push_back(candidates[i].hyperscore);
  fill_null(query, fragment_charge);
  const SurvivalFit fit = fitter.fit(null_scores);
  const int n_candidates = static_cast<int>(candidates.size());

  for (size_t r = 0; r < std::min(report, candidates.size()); ++r) {
    const Candidate& c = candidates[r];
    if (c.matched == 0) break;
    double p;
    if (fit.valid) {
      p = std::pow(10.0, fit.log10_p_value(c.hyperscore));
    } else {
      size_t at_least = 0;
      for (double s : null_scores) at_least += s >= c.hyperscore;
      p = (at_least + 1.0) / (null_scores.size() + 1.0);
    }
    const double evalue = p * n_candidates;
    const double next = r + 1 < candidates.size() ? candidates[r + 1].hyperscore : 0.0;
    out.push_back(
        make_psm(query, c, static_cast<int>(r) + 1, c.hyperscore - next, evalue, n_candidates));
  }
  return out;
}

SpectrumScorer::SpectrumScorer(std::shared_ptr<const PeptideIndex> index,
                               const SearchParameters& params)
    : impl_(std::make_unique<Impl>()) {
  if (!index) throw std::invalid_argument("SpectrumScorer: null peptide index");
  impl_->index = std::move(index);
  impl_->params = params;
  impl_->ion_types = IonTypes::parse(params.ion_types);
  impl_->fragments.reserve(512);
  impl_->null_scores.reserve(kNullPeptides + 64);
}

SpectrumScorer::~SpectrumScorer() = default;

std::vector<Psm> SpectrumScorer::score(const Query& query) {
  return impl_->score(query);
}

}  // namespace ionflow
