// ProForma 2.0 strings and applied modifications.
#include "scoring/proforma.hpp"

#include <gtest/gtest.h>

namespace ionflow {
namespace {

PeptideIndex index_with_mods() {
  PeptideIndex index;
  index.modifications = {
      {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true},
      {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false},
      {"Acetyl", 1, 42.010565, ModificationPosition::kProteinNTerm, "", false},
      {"", 0, 15.9949, ModificationPosition::kAnywhere, "M", false},
      {"Amidated", 2, -0.984016, ModificationPosition::kPeptideCTerm, "", false},
      {"", 0, -17.0265, ModificationPosition::kPeptideNTerm, "Q", false},
  };
  return index;
}

TEST(ProForma, UnimodAccessions) {
  const PeptideIndex index = index_with_mods();
  Peptide p;
  p.sequence = "MECK";
  const std::vector<PlacedModification> three = {{-1, 2}, {0, 1}, {2, 0}};
  const std::vector<PlacedModification> c_term = {{4, 4}};
  p.modifications = three;
  EXPECT_EQ(to_proforma(p, index), "[UNIMOD:1]-M[UNIMOD:35]EC[UNIMOD:4]K");
  p.modifications = {};
  EXPECT_EQ(to_proforma(p, index), "MECK");
  p.modifications = c_term;
  EXPECT_EQ(to_proforma(p, index), "MECK-[UNIMOD:2]");
}

TEST(ProForma, ExplicitMasses) {
  const PeptideIndex index = index_with_mods();
  Peptide p;
  p.sequence = "QMK";
  const std::vector<PlacedModification> placed = {{-1, 5}, {1, 3}};
  p.modifications = placed;
  EXPECT_EQ(to_proforma(p, index), "[-17.0265]-QM[+15.9949]K");
  EXPECT_EQ(proforma_tag(0, 229.162932), "+229.162932");
  EXPECT_EQ(proforma_tag(0, 1.0), "+1");
  EXPECT_EQ(proforma_tag(737, 229.162932), "UNIMOD:737");
}

TEST(ProForma, AppliedModifications) {
  const PeptideIndex index = index_with_mods();
  Peptide p;
  p.sequence = "MECK";
  const std::vector<PlacedModification> placed = {{-1, 2}, {0, 1}, {2, 0}};
  p.modifications = placed;
  const auto applied = applied_modifications(p, index);
  ASSERT_EQ(applied.size(), 3u);
  EXPECT_EQ(applied[0].position, -1);
  EXPECT_EQ(applied[0].residue, '\0');
  EXPECT_EQ(applied[0].name, "Acetyl");
  EXPECT_EQ(applied[0].unimod_accession, 1);
  EXPECT_FALSE(applied[0].fixed);
  EXPECT_EQ(applied[1].residue, 'M');
  EXPECT_NEAR(applied[1].mass_delta_da, 15.994915, 1e-9);
  EXPECT_EQ(applied[2].position, 2);
  EXPECT_EQ(applied[2].residue, 'C');
  EXPECT_TRUE(applied[2].fixed);
  // The string form of the applied list is the same.
  EXPECT_EQ(to_proforma(p.sequence, applied), "[UNIMOD:1]-M[UNIMOD:35]EC[UNIMOD:4]K");
}

// parse_proforma reads back what to_proforma writes: residues and tags with their positions.
TEST(ProForma, ParseRoundTrip) {
  const PeptideIndex index = index_with_mods();
  Peptide p;
  p.sequence = "MECK";
  const std::vector<PlacedModification> placed = {{-1, 2}, {0, 1}, {2, 0}, {4, 4}};
  p.modifications = placed;
  const std::string text = to_proforma(p, index);
  EXPECT_EQ(text, "[UNIMOD:1]-M[UNIMOD:35]EC[UNIMOD:4]K-[UNIMOD:2]");
  const ParsedProforma parsed = parse_proforma(text);
  EXPECT_EQ(parsed.sequence, "MECK");
  ASSERT_EQ(parsed.tags.size(), 4u);
  EXPECT_EQ(parsed.tags[0].position, -1);
  EXPECT_EQ(parsed.tags[0].tag, "UNIMOD:1");
  EXPECT_EQ(parsed.tags[1].position, 0);
  EXPECT_EQ(parsed.tags[1].tag, "UNIMOD:35");
  EXPECT_EQ(parsed.tags[2].position, 2);
  EXPECT_EQ(parsed.tags[3].position, 4);
  EXPECT_EQ(parsed.tags[3].tag, "UNIMOD:2");
  const ParsedProforma masses = parse_proforma("[-17.0265]-QM[+15.9949]K");
  EXPECT_EQ(masses.sequence, "QMK");
  ASSERT_EQ(masses.tags.size(), 2u);
  EXPECT_EQ(masses.tags[1].tag, "+15.9949");
  EXPECT_EQ(masses.tags[1].position, 1);
  EXPECT_TRUE(parse_proforma("LVNELTEFAK").tags.empty());
}

TEST(ProForma, ParseErrorsNameTheOffset) {
  try {
    parse_proforma("PEP[UNIMOD:35");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "ProForma 'PEP[UNIMOD:35': unclosed '[' at offset 3");
  }
  EXPECT_THROW(parse_proforma("[UNIMOD:1]PEP"), std::invalid_argument);
  EXPECT_THROW(parse_proforma("pep"), std::invalid_argument);
  EXPECT_THROW(parse_proforma(""), std::invalid_argument);
  EXPECT_THROW(parse_proforma("PEP-K"), std::invalid_argument);
}

}  // namespace
}  // namespace ionflow
