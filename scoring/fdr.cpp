#include "scoring/fdr.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace ionflow {

std::vector<double> target_decoy_q_values(const std::vector<double>& scores,
                                          const std::vector<bool>& decoy) {
  const size_t n = scores.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
  // FDR at each threshold (groups of equal scores), then the running minimum from the bottom.
  std::vector<double> fdr(n, 1.0);
  size_t targets = 0, decoys = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && scores[order[j]] == scores[order[i]]) {
      (decoy[order[j]] ? decoys : targets) += 1;
      ++j;
    }
    const double f = targets == 0 ? 1.0 : std::min(1.0, double(decoys) / double(targets));
    for (size_t k = i; k < j; ++k) fdr[k] = f;
    i = j;
  }
  std::vector<double> q(n, 1.0);
  double running = 1.0;
  for (size_t k = n; k-- > 0;) {
    running = std::min(running, fdr[k]);
    q[order[k]] = running;
  }
  return q;
}

std::string_view strip_decoy_tag(std::string_view accession, std::string_view decoy_tag,
                                 bool tag_is_suffix) {
  if (decoy_tag.empty() || accession.size() <= decoy_tag.size()) return accession;
  if (tag_is_suffix) {
    if (accession.ends_with(decoy_tag))
      return accession.substr(0, accession.size() - decoy_tag.size());
  } else if (accession.starts_with(decoy_tag)) {
    return accession.substr(decoy_tag.size());
  }
  return accession;
}

namespace {

// q-value of any score on a curve given by (scores, q) of the competing items: the q of the
// lowest competing score >= s (the threshold s would pass), or 1 if none.
double q_at(const std::vector<std::pair<double, double>>& curve_desc, double s) {
  // curve_desc: (score, q) sorted by score descending.
  double q = 1.0;
  auto it =
      std::lower_bound(curve_desc.begin(), curve_desc.end(), s,
                       [](const std::pair<double, double>& e, double v) { return e.first >= v; });
  if (it != curve_desc.begin()) q = std::prev(it)->second;
  return q;
}

}  // namespace

void assign_spectrum_q_values(std::vector<Psm>& psms) {
  std::vector<double> scores;
  std::vector<bool> decoy;
  std::vector<size_t> rank1;
  for (size_t i = 0; i < psms.size(); ++i) {
    if (psms[i].rank != 1) continue;
    rank1.push_back(i);
    scores.push_back(psms[i].score);
    decoy.push_back(psms[i].decoy);
  }
  const std::vector<double> q = target_decoy_q_values(scores, decoy);
  std::vector<std::pair<double, double>> curve;
  for (size_t k = 0; k < rank1.size(); ++k) {
    psms[rank1[k]].spectrum_q = q[k];
    curve.emplace_back(scores[k], q[k]);
  }
  std::sort(curve.begin(), curve.end(), [](auto& a, auto& b) { return a.first > b.first; });
  for (Psm& p : psms) {
    if (p.rank != 1) p.spectrum_q = q_at(curve, p.score);
  }
}

void assign_peptide_q_values(std::vector<Psm>& psms) {
  std::unordered_map<std::string, size_t> best;  // proforma -> index of best rank-1 PSM
  for (size_t i = 0; i < psms.size(); ++i) {
    if (psms[i].rank != 1) continue;
    auto [it, inserted] = best.emplace(psms[i].proforma, i);
    if (!inserted && psms[i].score > psms[it->second].score) it->second = i;
  }
  std::vector<std::string> keys;
  std::vector<double> scores;
  std::vector<bool> decoy;
  for (const auto& [key, i] : best) {
    keys.push_back(key);
    scores.push_back(psms[i].score);
    decoy.push_back(psms[i].decoy);
  }
  const std::vector<double> q = target_decoy_q_values(scores, decoy);
  std::unordered_map<std::string, double> q_of;
  for (size_t k = 0; k < keys.size(); ++k) q_of[keys[k]] = q[k];
  for (Psm& p : psms) {
    auto it = q_of.find(p.proforma);
    p.peptide_q = it == q_of.end() ? 1.0 : it->second;
  }
}

std::vector<ProteinScore> assign_protein_q_values(std::vector<Psm>& psms,
                                                  std::string_view decoy_tag, bool tag_is_suffix) {
  // Best rank-1 PSM score per protein accession.
  std::unordered_map<std::string, size_t> index_of;
  std::vector<ProteinScore> proteins;
  for (const Psm& p : psms) {
    if (p.rank != 1) continue;
    for (const PeptideEvidence& e : p.evidence) {
      // A PSM counts for decoy proteins only when it is a decoy PSM (targets win shared ones).
      if (e.decoy != p.decoy) continue;
      auto [it, inserted] = index_of.emplace(e.protein_accession, proteins.size());
      if (inserted) {
        proteins.push_back({e.protein_accession, e.decoy, p.score, 1.0, false});
      } else {
        proteins[it->second].score = std::max(proteins[it->second].score, p.score);
      }
    }
  }
  // Pick the better of each target/decoy pair.
  std::unordered_map<std::string, size_t> winner;  // base accession -> protein index
  for (size_t i = 0; i < proteins.size(); ++i) {
    const std::string base(proteins[i].decoy
                               ? strip_decoy_tag(proteins[i].accession, decoy_tag, tag_is_suffix)
                               : std::string_view(proteins[i].accession));
    auto [it, inserted] = winner.emplace(base, i);
    if (!inserted) {
      const ProteinScore& other = proteins[it->second];
      const ProteinScore& mine = proteins[i];
      if (mine.score > other.score || (mine.score == other.score && !mine.decoy)) it->second = i;
    }
  }
  std::vector<size_t> picked;
  std::vector<double> scores;
  std::vector<bool> decoy;
  for (const auto& [base, i] : winner) {
    proteins[i].picked = true;
    picked.push_back(i);
    scores.push_back(proteins[i].score);
    decoy.push_back(proteins[i].decoy);
  }
  const std::vector<double> q = target_decoy_q_values(scores, decoy);
  for (size_t k = 0; k < picked.size(); ++k) proteins[picked[k]].q_value = q[k];

  std::unordered_map<std::string, double> q_of;
  for (const ProteinScore& ps : proteins) q_of[ps.accession] = ps.q_value;
  for (Psm& p : psms) {
    double best = 1.0;
    for (const PeptideEvidence& e : p.evidence) {
      auto it = q_of.find(e.protein_accession);
      if (it != q_of.end()) best = std::min(best, it->second);
    }
    p.protein_q = best;
  }
  std::sort(proteins.begin(), proteins.end(), [](const ProteinScore& a, const ProteinScore& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.accession < b.accession;
  });
  return proteins;
}

}  // namespace ionflow
