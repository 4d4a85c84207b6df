#include "io/mzml_spectrum_builder.hpp"

#include <gtest/gtest.h>

namespace ionflow {
namespace {

TEST(MzmlSpectrumBuilder, ScanNumberFromNativeId) {
  EXPECT_EQ(scan_number_from_native_id("controllerType=0 controllerNumber=1 scan=11461"), 11461);
  EXPECT_EQ(scan_number_from_native_id("scan=7"), 7);
  EXPECT_EQ(scan_number_from_native_id("function=2 process=0 scan=145"), 145);
  EXPECT_EQ(scan_number_from_native_id("spectrum=2442"), 2442);  // MS:1000777 format
  EXPECT_EQ(scan_number_from_native_id("index=12"), -1);         // 0-based index, not a scan
  EXPECT_EQ(scan_number_from_native_id("sample=1 period=1 cycle=5 experiment=2"), -1);
  EXPECT_EQ(scan_number_from_native_id("prescan=5"), -1);
  EXPECT_EQ(scan_number_from_native_id("scan=12x"), -1);
  EXPECT_EQ(scan_number_from_native_id(""), -1);
}

TEST(MzmlSpectrumBuilder, ActivationNames) {
  EXPECT_STREQ(activation_name(1000133), "CID");
  EXPECT_STREQ(activation_name(1002472), "CID");
  EXPECT_STREQ(activation_name(1000422), "HCD");
  EXPECT_STREQ(activation_name(1002481), "HCD");
  EXPECT_STREQ(activation_name(1000598), "ETD");
  EXPECT_STREQ(activation_name(1000250), "ECD");
  EXPECT_EQ(activation_name(1000045), nullptr);  // collision energy is not a method
}

RawSpectrum ms2_with_activation(std::initializer_list<int> terms) {
  MzmlSpectrumBuilder b;
  b.begin("scan=1", 1);
  b.spectrum_term(1000511, "2", "");
  b.saw_precursor();
  b.selected_ion_term(1000744, "500.25");
  for (int t : terms) b.activation_term(t);
  b.mz() = {100.0};
  b.intensity() = {1.0f};
  b.saw_mz_array();
  b.saw_intensity_array();
  RawSpectrum s;
  EXPECT_EQ(b.finish(s), "");
  return s;
}

TEST(MzmlSpectrumBuilder, CombinedActivations) {
  EXPECT_EQ(ms2_with_activation({1000133}).activation, "CID");
  EXPECT_EQ(ms2_with_activation({1000133, 1000422}).activation, "HCD");
  EXPECT_EQ(ms2_with_activation({1000598, 1002678}).activation, "EThcD");
  EXPECT_EQ(ms2_with_activation({1000598, 1002679}).activation, "ETciD");
  EXPECT_EQ(ms2_with_activation({1002631}).activation, "EThcD");
  EXPECT_EQ(ms2_with_activation({}).activation, "");
}

TEST(MzmlSpectrumBuilder, MsLevelAndUnits) {
  MzmlSpectrumBuilder b;
  RawSpectrum s;
  b.begin("scan=3", 0);
  b.spectrum_term(1000511, "3", "");
  EXPECT_EQ(b.finish(s), "MS level 3");

  b.begin("scan=4", 0);
  EXPECT_EQ(b.finish(s), "no MS level");

  // A hostile check: "two" was taken as missing, and with a precursor searched as MS2.
  for (const char* bad : {"two", "2.0", "0", "-1", "100", ""}) {
    b.begin("scan=6", 0);
    b.saw_precursor();
    b.spectrum_term(1000511, bad, "");
    EXPECT_EQ(b.finish(s), "invalid MS level") << bad;
  }
  b.begin("scan=7", 0);
  b.spectrum_term(1000511, " +2 ", "");
  EXPECT_EQ(b.ms_level(), 2);

  // No MS level but a precursor: taken as MS2. RT in hours.
  b.begin("scan=5", 1);
  b.saw_precursor();
  b.isolation_window_term(1000827, "445.12");
  b.spectrum_term(1000016, "0.5", "UO:0000032");
  b.mz() = {100.0};
  b.intensity() = {1.0f};
  b.saw_mz_array();
  b.saw_intensity_array();
  ASSERT_EQ(b.finish(s), "");
  EXPECT_EQ(s.ms_level, 2);
  EXPECT_DOUBLE_EQ(s.precursor_mz, 445.12);
  EXPECT_DOUBLE_EQ(s.rt_seconds, 1800.0);
  EXPECT_EQ(s.scan, 5);
  EXPECT_TRUE(s.precursor_charges.empty());
}

// A number with trailing text is not a number: "357.5xyz" leaves the selected-ion m/z missing
// (the isolation target is used), where from_chars alone had stored 357.5 (new-user test).
TEST(MzmlSpectrumBuilder, NumbersWithTrailingTextAreMissing) {
  MzmlSpectrumBuilder b;
  RawSpectrum s;
  b.begin("scan=6", 1);
  b.spectrum_term(1000511, "2", "");
  b.saw_precursor();
  b.isolation_window_term(1000827, "445.12x");
  b.selected_ion_term(1000744, "357.5");
  b.selected_ion_term(1000042, "1e3junk");
  b.mz() = {100.0};
  b.intensity() = {1.0f};
  b.saw_mz_array();
  b.saw_intensity_array();
  ASSERT_EQ(b.finish(s), "");
  EXPECT_DOUBLE_EQ(s.precursor_mz, 357.5);
  EXPECT_TRUE(s.precursor_charges.empty());
  EXPECT_DOUBLE_EQ(s.precursor_intensity, 0.0);
  // A charge is an exception: "2x" is a bad charge, which skips the spectrum in every reader
  // (io/peak_checks.hpp), rather than an unknown one. So is the selected ion m/z
  // (InvalidSelectedIonMzSkipsTheSpectrum below).
  b.begin("scan=7", 1);
  b.spectrum_term(1000511, "2", "");
  b.saw_precursor();
  b.selected_ion_term(1000744, "357.5");
  b.selected_ion_term(1000041, "2x");
  b.mz() = {100.0};
  b.intensity() = {1.0f};
  b.saw_mz_array();
  b.saw_intensity_array();
  EXPECT_EQ(b.finish(s), "bad precursor charge");
}

// A hostile check: a selected ion m/z of NaN was taken as missing and the isolation target
// searched in its place. A value that is not a finite number >= 0 skips the spectrum; 0, an
// empty and an absent value still fall back to the isolation target.
TEST(MzmlSpectrumBuilder, InvalidSelectedIonMzSkipsTheSpectrum) {
  auto precursor_of = [](const char* selected, RawSpectrum& s) {
    MzmlSpectrumBuilder b;
    b.begin("scan=8", 1);
    b.spectrum_term(1000511, "2", "");
    b.saw_precursor();
    b.isolation_window_term(1000827, "445.12");
    if (selected != nullptr) b.selected_ion_term(1000744, selected);
    b.mz() = {100.0};
    b.intensity() = {1.0f};
    b.saw_mz_array();
    b.saw_intensity_array();
    return b.finish(s);
  };
  RawSpectrum s;
  for (const char* bad : {"nan", "NaN", "inf", "-445.1", "445.1x", "abc", "1e400"}) {
    EXPECT_EQ(precursor_of(bad, s), "invalid precursor m/z") << bad;
  }
  ASSERT_EQ(precursor_of("445.2", s), "");
  EXPECT_DOUBLE_EQ(s.precursor_mz, 445.2);
  ASSERT_EQ(precursor_of("0", s), "");
  EXPECT_DOUBLE_EQ(s.precursor_mz, 445.12);
  ASSERT_EQ(precursor_of(nullptr, s), "");
  EXPECT_DOUBLE_EQ(s.precursor_mz, 445.12);
  ASSERT_EQ(precursor_of(" ", s), "");  // an empty value is missing, as before
  EXPECT_DOUBLE_EQ(s.precursor_mz, 445.12);
}

}  // namespace
}  // namespace ionflow
