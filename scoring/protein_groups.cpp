#include "scoring/protein_groups.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace ionflow {

std::vector<ProteinGroup> build_protein_groups(const std::vector<Psm>& psms,
                                               const std::vector<ProteinScore>& proteins,
                                               double max_peptide_q) {
  // 1. Accepted peptides and the proteins containing them.
  std::map<std::string, double> peptide_score;               // sequence -> best score
  std::map<std::string, std::set<std::string>> peptides_of;  // accession -> sequences
  std::map<std::string, bool> protein_decoy;
  for (const Psm& p : psms) {
    if (p.rank != 1 || p.peptide_q > max_peptide_q) continue;
    auto [it, inserted] = peptide_score.emplace(p.sequence, p.score);
    if (!inserted) it->second = std::max(it->second, p.score);
    for (const PeptideEvidence& e : p.evidence) {
      if (e.decoy != p.decoy) continue;
      peptides_of[e.protein_accession].insert(p.sequence);
      protein_decoy[e.protein_accession] = e.decoy;
    }
  }

  // 2. Indistinguishable proteins: identical peptide sets.
  std::map<std::set<std::string>, std::vector<std::string>> by_set;
  for (const auto& [accession, set] : peptides_of) by_set[set].push_back(accession);
  struct Candidate {
    ProteinGroup group;
    std::set<std::string> peptides;
  };
  std::vector<Candidate> candidates;
  for (auto& [set, accessions] : by_set) {
    Candidate c;
    c.peptides = set;
    c.group.accessions = accessions;  // std::map iteration order: sorted
    c.group.peptides.assign(set.begin(), set.end());
    c.group.decoy = protein_decoy[accessions.front()];
    for (const std::string& s : set) c.group.score = std::max(c.group.score, peptide_score[s]);
    candidates.push_back(std::move(c));
  }

  // 3. Greedy set cover.
  std::set<std::string> explained;
  std::vector<char> kept(candidates.size(), 0);
  for (;;) {
    size_t best = candidates.size();
    size_t best_new = 0;
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (kept[i]) continue;
      size_t fresh = 0;
      for (const std::string& s : candidates[i].peptides) fresh += !explained.count(s);
      if (fresh == 0) continue;
      const bool wins =
          best == candidates.size() || fresh > best_new ||
          (fresh == best_new &&
           (candidates[i].group.score > candidates[best].group.score ||
            (candidates[i].group.score == candidates[best].group.score &&
             candidates[i].group.accessions.front() < candidates[best].group.accessions.front())));
      if (wins) {
        best = i;
        best_new = fresh;
      }
    }
    if (best == candidates.size()) break;
    kept[best] = 1;
    explained.insert(candidates[best].peptides.begin(), candidates[best].peptides.end());
  }

  // 4. Unique peptides, q-values, order.
  std::unordered_map<std::string, int> groups_with;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (!kept[i]) continue;
    for (const std::string& s : candidates[i].peptides) ++groups_with[s];
  }
  std::unordered_map<std::string, double> q_of;
  for (const ProteinScore& ps : proteins) q_of[ps.accession] = ps.q_value;
  std::vector<ProteinGroup> out;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (!kept[i]) continue;
    ProteinGroup g = std::move(candidates[i].group);
    for (const std::string& s : g.peptides) g.unique_peptides += groups_with[s] == 1;
    for (const std::string& a : g.accessions) {
      auto it = q_of.find(a);
      if (it != q_of.end()) g.q_value = std::min(g.q_value, it->second);
    }
    out.push_back(std::move(g));
  }
  std::sort(out.begin(), out.end(), [](const ProteinGroup& a, const ProteinGroup& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.accessions.front() < b.accessions.front();
  });
  return out;
}

}  // namespace ionflow
