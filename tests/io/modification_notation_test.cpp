// How each result writer spells a modification: one with a Unimod accession (given by name, or
// by mass and named by Unimod::named_by_mass) and one that stays a mass (no Unimod entry, or
// several, at its site: 28.0313 Da on K is Dimethyl, Ethyl or Delta:H(4)C(2)).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "io/result_writer.hpp"
#include "result_fixture.hpp"

namespace ionflow {
namespace {

using result_testing::carbamidomethyl;
using result_testing::fixture_context;
using result_testing::fixture_parameters;
using result_testing::make_psm;
using result_testing::PsmSpec;
using result_testing::ScratchDir;

constexpr double kDimethylDa = 28.0313;  // Unimod 36 (and 255, 280: the same delta on K)

// ACKLVNELTEFAK (a made-up BSA-like peptide) with Carbamidomethyl on C2 and +28.0313 on K3.
std::vector<Psm> psms() {
  PsmSpec spec{0,
               0,
               "controllerType=0 controllerNumber=1 scan=7",
               7,
               100.0,
               2,
               1,
               false,
               "ACKLVNELTEFAK",
               "",
               {carbamidomethyl(1), {2, 'K', kDimethylDa, "", 0, false}},
               {{result_testing::kAlbumin, 64, 'K', 'D', false}},
               0.001,
               30.0,
               10.0,
               1e-6,
               12,
               40,
               0.001,
               0.001,
               0.001};
  return {make_psm(spec)};
}

using VectorWriter = void (*)(std::ostream&, const std::vector<Psm>&, const ResultContext&);

std::string written(VectorWriter write) {
  ScratchDir dir("notation");
  SearchParameters params = fixture_parameters();
  params.database.variable_modifications.push_back(
      {"", 0, kDimethylDa, ModificationPosition::kAnywhere, "K", false});
  const ResultContext context = fixture_context(&params, dir);
  std::ostringstream out;
  write(out, psms(), context);
  return out.str();
}

TEST(ModificationNotation, TsvProForma) {
  EXPECT_NE(
      written(static_cast<VectorWriter>(&write_tsv)).find("\tAC[UNIMOD:4]K[+28.0313]LVNELTEFAK\t"),
      std::string::npos);
}

TEST(ModificationNotation, MzIdentMlUnimodOrUnknownModification) {
  for (VectorWriter write : {static_cast<VectorWriter>(&write_mzidentml),
                             static_cast<VectorWriter>(&write_mzidentml_1_2)}) {
    const std::string xml = written(write);
    EXPECT_NE(xml.find("<Modification location=\"2\" monoisotopicMassDelta=\"57.021464\" "
                       "residues=\"C\">\n        <cvParam cvRef=\"UNIMOD\" accession=\"UNIMOD:4\" "
                       "name=\"Carbamidomethyl\"/>"),
              std::string::npos)
        << xml;
    EXPECT_NE(
        xml.find("<Modification location=\"3\" monoisotopicMassDelta=\"28.0313\" "
                 "residues=\"K\">\n        <cvParam cvRef=\"PSI-MS\" accession=\"MS:1001460\" "
                 "name=\"unknown modification\" value=\"28.0313\"/>"),
        std::string::npos)
        << xml;
  }
}

TEST(ModificationNotation, PepXmlTppMassesAndDescriptions) {
  const std::string xml = written(static_cast<VectorWriter>(&write_pepxml));
  // C 103.009185 + 57.021464 = 160.03; K 128.094963 + 28.0313 = 156.13.
  EXPECT_NE(xml.find("modified_peptide=\"AC[160]K[156]LVNELTEFAK\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<parameter name=\"proforma\" value=\"AC[UNIMOD:4]K[+28.0313]LVNELTEFAK\"/>"),
            std::string::npos);
  // The named modification has a Mascot-style description; the mass-only one none.
  EXPECT_NE(xml.find("massdiff=\"57.021464\" mass=\"160.030648505\" variable=\"N\" "
                     "description=\"Carbamidomethyl (C)\"/>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<aminoacid_modification aminoacid=\"K\" massdiff=\"28.0313\" "
                     "mass=\"156.12626304999998\" variable=\"Y\"/>"),
            std::string::npos)
      << xml;
}

TEST(ModificationNotation, PinMassTags) {
  EXPECT_NE(written(static_cast<VectorWriter>(&write_pin))
                .find("\tK.AC[+57.0215]K[+28.0313]LVNELTEFAK.D\t"),
            std::string::npos);
}

}  // namespace
}  // namespace ionflow
