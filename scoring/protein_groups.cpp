#include "scoring/protein_groups.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <queue>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace ionflow {

namespace {

// The residues of a ProForma string as to_proforma (proforma.hpp) writes it: everything outside
// the bracketed tags but the '-' that sets off a terminal tag. "[UNIMOD:1]-M[UNIMOD:35]EK" ->
// "MEK". Tolerant: a summary count never fails a job for a string it does not expect.
std::string residues_of(std::string_view proforma) {
  std::string out;
  out.reserve(proforma.size());
  int depth = 0;
  for (char c : proforma) {
    if (c == '[') {
      ++depth;
    } else if (c == ']') {
      depth = std::max(0, depth - 1);
    } else if (depth == 0 && c != '-') {
      out += c;
    }
  }
  return out;
}

struct Candidate {
  std::vector<uint32_t> peptides;    // sequence ids, sorted
  std::vector<uint32_t> accessions;  // accession ids, sorted by accession
  bool decoy = false;
  double score = -std::numeric_limits<double>::infinity();
};

}  // namespace

std::vector<ProteinGroup> build_protein_groups(const PsmFacts& table, double max_peptide_q) {
  const std::vector<FactEvidence>& evidence = table.evidence();
  const uint32_t accessions = table.accession_count();

  // 1. Accepted peptides (by unmodified sequence) and the proteins containing them.
  std::unordered_map<uint32_t, uint32_t> sequence_of;  // ProForma id -> sequence id
  std::unordered_map<std::string, uint32_t> sequence_id;
  std::vector<std::string> sequences;                          // by sequence id
  std::vector<double> peptide_score;                           // by sequence id: the best score
  std::vector<std::vector<uint32_t>> peptides_of(accessions);  // accession id -> sequence ids
  std::vector<char> accession_decoy(accessions, 0);
  for (const PsmFact& p : table.facts) {
    if (p.rank != 1 || p.peptide_q > max_peptide_q) continue;
    auto [known, first_time] = sequence_of.emplace(p.proforma, 0);
    if (first_time) {
      std::string residues = residues_of(table.proforma(p.proforma));
      auto [it, inserted] = sequence_id.emplace(residues, static_cast<uint32_t>(sequences.size()));
      if (inserted) {
        sequences.push_back(std::move(residues));
        peptide_score.push_back(p.score);
      }
      known->second = it->second;
    }
    const uint32_t s = known->second;
    peptide_score[s] = std::max(peptide_score[s], p.score);
    for (uint32_t k = p.evidence_begin; k < p.evidence_end; ++k) {
      const FactEvidence& e = evidence[k];
      if (e.decoy != p.decoy) continue;
      peptides_of[e.protein].push_back(s);
      accession_decoy[e.protein] = e.decoy;
    }
  }

  // 2. Indistinguishable proteins: identical peptide sets.
  std::map<std::vector<uint32_t>, std::vector<uint32_t>> by_set;  // sequence ids -> accessions
  for (uint32_t a = 0; a < accessions; ++a) {
    std::vector<uint32_t>& set = peptides_of[a];
    if (set.empty()) continue;
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    by_set[std::move(set)].push_back(a);
  }
  std::vector<Candidate> candidates;
  candidates.reserve(by_set.size());
  for (auto& [set, members] : by_set) {
    Candidate c;
    c.peptides = set;
    c.accessions = std::move(members);
    std::sort(c.accessions.begin(), c.accessions.end(),
              [&table](uint32_t x, uint32_t y) { return table.accession(x) < table.accession(y); });
    c.decoy = accession_decoy[c.accessions.front()];
    for (uint32_t s : c.peptides) c.score = std::max(c.score, peptide_score[s]);
    candidates.push_back(std::move(c));
  }

  // 3. Greedy set cover, lazily: the heap holds each group with its count of new peptides as of
  // when it was pushed; counts only fall, so a popped group whose count is still current beats
  // every other. Order: more new peptides, then higher score, then first accession (unique:
  // groups share no member), so the result is the one a full rescan each step gives.
  std::vector<char> explained(sequences.size(), 0);
  auto fresh_of = [&](const Candidate& c) {
    size_t n = 0;
    for (uint32_t s : c.peptides) n += !explained[s];
    return n;
  };
  auto worse = [&](const std::pair<size_t, size_t>& x, const std::pair<size_t, size_t>& y) {
    if (x.first != y.first) return x.first < y.first;
    const Candidate& a = candidates[x.second];
    const Candidate& b = candidates[y.second];
    if (a.score != b.score) return a.score < b.score;
    return table.accession(a.accessions.front()) > table.accession(b.accessions.front());
  };
  std::priority_queue<std::pair<size_t, size_t>, std::vector<std::pair<size_t, size_t>>,
                      decltype(worse)>
      heap(worse);  // (new peptides, candidate index)
  for (size_t i = 0; i < candidates.size(); ++i) heap.emplace(candidates[i].peptides.size(), i);
  std::vector<char> kept(candidates.size(), 0);
  while (!heap.empty()) {
    const auto [count, i] = heap.top();
    heap.pop();
    const size_t fresh = fresh_of(candidates[i]);
    if (fresh == 0) continue;
    if (fresh < count) {
      heap.emplace(fresh, i);
      continue;
    }
    kept[i] = 1;
    for (uint32_t s : candidates[i].peptides) explained[s] = 1;
  }

  // 4. Unique peptides, q-values, order.
  std::vector<int> groups_with(sequences.size(), 0);
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (!kept[i]) continue;
    for (uint32_t s : candidates[i].peptides) ++groups_with[s];
  }
  std::vector<ProteinGroup> out;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (!kept[i]) continue;
    const Candidate& c = candidates[i];
    ProteinGroup g;
    for (uint32_t a : c.accessions) {
      g.accessions.emplace_back(table.accession(a));
      if (a < table.accession_q.size()) g.q_value = std::min(g.q_value, table.accession_q[a]);
    }
    for (uint32_t s : c.peptides) {
      g.peptides.push_back(sequences[s]);
      g.unique_peptides += groups_with[s] == 1;
    }
    std::sort(g.peptides.begin(), g.peptides.end());
    g.decoy = c.decoy;
    g.score = c.score;
    out.push_back(std::move(g));
  }
  std::sort(out.begin(), out.end(), [](const ProteinGroup& a, const ProteinGroup& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.accessions.front() < b.accessions.front();
  });
  return out;
}

std::vector<ProteinGroup> build_protein_groups(const std::vector<Psm>& psms,
                                               const std::vector<ProteinScore>& proteins,
                                               double max_peptide_q) {
  return build_protein_groups(facts_of(psms, proteins), max_peptide_q);
}

}  // namespace ionflow
