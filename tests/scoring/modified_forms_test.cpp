// Modified forms: fixed mods on every site, variable combinations, protein-terminal rules.
#include "scoring/modified_forms.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ionflow {
namespace {

Modification mod(std::string name, double mass, ModificationPosition position,
                 std::string residues) {
  Modification m;
  m.name = std::move(name);
  m.mass_delta_da = mass;
  m.position = position;
  m.residues = std::move(residues);
  return m;
}

const Modification kCam = mod("Carbamidomethyl", 57.021464, ModificationPosition::kAnywhere, "C");
const Modification kOx = mod("Oxidation", 15.994915, ModificationPosition::kAnywhere, "M");
const Modification kProtAc = mod("Acetyl", 42.010565, ModificationPosition::kProteinNTerm, "");
const Modification kPyro =
    mod("Gln->pyro-Glu", -17.026549, ModificationPosition::kPeptideNTerm, "Q");
const Modification kTmtN = mod("TMT6plex", 229.162932, ModificationPosition::kPeptideNTerm, "");
const Modification kAmid = mod("Amidated", -0.984016, ModificationPosition::kProteinCTerm, "");

// Form as "position:modification;..." for compact comparison.
std::vector<std::string> render(const std::vector<std::vector<PlacedModification>>& forms) {
  std::vector<std::string> out;
  for (const auto& f : forms) {
    std::string s;
    for (const auto& p : f)
      s += std::to_string(p.position) + ":" + std::to_string(p.modification) + ";";
    out.push_back(s);
  }
  return out;
}

TEST(ModifiedForms, FixedOnEverySite) {
  ModificationPlacer placer({kCam}, {}, 2);
  EXPECT_EQ(render(placer.forms("CACDCK")), (std::vector<std::string>{"0:0;2:0;4:0;"}));
  EXPECT_EQ(render(placer.forms("PEPTIDEK")), (std::vector<std::string>{""}));
}

TEST(ModifiedForms, VariableCombinationsUpToMax) {
  // Three M: 1 + 3 + 3 forms with at most 2 oxidations (not the triple).
  ModificationPlacer placer({kCam}, {kOx}, 2);
  const auto forms = render(placer.forms("MCMAMK"));
  const std::vector<std::string> expected = {
      "1:0;", "0:1;1:0;", "0:1;1:0;2:1;", "0:1;1:0;4:1;", "1:0;2:1;", "1:0;2:1;4:1;", "1:0;4:1;"};
  EXPECT_EQ(forms, expected);
  ModificationPlacer none({kCam}, {kOx}, 0);
  EXPECT_EQ(none.forms("MCMAMK").size(), 1u);
  ModificationPlacer three({}, {kOx}, 3);
  EXPECT_EQ(three.forms("MCMAMK").size(), 8u);
}

TEST(ModifiedForms, MassDeltas) {
  ModificationPlacer placer({kCam}, {kOx}, 2);
  ModifiedForms flat;
  placer.place("MECK", false, false, flat);
  ASSERT_EQ(flat.forms.size(), 2u);
  EXPECT_NEAR(flat.forms[0].mass_delta_da, 57.021464, 1e-9);
  EXPECT_NEAR(flat.forms[1].mass_delta_da, 57.021464 + 15.994915, 1e-9);
}

TEST(ModifiedForms, ProteinTerminalOnlyAtProteinTerminus) {
  ModificationPlacer placer({}, {kProtAc, kAmid}, 2);
  EXPECT_TRUE(placer.has_protein_terminal());
  EXPECT_EQ(placer.forms("PEPTIDEK", false, false).size(), 1u);
  EXPECT_EQ(render(placer.forms("PEPTIDEK", true, false)), (std::vector<std::string>{"", "-1:0;"}));
  EXPECT_EQ(render(placer.forms("PEPTIDEK", true, true)),
            (std::vector<std::string>{"", "-1:0;", "-1:0;8:1;", "8:1;"}));
}

TEST(ModifiedForms, TerminalResidueRestrictionAndOneModPerSlot) {
  ModificationPlacer pyro({}, {kPyro}, 2);
  EXPECT_EQ(pyro.forms("QPEPK").size(), 2u);
  EXPECT_EQ(pyro.forms("PEPQK").size(), 1u);
  // A fixed N-terminal TMT takes the slot: no pyro-Glu there, TMT on every peptide.
  ModificationPlacer tmt({kTmtN}, {kPyro}, 2);
  EXPECT_EQ(render(tmt.forms("QPEPK")), (std::vector<std::string>{"-1:0;"}));
  // Fixed protein N-terminal acetyl wins its slot over a fixed peptide N-terminal TMT.
  ModificationPlacer both({kTmtN, kProtAc}, {}, 2);
  EXPECT_EQ(render(both.forms("PEPK", true, false)), (std::vector<std::string>{"-1:1;"}));
  EXPECT_EQ(render(both.forms("PEPK", false, false)), (std::vector<std::string>{"-1:0;"}));
  EXPECT_THROW(ModificationPlacer({}, {}, -1), std::invalid_argument);
}

}  // namespace
}  // namespace ionflow
