// The precursor-error likelihood ratio: learned from the confident PSMs of a run, it lifts PSMs
// at the run's offset and lowers those at the window's edge, by the stated amounts; it stays off
// when too few PSMs are confident or the window is an open search's.
#include "scoring/precursor_calibration.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

namespace ionflow {
namespace {

// 30 confident targets at 4 +- ~1 ppm with scores 10..39, 200 decoys and 200 wrong targets at
// scores 0..2 spread over -10..+10 ppm (a +-10 ppm search, E. coli-like offset).
std::vector<PsmFact> run(int confident) {
  std::vector<PsmFact> facts;
  for (int i = 0; i < confident; ++i) {
    PsmFact p;
    p.spectrum_index = facts.size();
    p.score = 10 + i;
    p.precursor_ppm = 4.0 + ((i % 5) - 2) * 0.5;  // 3, 3.5, 4, 4.5, 5
    facts.push_back(p);
  }
  for (int i = 0; i < 400; ++i) {
    PsmFact p;
    p.spectrum_index = facts.size();
    p.decoy = i % 2 == 1;  // the best of them (score 1.99) a decoy
    p.score = (i % 200) / 100.0;
    p.precursor_ppm = -10.0 + 20.0 * i / 399.0;
    facts.push_back(p);
  }
  return facts;
}

TEST(PrecursorCalibration, LearnsTheOffsetAndSpreadAndAddsTheLikelihoodRatio) {
  std::vector<PsmFact> facts = run(30);
  const std::vector<PsmFact> before = facts;
  const PrecursorCalibration model = calibrate_precursor_errors(facts);
  ASSERT_TRUE(model.applied);
  EXPECT_EQ(model.confident, 30);
  EXPECT_DOUBLE_EQ(model.offset_ppm, 4.0);
  // MAD of {1, 0.5, 0, 0.5, 1} x 6 = 0.5 -> 0.7413 ppm, below the 1 ppm floor.
  EXPECT_DOUBLE_EQ(model.sigma_ppm, kMinSigmaPpm);
  EXPECT_DOUBLE_EQ(model.window_ppm, 20.0);
  // At the offset: log10(0.8 W / (sigma sqrt(2 pi)) + 0.2).
  const double top = std::log10(0.8 * 20.0 / std::sqrt(2 * std::numbers::pi) + 0.2);
  EXPECT_NEAR(facts[2].score - before[2].score, top, 1e-12);  // the PSM at 4.0 ppm
  // Far from it (the PSM at -10 ppm, 14 sigma away): log10(0.2), the tail.
  EXPECT_NEAR(facts[30].score - before[30].score, std::log10(0.2), 1e-12);
  EXPECT_EQ(describe(model),
            "applied: errors +4.00 ppm +- 1.00 ppm from 30 confident PSMs in a 20.0 ppm window");
}

TEST(PrecursorCalibration, NoGainWithoutFragmentEvidence) {
  // Two more wrong targets at the offset (4.0 ppm): with E = 1 (score 0) and E = 2 (score
  // -0.301) they keep their score; one at E = 0.5 gets the full gain. The penalty at the edge
  // is given whatever the E-value (facts[30]: score 0 at -10 ppm, checked above).
  std::vector<PsmFact> facts = run(30);
  for (double score : {0.0, -0.301, 0.301}) {
    PsmFact p;
    p.spectrum_index = facts.size();
    p.score = score;
    p.precursor_ppm = 4.0;
    facts.push_back(p);
  }
  const std::vector<PsmFact> before = facts;
  ASSERT_TRUE(calibrate_precursor_errors(facts).applied);
  const size_t n = facts.size();
  EXPECT_EQ(facts[n - 3].score, 0.0);
  EXPECT_EQ(facts[n - 2].score, -0.301);
  const double top = std::log10(0.8 * 20.0 / std::sqrt(2 * std::numbers::pi) + 0.2);
  EXPECT_NEAR(facts[n - 1].score - before[n - 1].score, top, 1e-12);
  EXPECT_NEAR(facts[30].score - before[30].score, std::log10(0.2), 1e-12);
}

TEST(PrecursorCalibration, TooFewConfidentPsmsChangeNothing) {
  std::vector<PsmFact> facts = run(kMinConfidentForCalibration - 1);
  const std::vector<PsmFact> before = facts;
  const PrecursorCalibration model = calibrate_precursor_errors(facts);
  EXPECT_FALSE(model.applied);
  EXPECT_EQ(describe(model), "not applied: 9 confident PSMs, fewer than 10");
  for (size_t i = 0; i < facts.size(); ++i) EXPECT_EQ(facts[i].score, before[i].score);
}

TEST(PrecursorCalibration, AnOpenSearchWindowIsLeftAlone) {
  std::vector<PsmFact> facts = run(30);
  facts.back().precursor_ppm = 500000.0;  // a +500 Da mass shift on a 1000 Da peptide
  const std::vector<PsmFact> before = facts;
  const PrecursorCalibration model = calibrate_precursor_errors(facts);
  EXPECT_FALSE(model.applied);
  EXPECT_GT(model.window_ppm, kMaxWindowPpm);
  EXPECT_EQ(describe(model).rfind("not applied: the errors span 500010.0 ppm, more than 100 (an "
                                  "open or low-resolution window)",
                                  0),
            0u)
      << describe(model);
  for (size_t i = 0; i < facts.size(); ++i) EXPECT_EQ(facts[i].score, before[i].score);
}

}  // namespace
}  // namespace ionflow
