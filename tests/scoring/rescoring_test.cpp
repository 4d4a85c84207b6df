// LDA rescoring on synthetic PSM sets: it learns a useful feature the input score ignores, and
// it leaves the scores alone when there is too little to learn from.
#include "scoring/rescoring.hpp"

#include <gtest/gtest.h>

#include "scoring/fdr.hpp"

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

// 200 correct targets, 200 wrong targets and 400 decoys. The input score separates the
// correct targets only partly; matched_peaks (which the score ignores) separates them fully.
std::vector<Psm> synthetic() {
  std::vector<Psm> psms;
  for (int i = 0; i < 800; ++i) {
    Psm p;
    p.spectrum_index = i;
    p.sequence = "PEPTIDEK";
    p.charge = 2;
    p.theoretical_peaks = 14;
    p.candidates = 10;
    const bool correct = i < 200;
    p.decoy = i >= 400;
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
  EXPECT_GE(after, 200u);
  EXPECT_LE(after, 205u);
}

TEST(Rescoring, TooFewDecoysLeavesScoresAlone) {
  std::vector<Psm> psms = synthetic();
  psms.resize(405);  // 5 decoys
  const double first = psms[0].score;
  EXPECT_FALSE(rescore_psms(psms));
  EXPECT_DOUBLE_EQ(psms[0].score, first);
}

}  // namespace
}  // namespace ionflow
