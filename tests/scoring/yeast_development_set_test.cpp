// The development set's yeast run (../shared/data/metamorpheus-yeast-smallcalib: an Orbitrap
// Velos HCD slice, 118 MS2, shipped by MetaMorpheus as mzML and by mzLib as MGF, with
// SmallYeast.fasta and MetaMorpheus 1.10's identifications). Skipped, with the reason, when the
// folder is absent (a user's clone has no ../shared/data).
//  - The two files hold the same spectra except the precursor m/z: the MGF's PEPMASS is the
//    isolation window target rounded to 2 decimals, where the mzML's selected ion is Thermo's
//    monoisotopic m/z: for 108 spectra the same peak (488.73 for 488.734253; up to 14.7 ppm off,
//    more than a 10 ppm window allows), for 10 an isotope peak 1-4 neutrons higher. ionflow reads
//    each faithfully (charges, peaks, intensities).
//  - Given the mzML's precursor m/z, the MGF spectra give the same PSMs as the mzML.
//  - ionflow finds MetaMorpheus' peptides: of MetaMorpheus' 65 PSMs at q <= 0.01, at least 49
//    get the same peptide (I = L) on the same scan at spectrum_q <= 0.01 (measured: 49).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "scoring/search.hpp"
#include "scoring_test_support.hpp"
#include "yeast_run_support.hpp"

namespace ionflow {
namespace {

using yeast_run::read_spectra;
const std::string kDir = yeast_run::directory();

// Rank-1 PSMs by MS2 order, at the benchmark's settings.
std::map<uint64_t, Psm> search(const std::vector<RawSpectrum>& spectra) {
  return yeast_run::search(spectra, yeast_run::parameters());
}

TEST(YeastDevelopmentSet, MzmlAndMgfDifferOnlyInThePepmassRounding) {
  REQUIRE_YEAST_RUN();
  const std::vector<RawSpectrum> mzml = read_spectra(kDir + "/SmallCalibratible_Yeast.mzML");
  const std::vector<RawSpectrum> mgf = read_spectra(kDir + "/SmallCalibratibleYeast.mgf");
  ASSERT_EQ(mzml.size(), 118u);
  ASSERT_EQ(mgf.size(), 118u);
  EXPECT_EQ(mzml[0].native_id, "controllerType=0 controllerNumber=1 scan=2");
  EXPECT_DOUBLE_EQ(mgf[0].precursor_mz, 488.73);
  EXPECT_NEAR(mzml[0].precursor_mz, 488.734253, 1e-6);
  double worst_ppm = 0;
  std::vector<int64_t> isolation_target;  // scans whose PEPMASS is not the monoisotopic m/z
  for (size_t i = 0; i < mzml.size(); ++i) {
    SCOPED_TRACE(mzml[i].native_id);
    // The MGF TITLE carries the mzML's nativeID.
    EXPECT_NE(mgf[i].native_id.find("NativeID:\"" + mzml[i].native_id + "\""), std::string::npos);
    const double rounded = std::round(mzml[i].precursor_mz * 100) / 100;
    if (std::abs(mgf[i].precursor_mz - rounded) > 1e-9) {
      // The isolation window target (an isotope peak 1-4 neutrons above) where the mzML's
      // selected ion is Thermo's monoisotopic m/z.
      isolation_target.push_back(mzml[i].scan);
      const double neutrons = (mgf[i].precursor_mz - mzml[i].precursor_mz) *
                              mzml[i].precursor_charges.at(0) / 1.0033548;
      EXPECT_GT(neutrons, 0.9);
      EXPECT_LT(neutrons, 4.1);
    } else {
      worst_ppm = std::max(worst_ppm, std::abs(mgf[i].precursor_mz - mzml[i].precursor_mz) /
                                          mzml[i].precursor_mz * 1e6);
    }
    EXPECT_EQ(mgf[i].precursor_charges, mzml[i].precursor_charges);
    ASSERT_EQ(mgf[i].mz.size(), mzml[i].mz.size());
    for (size_t k = 0; k < mzml[i].mz.size(); ++k) {
      // MGF prints 7-8 significant digits of the m/z; the intensities are the same floats.
      EXPECT_NEAR(mgf[i].mz[k], mzml[i].mz[k], 1e-6 * mzml[i].mz[k]);
      EXPECT_EQ(mgf[i].intensity[k], mzml[i].intensity[k]);
    }
  }
  EXPECT_EQ(isolation_target, (std::vector<int64_t>{5, 35, 40, 44, 60, 67, 78, 95, 102, 110}));
  EXPECT_LT(worst_ppm, 15.0);  // 0.005 m/z of rounding: 14.7 ppm at 337.71
  EXPECT_GT(worst_ppm, 14.0);
}

TEST(YeastDevelopmentSet, WithTheMzmlsPrecursorMzTheMgfGivesTheSamePsms) {
  REQUIRE_YEAST_RUN();
  const std::vector<RawSpectrum> mzml = read_spectra(kDir + "/SmallCalibratible_Yeast.mzML");
  std::vector<RawSpectrum> mgf = read_spectra(kDir + "/SmallCalibratibleYeast.mgf");
  ASSERT_EQ(mgf.size(), mzml.size());
  for (size_t i = 0; i < mgf.size(); ++i) mgf[i].precursor_mz = mzml[i].precursor_mz;
  const std::map<uint64_t, Psm> a = search(mzml);
  const std::map<uint64_t, Psm> b = search(mgf);
  ASSERT_EQ(a.size(), b.size());
  size_t accepted = 0;
  for (const auto& [index, p] : a) {
    SCOPED_TRACE(p.native_id);
    const Psm& q = b.at(index);
    EXPECT_EQ(p.proforma, q.proforma);
    EXPECT_EQ(p.charge, q.charge);
    EXPECT_EQ(p.evalue, q.evalue);
    EXPECT_EQ(p.spectrum_q, q.spectrum_q);
    accepted += !p.decoy && p.spectrum_q <= 0.01;
  }
  EXPECT_GE(accepted, 60u);
}

TEST(YeastDevelopmentSet, FindsMetaMorpheusPeptidesOnTheSameScans) {
  REQUIRE_YEAST_RUN();
  // MetaMorpheus' PSMs at q <= 0.01: SpectrumIdentificationResult spectrumID -> its rank-1
  // Peptide's sequence, from SmallCalibratible_Yeast.mzID.
  const std::string mzid = scoring_test::read_file(kDir + "/SmallCalibratible_Yeast.mzID");
  std::map<std::string, std::string> sequence_of;
  const std::regex peptide("<Peptide id=\"([^\"]+)\">\\s*<PeptideSequence>([A-Z]+)<");
  for (auto it = std::sregex_iterator(mzid.begin(), mzid.end(), peptide);
       it != std::sregex_iterator(); ++it) {
    sequence_of[(*it)[1]] = (*it)[2];
  }
  std::map<std::string, std::string> expected;  // native id -> sequence
  auto attribute = [](const std::string& text, size_t from, const std::string& name) {
    const size_t at = text.find(name + "=\"", from) + name.size() + 2;
    return text.substr(at, text.find('"', at) - at);
  };
  for (size_t at = mzid.find("<SpectrumIdentificationResult "); at != std::string::npos;
       at = mzid.find("<SpectrumIdentificationResult ", at + 1)) {
    const size_t end = mzid.find("</SpectrumIdentificationResult>", at);
    const size_t q_at = mzid.find("name=\"PSM-level q-value\"", at);
    if (q_at > end) continue;
    if (std::stod(attribute(mzid, q_at, "value")) <= 0.01) {
      expected[attribute(mzid, at, "spectrumID")] = sequence_of.at(
          attribute(mzid, mzid.find("<SpectrumIdentificationItem ", at), "peptide_ref"));
    }
  }
  ASSERT_EQ(expected.size(), 65u);

  const std::vector<RawSpectrum> spectra = read_spectra(kDir + "/SmallCalibratible_Yeast.mzML");
  auto plain = [](const std::string& s) {
    std::string out;
    bool in_mod = false;
    for (char c : s) {
      if (c == '[') in_mod = true;
      if (!in_mod && c >= 'A' && c <= 'Z') out += c == 'I' ? 'L' : c;
      if (c == ']') in_mod = false;
    }
    return out;
  };
  size_t same = 0;
  for (const auto& [index, p] : search(spectra)) {
    auto it = expected.find(p.native_id);
    if (it == expected.end() || p.decoy || p.spectrum_q > 0.01) continue;
    same += plain(p.proforma) == plain(it->second);
  }
  EXPECT_GE(same, 49u);
}

}  // namespace
}  // namespace ionflow
