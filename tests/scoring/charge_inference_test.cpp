// Charge inference for spectra without a precursor charge (scoring/charge_inference.hpp):
// Comet's rule on hand-made peaks, on a real 2+ tryptic spectrum, and a search of the yeast
// development set with its charges stripped against the same search with them. The yeast
// tests skip, with the reason, when ../shared/data is absent.
#include "scoring/charge_inference.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "scoring/search.hpp"
#include "scoring_test_support.hpp"
#include "yeast_run_support.hpp"

namespace ionflow {
namespace {

TEST(ChargeInference, FractionBelowThePrecursor) {
  // 90 + 6 of 100 below 500 Th: 0.96; the peak at 500 itself is not below (Comet: mz < m/z).
  const std::vector<double> mz = {200.0, 499.0, 500.0, 700.0};
  const std::vector<float> in = {90.0f, 6.0f, 1.0f, 3.0f};
  EXPECT_DOUBLE_EQ(intensity_fraction_below(mz, in, 500.0), 0.96);
  EXPECT_TRUE(looks_singly_charged(mz, in, 500.0));
  // Exactly 95% is not "more than 95%": multiply charged, as in Comet.
  EXPECT_DOUBLE_EQ(intensity_fraction_below(mz, {95.0f, 0.0f, 5.0f, 0.0f}, 500.0), 0.95);
  EXPECT_FALSE(looks_singly_charged(mz, {95.0f, 0.0f, 5.0f, 0.0f}, 500.0));
  // No intensity at all: singly charged (Comet: dSumTotal == 0).
  EXPECT_DOUBLE_EQ(intensity_fraction_below(mz, {0.0f, 0.0f, 0.0f, 0.0f}, 500.0), 1.0);
}

// The charges tried stay inside the configured range; when the rule's answer is outside it the
// whole range is tried.
TEST(ChargeInference, ChargesWithinTheRange) {
  const std::vector<double> mz = {200.0, 300.0, 700.0};
  const std::vector<float> singly = {50.0f, 49.0f, 1.0f};     // 99% below 500
  const std::vector<float> multiply = {50.0f, 20.0f, 30.0f};  // 70% below 500
  EXPECT_EQ(inferred_precursor_charges(mz, singly, 500.0, 1, 3), std::vector<int>{1});
  EXPECT_EQ(inferred_precursor_charges(mz, multiply, 500.0, 1, 3), (std::vector<int>{2, 3}));
  EXPECT_EQ(inferred_precursor_charges(mz, multiply, 500.0, 1, 4), (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(inferred_precursor_charges(mz, singly, 500.0, 2, 3), (std::vector<int>{2, 3}));
  EXPECT_EQ(inferred_precursor_charges(mz, multiply, 500.0, 1, 1), std::vector<int>{1});
  EXPECT_EQ(inferred_precursor_charges(mz, multiply, 500.0, 0, 2), std::vector<int>{2});
  EXPECT_TRUE(inferred_precursor_charges(mz, multiply, 500.0, 3, 2).empty());
}

// prepare_spectrum uses the rule for a spectrum without a charge, and not when it is off.
TEST(ChargeInference, PrepareSpectrumTriesTheInferredCharges) {
  SearchParameters params;
  params.min_peaks = 1;
  params.min_precursor_charge = 1;
  params.max_precursor_charge = 3;
  RawSpectrum s;
  s.precursor_mz = 800.0;
  // The singly charged b/y ions of PEPTIDE (MH+ 800.367): b2 227.103, y2 263.087, y3 376.171,
  // b4 425.203, y4 477.219, y5 574.272, b6 653.309: every fragment lies below MH+.
  s.mz = {227.103, 263.087, 376.171, 425.203, 477.219, 574.272, 653.309};
  s.intensity = {20.0f, 50.0f, 40.0f, 30.0f, 60.0f, 80.0f, 10.0f};
  PreparedSpectrum p = prepare_spectrum(s, params);
  ASSERT_EQ(p.queries.size(), 1u);
  EXPECT_EQ(p.queries[0].charge, 1);
  EXPECT_FALSE(p.queries[0].charge_from_file);
  EXPECT_NEAR(p.queries[0].neutral_mass, 800.0 - 1.007276467, 1e-6);
  params.infer_precursor_charge = false;
  EXPECT_EQ(prepare_spectrum(s, params).queries.size(), 3u);
  // A charge in the file is believed whatever the peaks say.
  params.infer_precursor_charge = true;
  s.precursor_charges = {2};
  p = prepare_spectrum(s, params);
  ASSERT_EQ(p.queries.size(), 1u);
  EXPECT_EQ(p.queries[0].charge, 2);
}

// --- the yeast development set --------------------------------------------------------------

using yeast_run::read_spectra;
using yeast_run::search;
const std::string kDir = yeast_run::directory();

// The benchmark's high-res settings (perf/ident), charges 1-3 for spectra without one.
SearchParameters yeast_parameters() {
  SearchParameters p = yeast_run::parameters();
  p.min_precursor_charge = 1;
  p.max_precursor_charge = 3;
  return p;
}

const RawSpectrum& by_scan(const std::vector<RawSpectrum>& spectra, int64_t scan) {
  for (const RawSpectrum& s : spectra) {
    if (s.scan == scan) return s;
  }
  throw std::runtime_error("scan not found");
}

// Scan 119 is KAPAGGAADAAAK at 2+ (MetaMorpheus, SmallCalibratible_Yeast.mzID): 77.9% of its
// intensity lies below its precursor m/z (549.80), so the rule says multiply charged.
TEST(ChargeInference, RealTwoPlusSpectrumIsMultiplyCharged) {
  REQUIRE_YEAST_RUN();
  const std::vector<RawSpectrum> spectra = read_spectra(kDir + "/SmallCalibratible_Yeast.mzML");
  const RawSpectrum& s = by_scan(spectra, 119);
  EXPECT_EQ(s.precursor_charges, std::vector<int>{2});
  EXPECT_NEAR(intensity_fraction_below(s.mz, s.intensity, s.precursor_mz), 0.7788, 0.0001);
  EXPECT_EQ(inferred_precursor_charges(s.mz, s.intensity, s.precursor_mz, 1, 3),
            (std::vector<int>{2, 3}));
}

// The run with every charge stripped, searched at the inferred charges within 1-3, against the
// run with its charges: each charge's candidates get their own E-value and the spectrum keeps
// the best across charges (finalize.cpp). The PSMs at 1% come within 4 of the run with charges.
TEST(ChargeInference, ChargelessYeastRunComesCloseToTheRunWithCharges) {
  REQUIRE_YEAST_RUN();
  const std::vector<RawSpectrum> with = read_spectra(kDir + "/SmallCalibratible_Yeast.mzML");
  std::vector<RawSpectrum> without = with;
  for (RawSpectrum& s : without) s.precursor_charges.clear();
  SearchParameters params = yeast_parameters();
  auto accepted = [](const std::map<uint64_t, Psm>& psms) {
    size_t n = 0;
    for (const auto& [index, p] : psms) n += !p.decoy && p.spectrum_q <= 0.01;
    return n;
  };
  const std::map<uint64_t, Psm> a = search(with, params);
  const std::map<uint64_t, Psm> b = search(without, params);
  params.infer_precursor_charge = false;
  const std::map<uint64_t, Psm> c = search(without, params);
  size_t same = 0;
  for (const auto& [index, p] : a) {
    auto it = b.find(index);
    same += it != b.end() && !p.decoy && p.spectrum_q <= 0.01 && !it->second.decoy &&
            it->second.spectrum_q <= 0.01 && it->second.proforma == p.proforma &&
            it->second.charge == p.charge;
  }
  std::cout << "yeast mzML PSMs at 1%: with charges " << accepted(a) << ", without (inferred) "
            << accepted(b) << " (same peptide and charge " << same << "), without (1-3) "
            << accepted(c) << "\n";
  // Measured: 69 with charges; 66 without, all 66 with the same peptide and charge as with
  // them (the 3 lost had E-values 0.6-2.1); 66 too when every charge of 1-3 is tried.
  EXPECT_GE(accepted(a), 65u);
  EXPECT_GE(accepted(b) + 4, accepted(a));
  EXPECT_GE(same + 4, accepted(a));
  const Psm& kapa = b.at(by_scan(without, 119).spectrum_index);
  EXPECT_EQ(kapa.proforma, "KAPAGGAADAAAK");
  EXPECT_EQ(kapa.charge, 2);
}

}  // namespace
}  // namespace ionflow
