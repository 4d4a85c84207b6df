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

const Tolerance kWindow = Tolerance::Ppm(-10.0, 10.0);

// log10((1 - t) W N(error; offset, sigma) + t): the ratio the model adds
// (precursor_calibration.hpp).
double log_ratio(double error_ppm, double offset_ppm, double sigma_ppm, double window_ppm,
                 double tail_share) {
  const double z = (error_ppm - offset_ppm) / sigma_ppm;
  const double density = std::exp(-0.5 * z * z) / (sigma_ppm * std::sqrt(2 * std::numbers::pi));
  return std::log10((1 - tail_share) * window_ppm * density + tail_share);
}

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
  const PrecursorCalibration model = calibrate_precursor_errors(facts, kWindow);
  ASSERT_TRUE(model.applied);
  EXPECT_EQ(model.confident, 30);
  EXPECT_DOUBLE_EQ(model.offset_ppm, 4.0);
  // MAD of {1, 0.5, 0, 0.5, 1} x 6 = 0.5 -> 0.7413 ppm, below the 2 ppm floor.
  EXPECT_DOUBLE_EQ(kMinSigmaPpm, 2.0);
  EXPECT_DOUBLE_EQ(model.sigma_ppm, kMinSigmaPpm);
  EXPECT_DOUBLE_EQ(model.window_ppm, 20.0);
  // At the offset: log10(0.8 W / (sigma sqrt(2 pi)) + 0.2) = +0.53.
  const double top = std::log10(0.8 * 20.0 / (2.0 * std::sqrt(2 * std::numbers::pi)) + 0.2);
  EXPECT_NEAR(top, 0.5304, 1e-4);
  EXPECT_NEAR(facts[2].score - before[2].score, top, 1e-12);  // the PSM at 4.0 ppm
  // 3 ppm from it (facts[369], a wrong target at 6.99 ppm with score 1.39): 1.5 sigma, a gain
  // of log10(0.8 x 20 x phi(1.5) / 2 + 0.2) = +0.094.
  EXPECT_NEAR(facts[369].precursor_ppm, 6.992, 0.001);
  const double near = facts[369].score - before[369].score;
  EXPECT_NEAR(near, log_ratio(facts[369].precursor_ppm, 4.0, 2.0, 20.0, 0.2), 1e-12);
  EXPECT_NEAR(near, 0.094, 0.001);
  // Far from it (the PSM at -10 ppm, 7 sigma away): about log10(0.2), the tail.
  EXPECT_NEAR(facts[30].score - before[30].score, std::log10(0.2), 1e-9);
  EXPECT_DOUBLE_EQ(model.tail_share, kMinTailShare);  // no confident PSM beyond 5 sigma
  EXPECT_FALSE(model.best_targets);
  EXPECT_EQ(describe(model),
            "applied: errors +4.00 ppm +- 2.00 ppm (20% further) from 30 confident PSMs in a "
            "20.0 ppm window");
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
  ASSERT_TRUE(calibrate_precursor_errors(facts, kWindow).applied);
  const size_t n = facts.size();
  EXPECT_EQ(facts[n - 3].score, 0.0);
  EXPECT_EQ(facts[n - 2].score, -0.301);
  const double top = std::log10(0.8 * 20.0 / (2.0 * std::sqrt(2 * std::numbers::pi)) + 0.2);
  EXPECT_NEAR(facts[n - 1].score - before[n - 1].score, top, 1e-12);
  EXPECT_NEAR(facts[30].score - before[30].score, std::log10(0.2), 1e-9);
}

// Fewer than 10 confident PSMs: the 20 best-scoring targets stand in. Here they are the 9
// confident ones and 11 random ones spread over the window: sigma 5.75 ppm, too wide for a 20 ppm
// window to say anything; nothing changes.
TEST(PrecursorCalibration, TooFewConfidentPsmsAndRandomBestTargetsChangeNothing) {
  std::vector<PsmFact> facts = run(kMinConfidentForCalibration - 1);
  const std::vector<PsmFact> before = facts;
  const PrecursorCalibration model = calibrate_precursor_errors(facts, kWindow);
  EXPECT_FALSE(model.applied);
  EXPECT_TRUE(model.best_targets);
  EXPECT_EQ(model.confident, 20);
  EXPECT_EQ(describe(model),
            "not applied: a 20.0 ppm window, less than 6 x the errors' spread 5.75 ppm (1.4826 x "
            "MAD 5.75 ppm, at least 1 ppm)");
  for (size_t i = 0; i < facts.size(); ++i) EXPECT_EQ(facts[i].score, before[i].score);
}

// With 9 confident PSMs whose errors agree, and the best of the rest at the same offset (a run
// whose decoys cut early, as an open search's do), the 20 best-scoring targets learn the offset.
TEST(PrecursorCalibration, TheBestScoringTargetsStandInForTooFewConfidentOnes) {
  std::vector<PsmFact> facts = run(kMinConfidentForCalibration - 1);
  for (int i = 0; i < 12; ++i) {  // at the offset, below the best decoy (1.99), above the rest
    PsmFact p;
    p.spectrum_index = facts.size();
    p.score = 1.981 + 0.0007 * i;
    p.precursor_ppm = 4.0;
    facts.push_back(p);
  }
  const PrecursorCalibration model = calibrate_precursor_errors(facts, kWindow);
  ASSERT_TRUE(model.applied);
  EXPECT_TRUE(model.best_targets);
  EXPECT_EQ(model.confident, 20);
  EXPECT_DOUBLE_EQ(model.offset_ppm, 4.0);
  EXPECT_EQ(describe(model).rfind("applied: errors +4.00 ppm +- 2.00 ppm (20% further) from 20 "
                                  "best-scoring PSMs",
                                  0),
            0u)
      << describe(model);
}

// An open search is calibrated too: the unmodified peptides sit at the offset, a random
// candidate anywhere in +-500 Da (10^6 ppm at 1000 Da). A third of the confident PSMs 100 Da
// off (a modification) make the tail share 1/3: those lose log10(1/3), the ones at the offset
// gain log10(2/3 W / (sigma sqrt(2 pi)) + 1/3).
TEST(PrecursorCalibration, AnOpenSearchLearnsItsUnmodifiedPeakAndItsShare) {
  std::vector<PsmFact> facts = run(30);
  for (PsmFact& p : facts) p.calcmass_da = 1000.0f;
  for (int i = 0; i < 30; ++i) {
    if (i % 3 == 1) facts[i].precursor_ppm = 100000.0;  // +100 Da on 1000 Da
  }
  const std::vector<PsmFact> before = facts;
  const PrecursorCalibration model = calibrate_precursor_errors(facts, Tolerance::Da(-500, 500));
  ASSERT_TRUE(model.applied);
  EXPECT_DOUBLE_EQ(model.window_ppm, 1e6);
  EXPECT_NEAR(model.tail_share, 1.0 / 3, 1e-12);
  // A Da window is named in Da (a new user read "a 257583.1 ppm window" for +-150 Da).
  EXPECT_EQ(describe(model),
            "applied: errors +4.50 ppm +- 2.00 ppm (33% further) from 30 confident PSMs in a "
            "1000.0 Da window (1000000.0 ppm at the PSMs' median mass)");
  // The median of the 30 errors (20 at 3-5 ppm, 10 at 1e5) is 4.5; their MAD 1 -> 1.4826 ppm,
  // below the 2 ppm floor.
  EXPECT_DOUBLE_EQ(model.offset_ppm, 4.5);
  EXPECT_DOUBLE_EQ(model.sigma_ppm, kMinSigmaPpm);
  EXPECT_NEAR(facts[2].score - before[2].score, log_ratio(4.0, 4.5, 2.0, 1e6, 1.0 / 3), 1e-9);
  EXPECT_NEAR(facts[1].score - before[1].score, std::log10(1.0 / 3), 1e-9);
}

// A Da window is W = width / mass in ppm for each PSM: at +-1.2 Da a 1000 Da peptide's window is
// 2400 ppm, a 3000 Da peptide's 800 ppm, and a PSM at the offset gains log10(0.8 W / (sigma
// sqrt(2 pi)) + 0.2) of its own W. The errors themselves are in ppm as before.
TEST(PrecursorCalibration, ADaWindowIsEachPeptidesOwnWidthInPpm) {
  std::vector<PsmFact> facts = run(30);
  for (size_t i = 0; i < facts.size(); ++i) facts[i].calcmass_da = i % 2 == 0 ? 1000.0f : 3000.0f;
  const std::vector<PsmFact> before = facts;
  const PrecursorCalibration model = calibrate_precursor_errors(facts, Tolerance::Da(-1.2, 1.2));
  ASSERT_TRUE(model.applied);
  EXPECT_DOUBLE_EQ(model.offset_ppm, 4.0);
  EXPECT_DOUBLE_EQ(model.sigma_ppm, kMinSigmaPpm);
  const double root = 2.0 * std::sqrt(2 * std::numbers::pi);  // sigma 2 ppm
  // facts[2]: 4.0 ppm, 1000 Da; facts[7]: 4.0 ppm, 3000 Da.
  EXPECT_NEAR(facts[2].score - before[2].score, std::log10(0.8 * 2400.0 / root + 0.2), 1e-9);
  EXPECT_NEAR(facts[7].score - before[7].score, std::log10(0.8 * 800.0 / root + 0.2), 1e-9);
  EXPECT_EQ(describe(model).rfind(
                "applied: errors +4.00 ppm +- 2.00 ppm (20% further) from 30 confident PSMs", 0),
            0u)
      << describe(model);
}

// A +-5 ppm search (a 10 ppm window) of tight errors is calibrated: the 6-spread test uses the
// errors' own spread (0.74 ppm, at least 1 ppm), the density sigma 2 ppm. Errors spread to 1.9
// ppm are not: 6 x 1.9 > 10, and the summary gives the measured spread.
TEST(PrecursorCalibration, ANarrowWindowIsJudgedOnTheMeasuredSpread) {
  std::vector<PsmFact> facts = run(30);
  for (PsmFact& p : facts) p.precursor_ppm = 4.0 + (p.precursor_ppm - 4.0) / 2.0;  // within +-5
  const std::vector<PsmFact> before = facts;
  const PrecursorCalibration model = calibrate_precursor_errors(facts, Tolerance::Ppm(-1, 9));
  ASSERT_TRUE(model.applied) << describe(model);
  EXPECT_DOUBLE_EQ(model.spread_ppm, kMinSpreadPpm);  // MAD 0.25 -> 0.37 ppm, floored at 1
  EXPECT_DOUBLE_EQ(model.sigma_ppm, kMinSigmaPpm);
  EXPECT_NEAR(facts[2].score - before[2].score, log_ratio(4.0, 4.0, 2.0, 10.0, 0.2), 1e-12);

  std::vector<PsmFact> wide = run(30);
  for (int i = 0; i < 30; ++i) wide[i].precursor_ppm = 4.0 + ((i % 5) - 2) * 1.28;
  const PrecursorCalibration loose = calibrate_precursor_errors(wide, Tolerance::Ppm(-1, 9));
  EXPECT_FALSE(loose.applied);
  EXPECT_NEAR(loose.spread_ppm, 1.4826 * 1.28, 1e-9);
  EXPECT_EQ(describe(loose),
            "not applied: a 10.0 ppm window, less than 6 x the errors' spread 1.90 ppm (1.4826 x "
            "MAD 1.90 ppm, at least 1 ppm)");
  // A +-2 ppm search of tight errors: the 1 ppm floor of the spread decides, and says so.
  std::vector<PsmFact> tight = run(30);
  for (PsmFact& p : tight) p.precursor_ppm = 4.0 + (p.precursor_ppm - 4.0) / 2.0;
  const PrecursorCalibration narrow = calibrate_precursor_errors(tight, Tolerance::Ppm(2, 6));
  EXPECT_FALSE(narrow.applied);
  EXPECT_EQ(describe(narrow),
            "not applied: a 4.0 ppm window, less than 6 x the errors' spread 1.00 ppm (1.4826 x "
            "MAD 0.37 ppm, at least 1 ppm)");
}

// A Da tolerance without the peptide's mass (facts made by hand) gives no window: no change.
TEST(PrecursorCalibration, ADaWindowWithoutMassesChangesNothing) {
  std::vector<PsmFact> facts = run(30);
  const std::vector<PsmFact> before = facts;
  EXPECT_FALSE(calibrate_precursor_errors(facts, Tolerance::Da(-1.2, 1.2)).applied);
  for (size_t i = 0; i < facts.size(); ++i) EXPECT_EQ(facts[i].score, before[i].score);
}

// Too few confident PSMs: the line says how many, in the singular after one.
TEST(PrecursorCalibration, TooFewConfidentPsmsAreCountedInTheLine) {
  PrecursorCalibration model;
  model.confident = 1;
  EXPECT_EQ(describe(model), "not applied: 1 rank-1 target PSM, fewer than 10");
  model.confident = 4;
  EXPECT_EQ(describe(model), "not applied: 4 rank-1 target PSMs, fewer than 10");
}

}  // namespace
}  // namespace ionflow
