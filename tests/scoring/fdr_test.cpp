// Target-decoy q-values (D/T, Elias & Gygi 2007; the tail-bounded decoy count of fdr.hpp) and
// picked protein FDR (Savitski et al. 2015) on hand-made lists whose q-values were computed by
// hand.
#include "scoring/fdr.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace ionflow {
namespace {

TEST(Fdr, HandComputedQValues) {
  // Scores 10..1, labels T T T D T T D T D D.
  // FDR D/T going down: 0 0 0 1/3 1/4 1/5 2/5 2/6 3/6 4/6; q = running minimum from the bottom.
  std::vector<double> scores = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  std::vector<bool> decoy = {false, false, false, true, false, false, true, false, true, true};
  std::vector<double> q = target_decoy_q_values(scores, decoy);
  const double expected[] = {0, 0, 0, 0.2, 0.2, 0.2, 1.0 / 3, 1.0 / 3, 0.5, 2.0 / 3};
  ASSERT_EQ(q.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_NEAR(q[i], expected[i], 1e-12) << i;
}

TEST(Fdr, InputOrderAndTies) {
  // Same list shuffled: q follows the items.
  std::vector<double> scores = {1, 10, 7, 3};
  std::vector<bool> decoy = {true, false, true, false};
  // Sorted: 10 T (0/1), 7 D (1/1), 3 T (1/2), 1 D (2/2) -> q: 0, .5, .5, 1.
  std::vector<double> q = target_decoy_q_values(scores, decoy);
  EXPECT_DOUBLE_EQ(q[0], 1.0);
  EXPECT_DOUBLE_EQ(q[1], 0.0);
  EXPECT_DOUBLE_EQ(q[2], 0.5);
  EXPECT_DOUBLE_EQ(q[3], 0.5);
  // A target tied with a decoy shares its threshold: 1 decoy / 1 target = 1.
  std::vector<double> q2 = target_decoy_q_values({5, 5}, {false, true});
  EXPECT_DOUBLE_EQ(q2[0], 1.0);
  EXPECT_DOUBLE_EQ(q2[1], 1.0);
}

TEST(Fdr, LargeListsRankedByRadixGiveTheSortedListsQValues) {
  // 20,000 items (above the radix sort's 4,096) with ties, negative scores, +0 and -0: every
  // q-value equals the one from a plain sort of the same list, and so does the tail-bounded one.
  std::vector<double> scores;
  std::vector<bool> decoy;
  uint64_t state = 12345;
  auto next = [&state] { return state = state * 6364136223846793005ULL + 1442695040888963407ULL; };
  for (int i = 0; i < 20000; ++i) {
    const uint64_t r = next();
    const double score =
        (i % 97 == 0) ? (i % 2 ? 0.0 : -0.0)
        : (i % 13 == 0)
            ? 2.5  // a tie group
            : static_cast<double>(static_cast<int64_t>(r >> 40) - (int64_t{1} << 23)) / 1e5;
    scores.push_back(score);
    decoy.push_back((next() >> 60) < 5 || score < -20.0);
  }
  for (DecoyCount count : {DecoyCount::kObserved, DecoyCount::kTailBounded}) {
    const std::vector<double> q = target_decoy_q_values(scores, decoy, count);
    // The reference: the same rule over a plain (stable) sort.
    std::vector<size_t> order(scores.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    // Each item's q must not depend on the rank order inside its tie group, and q must be
    // non-decreasing down the sorted list.
    for (size_t k = 1; k < order.size(); ++k) {
      EXPECT_LE(q[order[k - 1]], q[order[k]]) << k;
      if (scores[order[k - 1]] == scores[order[k]]) {
        EXPECT_EQ(q[order[k - 1]], q[order[k]]);
      }
    }
    // And the values: D/T at each group's end, running minimum from the bottom.
    if (count == DecoyCount::kObserved) {
      std::vector<double> expected(scores.size());
      size_t targets = 0, decoys = 0;
      std::vector<double> fdr(order.size());
      for (size_t i = 0; i < order.size();) {
        size_t j = i;
        while (j < order.size() && scores[order[j]] == scores[order[i]]) {
          (decoy[order[j]] ? decoys : targets) += 1;
          ++j;
        }
        for (size_t k = i; k < j; ++k) {
          fdr[k] = targets == 0 ? 1.0 : std::min(1.0, double(decoys) / double(targets));
        }
        i = j;
      }
      double running = 1.0;
      for (size_t k = order.size(); k-- > 0;) {
        running = std::min(running, fdr[k]);
        expected[order[k]] = running;
      }
      for (size_t i = 0; i < scores.size(); ++i) ASSERT_EQ(q[i], expected[i]) << i;
    }
  }
}

TEST(Fdr, NanScoresRankLastInSmallAndLargeLists) {
  for (size_t n : {size_t{50}, size_t{5000}}) {  // below and above the radix sort's 4,096
    std::vector<double> scores(n);
    std::vector<bool> decoy(n);
    for (size_t i = 0; i < n; ++i) {
      scores[i] = i % 7 == 3 ? std::nan("") : static_cast<double>((i * 37) % 101);
      decoy[i] = i % 5 == 0;
    }
    const std::vector<double> q = target_decoy_q_values(scores, decoy);
    double worst_number = 0, best_nan = 1;
    for (size_t i = 0; i < n; ++i) {
      if (std::isnan(scores[i])) {
        best_nan = std::min(best_nan, q[i]);
      } else {
        worst_number = std::max(worst_number, q[i]);
      }
    }
    EXPECT_GE(best_nan, worst_number) << n;
  }
}

TEST(Fdr, TailBoundedDecoyCountByHand) {
  // The list of HandComputedQValues; decoys 7, 4, 2, 1, so the anchor is the second, s_2 = 4.
  // Above it D'(t) = max(D, 2 * 10^-(t - 4)): t = 10, 9, 8 -> 2e-6/1, 2e-5/2, 2e-4/3; at 7, 6,
  // 5 the observed decoy (D = 1) is larger -> 1/3, 1/4, 1/5; at 4 and below D/T as before.
  std::vector<double> scores = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  std::vector<bool> decoy = {false, false, false, true, false, false, true, false, true, true};
  std::vector<double> q = target_decoy_q_values(scores, decoy, DecoyCount::kTailBounded);
  const double expected[] = {2e-6, 1e-5, 2e-4 / 3, 0.2, 0.2, 0.2, 1.0 / 3, 1.0 / 3, 0.5, 2.0 / 3};
  ASSERT_EQ(q.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_NEAR(q[i], expected[i], 1e-15) << i;
}

TEST(Fdr, TailBoundedSmallRunNeedsMoreThanBeatingTheBestDecoy) {
  // A small run: 20 targets at E = 1e-5 (score 5), 20 at E = 0.03 (1.5), decoys at 1.3, 1.0
  // and 200 below 0. D/T gives all 40 targets q = 0 (no decoy above them). With the tail bound
  // (anchor s_2 = 1.0, m = 2): at 1.5, D' = 2 * 10^-0.5 = 0.632 of 40 targets -> q = 0.0158, so
  // only the 20 strong ones pass 1%; at 5, D' = 2e-4 of 20 -> 1e-5.
  std::vector<double> scores;
  std::vector<bool> decoy;
  for (int i = 0; i < 20; ++i) scores.push_back(5.0), decoy.push_back(false);
  for (int i = 0; i < 20; ++i) scores.push_back(1.5), decoy.push_back(false);
  scores.push_back(1.3), decoy.push_back(true);
  scores.push_back(1.0), decoy.push_back(true);
  for (int i = 0; i < 200; ++i) scores.push_back(-0.01 * (i + 1)), decoy.push_back(true);
  const std::vector<double> plain = target_decoy_q_values(scores, decoy);
  const std::vector<double> tail = target_decoy_q_values(scores, decoy, DecoyCount::kTailBounded);
  EXPECT_DOUBLE_EQ(plain[0], 0.0);
  EXPECT_DOUBLE_EQ(plain[20], 0.0);
  EXPECT_NEAR(tail[0], 2e-4 / 20, 1e-15);
  EXPECT_NEAR(tail[20], 2 * std::pow(10.0, -0.5) / 40, 1e-15);
  // The best decoy (1.3) is 0.3 above the anchor: D' = max(1, 2 * 10^-0.3 = 1.0024) of 40;
  // at the anchor (1.0) the decoys seen, 2 of 40.
  EXPECT_NEAR(tail[40], 2 * std::pow(10.0, -0.3) / 40, 1e-15);
  EXPECT_DOUBLE_EQ(plain[40], 1.0 / 40);
  EXPECT_DOUBLE_EQ(tail[41], 2.0 / 40);
  // One decoy in the list: it is the anchor (m = 1).
  const std::vector<double> one =
      target_decoy_q_values({3, 2, 1}, {false, false, true}, DecoyCount::kTailBounded);
  EXPECT_NEAR(one[0], std::pow(10.0, -2), 1e-15);
  EXPECT_NEAR(one[1], std::pow(10.0, -1) / 2, 1e-15);
  // No decoy: nothing to anchor, D/T.
  EXPECT_DOUBLE_EQ(target_decoy_q_values({3, 2}, {false, false}, DecoyCount::kTailBounded)[0], 0);
}

TEST(Fdr, StripDecoyTag) {
  EXPECT_EQ(strip_decoy_tag("rev_P1", "rev_", false), "P1");
  EXPECT_EQ(strip_decoy_tag("P1_rev", "_rev", true), "P1");
  EXPECT_EQ(strip_decoy_tag("P1", "rev_", false), "P1");
}

Psm make(uint64_t spectrum, double score, bool decoy, const std::string& peptide,
         const std::string& protein) {
  Psm p;
  p.spectrum_index = spectrum;
  p.score = score;
  p.decoy = decoy;
  p.sequence = peptide;
  p.proforma = peptide;
  PeptideEvidence e;
  e.protein_accession = protein;
  e.decoy = decoy;
  p.evidence.push_back(e);
  return p;
}

TEST(Fdr, PickedProteinFdr) {
  std::vector<Psm> psms = {
      make(0, 10, false, "AAAK", "P1"),   make(1, 8, false, "CCCK", "P1"),
      make(2, 9, true, "DDDK", "rev_P2"), make(3, 5, false, "EEEK", "P2"),
      make(4, 7, false, "FFFK", "P3"),    make(5, 3, true, "GGGK", "rev_P3"),
      make(6, 6, true, "HHHK", "rev_P4"),
  };
  // Pairs: P1 alone (10); P2 5 vs rev_P2 9 -> decoy picked; P3 7 vs rev_P3 3 -> P3 picked;
  // rev_P4 alone (6). Picked list: P1 T (0/1), rev_P2 D (1/1), P3 T (1/2), rev_P4 D (2/2)
  // -> q: P1 0, rev_P2 0.5, P3 0.5, rev_P4 1; the losers P2 and rev_P3 get 1.
  std::vector<ProteinScore> proteins = assign_protein_q_values(psms, "rev_", false);
  ASSERT_EQ(proteins.size(), 6u);
  auto find = [&](const std::string& a) {
    for (const auto& p : proteins) {
      if (p.accession == a) return p;
    }
    return ProteinScore{};
  };
  EXPECT_DOUBLE_EQ(find("P1").q_value, 0.0);
  EXPECT_DOUBLE_EQ(find("P1").score, 10.0);
  EXPECT_TRUE(find("rev_P2").picked);
  EXPECT_FALSE(find("P2").picked);
  EXPECT_DOUBLE_EQ(find("P2").q_value, 1.0);
  EXPECT_DOUBLE_EQ(find("P3").q_value, 0.5);
  EXPECT_DOUBLE_EQ(find("rev_P4").q_value, 1.0);
  EXPECT_EQ(proteins.front().accession, "P1");  // best first
  EXPECT_DOUBLE_EQ(psms[0].protein_q, 0.0);
  EXPECT_DOUBLE_EQ(psms[4].protein_q, 0.5);
  EXPECT_DOUBLE_EQ(psms[3].protein_q, 1.0);
}

TEST(Fdr, SpectrumAndPeptideLevels) {
  // Peptide AAAK is matched twice (10 and 4): only its best PSM competes at peptide level.
  std::vector<Psm> psms = {make(0, 10, false, "AAAK", "P1"), make(1, 9, false, "CCCK", "P1"),
                           make(2, 8, true, "DDDK", "rev_P2"), make(3, 4, false, "AAAK", "P1")};
  Psm second = make(0, 2, true, "EEEK", "rev_P9");  // rank 2 of spectrum 0
  second.rank = 2;
  psms.push_back(second);
  assign_spectrum_q_values(psms);
  // Rank-1 list: 10 T, 9 T, 8 D (1/2), 4 T (1/3) -> q 0, 0, 1/3, 1/3.
  EXPECT_DOUBLE_EQ(psms[0].spectrum_q, 0.0);
  EXPECT_DOUBLE_EQ(psms[2].spectrum_q, 1.0 / 3);
  EXPECT_DOUBLE_EQ(psms[3].spectrum_q, 1.0 / 3);
  // Rank 2 with score 2: a threshold at 2 accepts all four rank-1 PSMs, FDR 1/3.
  EXPECT_DOUBLE_EQ(psms[4].spectrum_q, 1.0 / 3);
  assign_peptide_q_values(psms);
  // Peptides: AAAK 10 T, CCCK 9 T, DDDK 8 D (1/2) -> AAAK 0 for both of its PSMs.
  EXPECT_DOUBLE_EQ(psms[0].peptide_q, 0.0);
  EXPECT_DOUBLE_EQ(psms[3].peptide_q, 0.0);
  EXPECT_DOUBLE_EQ(psms[2].peptide_q, 0.5);
}

}  // namespace
}  // namespace ionflow
