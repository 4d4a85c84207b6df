// LDA rescoring on synthetic PSM sets: it learns a useful feature the input score ignores, and
// it leaves the scores alone when there is too little to learn from.
#include "scoring/rescoring.hpp"

#include <gtest/gtest.h>

#include <string>

#include "scoring/fdr.hpp"
#include "scoring/psm_facts.hpp"

namespace ionflow {
namespace {

size_t accepted(const std::vector<Psm>& psms) {
  std::vector<double> s;
  std::vector<bool> d;
  for (const Psm& p : psms) {
    s.push_back(p.score);
    d.push_back(p.decoy);
  }
  std::vector<double> q = target_decoy_q_values(s, d);
  size_t n = 0;
  for (size_t i = 0; i < q.size(); ++i) n += !d[i] && q[i] <= 0.01;
  return n;
}

// 400 correct targets, 400 wrong targets and 800 decoys. The input score separates the
// correct targets only partly; matched_peaks (which the score ignores) separates them fully.
std::vector<Psm> synthetic() {
  std::vector<Psm> psms;
  for (int i = 0; i < 1600; ++i) {
    Psm p;
    p.spectrum_index = i;
    p.sequence = "PEPTIDEK";
    p.charge = 2;
    p.theoretical_peaks = 14;
    p.candidates = 10;
    const bool correct = i < 400;
    p.decoy = i >= 800;
    // Deterministic pseudo-random spread in [0, 1).
    const double u = ((i * 7919) % 1000) / 1000.0;
    p.score = correct ? 2.0 + 3.0 * u : 4.0 * u;
    p.hyperscore = p.score;
    p.matched_peaks = correct ? 10 + (i % 3) : 3 + (i % 3);
    psms.push_back(p);
  }
  return psms;
}

TEST(Rescoring, LearnsAFeatureTheScoreIgnores) {
  std::vector<Psm> psms = synthetic();
  const size_t before = accepted(psms);
  ASSERT_TRUE(rescore_psms(psms));
  const size_t after = accepted(psms);
  EXPECT_GT(after, before);
  // Every correct target is accepted (plus a few wrong ones, about as many as the 1% FDR allows).
  EXPECT_GE(after, 400u);
  EXPECT_LE(after, 410u);
}

TEST(Rescoring, TooFewDecoysLeavesScoresAlone) {
  std::vector<Psm> psms = synthetic();
  for (size_t i = 805; i < psms.size(); ++i) psms[i].decoy = false;  // 5 decoys of 1600
  const double first = psms[0].score;
  EXPECT_FALSE(rescore_psms(psms));
  EXPECT_DOUBLE_EQ(psms[0].score, first);
  PsmFacts facts = facts_of(psms);
  RescoringOutcome outcome;
  EXPECT_FALSE(rescore_psms(facts.facts, &outcome));
  EXPECT_EQ(describe(outcome),
            "not applied: a training split has fewer than 10 confident targets or decoys, or its "
            "features are degenerate");
}

// The summary line says what was learned: on the synthetic set the input score accepts the
// 1% FDR targets `before`, the learned one 400 and more.
TEST(Rescoring, TheOutcomeNamesTheCountsBeforeAndAfter) {
  std::vector<Psm> psms = synthetic();
  const size_t before = accepted(psms);
  PsmFacts facts = facts_of(psms);
  RescoringOutcome outcome;
  ASSERT_TRUE(rescore_psms(facts.facts, &outcome));
  EXPECT_TRUE(outcome.applied);
  EXPECT_EQ(outcome.rank1_psms, 1600u);
  EXPECT_EQ(outcome.accepted_before, before);
  EXPECT_GE(outcome.accepted_after, 400u);
  EXPECT_EQ(describe(outcome),
            "applied: linear discriminant over 13 features, 3 cross-validation folds; " +
                std::to_string(before) + " -> " + std::to_string(outcome.accepted_after) +
                " target PSMs at 1% (D/T) on 1600 rank-1 PSMs");
}

// A small run keeps its search statistic: the 800 targets with 199 decoys (999 rank-1 PSMs) are
// not rescored, with 200 decoys (1000) they are.
TEST(Rescoring, FewerThanAThousandRankOnePsmsKeepTheirScore) {
  std::vector<Psm> psms = synthetic();
  psms.resize(999);
  std::vector<double> before;
  for (const Psm& p : psms) before.push_back(p.score);
  EXPECT_FALSE(rescore_psms(psms));
  for (size_t i = 0; i < psms.size(); ++i) EXPECT_EQ(psms[i].score, before[i]);
  std::vector<Psm> thousand = synthetic();
  thousand.resize(1000);
  EXPECT_TRUE(rescore_psms(thousand));
  PsmFacts facts = facts_of(psms);
  RescoringOutcome outcome;
  EXPECT_FALSE(rescore_psms(facts.facts, &outcome));
  EXPECT_EQ(describe(outcome),
            "not applied: 999 rank-1 PSMs, fewer than 1000 (small runs overfit)");
  PsmFacts one = facts_of(std::vector<Psm>(psms.begin(), psms.begin() + 1));
  EXPECT_FALSE(rescore_psms(one.facts, &outcome));
  EXPECT_EQ(describe(outcome), "not applied: 1 rank-1 PSM, fewer than 1000 (small runs overfit)");
}

}  // namespace
}  // namespace ionflow
