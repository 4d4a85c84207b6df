#include "scoring/fdr.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "scoring/protein_groups.hpp"

namespace ionflow {

namespace {

// (score, index) pairs, best score first, NaN (never made by the scorer) last whatever the size.
// Ties are left in any order: a group of equal scores gets one FDR and so one q-value. Lists of
// 4,096 or more go through an LSD radix sort of the scores' bits (16 bits a pass, passes where
// every key has the same digit skipped): 576k scores in ~20 ms against ~45 ms for std::sort of
// the pairs (a micro-benchmark here), and finalizing a 684k-query job calls this ~18 times.
std::vector<std::pair<double, size_t>> rank_by_score(const std::vector<double>& scores) {
  const size_t n = scores.size();
  std::vector<std::pair<double, size_t>> ranked(n);
  if (n < 4096) {  // the radix passes' bucket counts cost more than they save
    for (size_t i = 0; i < n; ++i) ranked[i] = {scores[i], i};
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
      if (std::isnan(a.first) || std::isnan(b.first))
        return !std::isnan(a.first) && std::isnan(b.first);
      return a.first > b.first;
    });
    return ranked;
  }
  // Keys whose unsigned order is descending score order: the IEEE-754 bits of a positive
  // double with the sign bit set, of a negative one inverted (so ascending), then inverted.
  struct Item {
    uint64_t key;
    size_t index;
  };
  std::vector<Item> items(n), spare(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t bits;
    std::memcpy(&bits, &scores[i], sizeof bits);
    const uint64_t ascending = (bits >> 63) != 0 ? ~bits : bits | (uint64_t{1} << 63);
    items[i] = {std::isnan(scores[i]) ? ~uint64_t{0} : ~ascending, i};  // NaN last
  }
  constexpr int kDigitBits = 16;
  constexpr uint64_t kDigitMask = (uint64_t{1} << kDigitBits) - 1;
  std::vector<size_t> start(size_t{1} << kDigitBits);
  for (int shift = 0; shift < 64; shift += kDigitBits) {
    std::fill(start.begin(), start.end(), size_t{0});
    for (const Item& it : items) ++start[(it.key >> shift) & kDigitMask];
    if (start[(items[0].key >> shift) & kDigitMask] == n) continue;  // one digit: no reorder
    size_t sum = 0;
    for (size_t& c : start) sum += std::exchange(c, sum);
    for (const Item& it : items) spare[start[(it.key >> shift) & kDigitMask]++] = it;
    items.swap(spare);
  }
  for (size_t i = 0; i < n; ++i) ranked[i] = {scores[items[i].index], items[i].index};
  return ranked;
}

// The decoy count's lower bound above the anchor decoy (fdr.hpp, kTailBounded): none when
// `count` is kObserved or there are no decoys.
struct DecoyTail {
  bool active = false;
  double anchor_score = 0.0;  // s_m
  double anchor_count = 0.0;  // m (fewer when the list has fewer decoys)

  DecoyTail(const std::vector<double>& scores, const std::vector<bool>& decoy, DecoyCount count) {
    if (count != DecoyCount::kTailBounded) return;
    std::vector<double> decoys;
    for (size_t i = 0; i < scores.size(); ++i) {
      if (decoy[i]) decoys.push_back(scores[i]);
    }
    if (decoys.empty()) return;
    const size_t m = std::min<size_t>(kTailAnchorDecoys, decoys.size());
    std::nth_element(decoys.begin(), decoys.begin() + static_cast<std::ptrdiff_t>(m - 1),
                     decoys.end(), std::greater<double>());
    active = true;
    anchor_score = decoys[m - 1];
    anchor_count = static_cast<double>(m);
  }

  // max(D(t), m * 10^-(t - s_m)) above the anchor, D(t) at and below it.
  double decoys_above(double threshold, size_t observed) const {
    const double d = static_cast<double>(observed);
    if (!active || threshold <= anchor_score) return d;
    return std::max(d, anchor_count * std::pow(10.0, anchor_score - threshold));
  }
};

}  // namespace

std::vector<double> target_decoy_q_values(const std::vector<double>& scores,
                                          const std::vector<bool>& decoy, DecoyCount count) {
  const size_t n = scores.size();
  const DecoyTail tail(scores, decoy, count);
  const std::vector<std::pair<double, size_t>> ranked = rank_by_score(scores);
  // FDR at each threshold (groups of equal scores), then the running minimum from the bottom.
  std::vector<double> fdr(n, 1.0);
  size_t targets = 0, decoys = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    do {  // at least item i: a NaN equals nothing, itself included, and is a group of one
      (decoy[ranked[j].second] ? decoys : targets) += 1;
      ++j;
    } while (j < n && ranked[j].first == ranked[i].first);
    const double d = tail.decoys_above(ranked[i].first, decoys);
    const double f = targets == 0 ? 1.0 : std::min(1.0, d / double(targets));
    for (size_t k = i; k < j; ++k) fdr[k] = f;
    i = j;
  }
  std::vector<double> q(n, 1.0);
  double running = 1.0;
  for (size_t k = n; k-- > 0;) {
    running = std::min(running, fdr[k]);
    q[ranked[k].second] = running;
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

// Spectrum and peptide q-values read only rank, score, decoy and proforma, which Psm and PsmFact
// both have: one template for both.
template <class Row>
void spectrum_q_values(std::vector<Row>& psms, DecoyCount count) {
  std::vector<double> scores;
  std::vector<bool> decoy;
  std::vector<size_t> rank1;
  for (size_t i = 0; i < psms.size(); ++i) {
    if (psms[i].rank != 1) continue;
    rank1.push_back(i);
    scores.push_back(psms[i].score);
    decoy.push_back(psms[i].decoy);
  }
  const std::vector<double> q = target_decoy_q_values(scores, decoy, count);
  std::vector<std::pair<double, double>> curve;
  for (size_t k = 0; k < rank1.size(); ++k) {
    psms[rank1[k]].spectrum_q = q[k];
    curve.emplace_back(scores[k], q[k]);
  }
  std::sort(curve.begin(), curve.end(), [](auto& a, auto& b) { return a.first > b.first; });
  for (Row& p : psms) {
    if (p.rank != 1) p.spectrum_q = q_at(curve, p.score);
  }
}

// Peptide = Row::proforma (the string for Psm, its interned id for PsmFact).
template <class Row>
void peptide_q_values(std::vector<Row>& psms, DecoyCount count) {
  using Key = std::decay_t<decltype(Row::proforma)>;
  std::unordered_map<Key, size_t> best;  // proforma -> index of best rank-1 PSM
  for (size_t i = 0; i < psms.size(); ++i) {
    if (psms[i].rank != 1) continue;
    auto [it, inserted] = best.emplace(psms[i].proforma, i);
    if (!inserted && psms[i].score > psms[it->second].score) it->second = i;
  }
  std::vector<Key> keys;
  std::vector<double> scores;
  std::vector<bool> decoy;
  for (const auto& [key, i] : best) {
    keys.push_back(key);
    scores.push_back(psms[i].score);
    decoy.push_back(psms[i].decoy);
  }
  const std::vector<double> q = target_decoy_q_values(scores, decoy, count);
  std::unordered_map<Key, double> q_of;
  for (size_t k = 0; k < keys.size(); ++k) q_of[keys[k]] = q[k];
  for (Row& p : psms) {
    auto it = q_of.find(p.proforma);
    p.peptide_q = it == q_of.end() ? 1.0 : it->second;
  }
}

}  // namespace

void assign_spectrum_q_values(std::vector<Psm>& psms, DecoyCount count) {
  spectrum_q_values(psms, count);
}
void assign_spectrum_q_values(std::vector<PsmFact>& facts, DecoyCount count) {
  spectrum_q_values(facts, count);
}
void assign_peptide_q_values(std::vector<Psm>& psms, DecoyCount count) {
  peptide_q_values(psms, count);
}
void assign_peptide_q_values(std::vector<PsmFact>& facts, DecoyCount count) {
  peptide_q_values(facts, count);
}

std::vector<ProteinScore> assign_protein_q_values(PsmFacts& table, std::string_view decoy_tag,
                                                  bool tag_is_suffix, DecoyCount count,
                                                  ProteinQFloor floor) {
  std::vector<PsmFact>& facts = table.facts;
  const std::vector<FactEvidence>& evidence = table.evidence();
  // Best rank-1 PSM score per protein accession.
  std::unordered_map<uint32_t, size_t> index_of;  // accession id -> proteins index
  std::vector<ProteinScore> proteins;
  std::vector<uint32_t> protein_ids;   // accession id per proteins entry
  std::vector<double> best_peptide_q;  // per proteins entry (ProteinQFloor::kBestPeptide)
  for (const PsmFact& p : facts) {
    if (p.rank != 1) continue;
    for (uint32_t k = p.evidence_begin; k < p.evidence_end; ++k) {
      const FactEvidence& e = evidence[k];
      // A PSM counts for decoy proteins only when it is a decoy PSM (targets win shared ones).
      if (e.decoy != p.decoy) continue;
      auto [it, inserted] = index_of.emplace(e.protein, proteins.size());
      if (inserted) {
        proteins.push_back({std::string(table.accession(e.protein)), e.decoy, p.score, 1.0, false});
        protein_ids.push_back(e.protein);
        best_peptide_q.push_back(p.peptide_q);
      } else {
        proteins[it->second].score = std::max(proteins[it->second].score, p.score);
        best_peptide_q[it->second] = std::min(best_peptide_q[it->second], p.peptide_q);
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
  const std::vector<double> q = target_decoy_q_values(scores, decoy, count);
  for (size_t k = 0; k < picked.size(); ++k) {
    const size_t i = picked[k];
    proteins[i].q_value =
        floor == ProteinQFloor::kBestPeptide ? std::max(q[k], best_peptide_q[i]) : q[k];
  }

  std::vector<double>& q_of = table.accession_q;  // by accession id; 1 = not scored
  q_of.assign(table.accession_count(), 1.0);
  std::vector<char> scored(table.accession_count(), 0);
  for (size_t i = 0; i < proteins.size(); ++i) {
    q_of[protein_ids[i]] = proteins[i].q_value;
    scored[protein_ids[i]] = 1;
  }
  for (PsmFact& p : facts) {
    double best = 1.0;
    for (uint32_t k = p.evidence_begin; k < p.evidence_end; ++k) {
      const uint32_t id = evidence[k].protein;
      if (scored[id]) best = std::min(best, q_of[id]);
    }
    p.protein_q = best;
  }
  std::sort(proteins.begin(), proteins.end(), [](const ProteinScore& a, const ProteinScore& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.accession < b.accession;
  });
  return proteins;
}

std::vector<ProteinScore> assign_protein_q_values(std::vector<Psm>& psms,
                                                  std::string_view decoy_tag, bool tag_is_suffix,
                                                  DecoyCount count) {
  PsmFacts facts = facts_of(psms);
  std::vector<ProteinScore> proteins =
      assign_protein_q_values(facts, decoy_tag, tag_is_suffix, count);
  for (const PsmFact& f : facts.facts) psms[f.arrival].protein_q = f.protein_q;
  return proteins;
}

PsmFacts facts_of(const std::vector<Psm>& psms, const std::vector<ProteinScore>& proteins) {
  PsmFacts facts = facts_of(psms);
  std::unordered_map<std::string_view, double> q_of;
  for (const ProteinScore& p : proteins) q_of.emplace(p.accession, p.q_value);
  facts.accession_q.assign(facts.accession_count(), 1.0);
  for (uint32_t id = 0; id < facts.accession_count(); ++id) {
    auto it = q_of.find(facts.accession(id));
    if (it != q_of.end()) facts.accession_q[id] = it->second;
  }
  return facts;
}

FdrCounts count_at_1pct(const PsmFacts& table) {
  FdrCounts c;
  std::unordered_set<uint32_t> peptides, proteins;
  for (const PsmFact& p : table.facts) {
    if (p.rank != 1 || p.decoy) continue;
    if (p.spectrum_q <= kSummaryFdr) ++c.psms;
    if (p.peptide_q <= kSummaryFdr) peptides.insert(p.proforma);
    if (p.protein_q <= kSummaryFdr) {
      for (uint32_t k = p.evidence_begin; k < p.evidence_end; ++k) {
        const FactEvidence& e = table.evidence()[k];
        if (!e.decoy) proteins.insert(e.protein);
      }
    }
  }
  c.peptides = peptides.size();
  c.proteins = proteins.size();
  for (const ProteinGroup& g : build_protein_groups(table, kSummaryFdr)) {
    c.protein_groups += !g.decoy && g.q_value <= kSummaryFdr;
  }
  return c;
}

FdrCounts count_at_1pct(const std::vector<Psm>& psms, const std::vector<ProteinScore>& proteins) {
  return count_at_1pct(facts_of(psms, proteins));
}

}  // namespace ionflow
