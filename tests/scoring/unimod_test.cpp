// Unimod: look-ups against /usr/share/openms/CHEMISTRY/unimod.xml and Mascot-style names.
#include "scoring/unimod.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "scoring/modification_spec.hpp"

namespace ionflow {
namespace {

const Unimod& unimod() {
  static const Unimod instance;  // IONFLOW_UNIMOD_XML
  return instance;
}

TEST(Unimod, LooksUpTitles) {
  // Values from unimod.org records 35, 4, 21, 1, 737, 28.
  struct Row {
    const char* title;
    double mass;
    int accession;
  };
  const Row rows[] = {{"Oxidation", 15.994915, 35},    {"Carbamidomethyl", 57.021464, 4},
                      {"Phospho", 79.966331, 21},      {"Acetyl", 42.010565, 1},
                      {"TMT6plex", 229.162932, 737},   {"Gln->pyro-Glu", -17.026549, 28},
                      {"iTRAQ4plex", 144.102063, 214}, {"Amidated", -0.984016, 2},
                      {"Deamidated", 0.984016, 7}};
  for (const auto& r : rows) {
    const auto [mass, accession] = unimod().lookup(r.title);
    EXPECT_NEAR(mass, r.mass, 1e-6) << r.title;
    EXPECT_EQ(accession, r.accession) << r.title;
  }
  EXPECT_EQ(unimod().lookup("oxidation").second, 35);  // case-insensitive
}

TEST(Unimod, ResolvesMascotForms) {
  auto m = unimod().resolve("Carbamidomethyl (C)", true);
  EXPECT_EQ(m.name, "Carbamidomethyl");
  EXPECT_EQ(m.unimod_accession, 4);
  EXPECT_NEAR(m.mass_delta_da, 57.021464, 1e-6);
  EXPECT_EQ(m.position, ModificationPosition::kAnywhere);
  EXPECT_EQ(m.residues, "C");
  EXPECT_TRUE(m.fixed);

  m = unimod().resolve("Oxidation (M)", false);
  EXPECT_EQ(m.unimod_accession, 35);
  EXPECT_EQ(m.residues, "M");
  EXPECT_FALSE(m.fixed);

  m = unimod().resolve("Acetyl (Protein N-term)", false);
  EXPECT_EQ(m.unimod_accession, 1);
  EXPECT_EQ(m.position, ModificationPosition::kProteinNTerm);
  EXPECT_EQ(m.residues, "");

  m = unimod().resolve("Phospho (STY)", false);
  EXPECT_EQ(m.unimod_accession, 21);
  EXPECT_EQ(m.residues, "STY");

  m = unimod().resolve("Deamidated (NQ)", false);
  EXPECT_EQ(m.unimod_accession, 7);
  EXPECT_EQ(m.residues, "NQ");

  m = unimod().resolve("Gln->pyro-Glu (N-term Q)", false);
  EXPECT_EQ(m.unimod_accession, 28);
  EXPECT_NEAR(m.mass_delta_da, -17.026549, 1e-6);
  EXPECT_EQ(m.position, ModificationPosition::kPeptideNTerm);
  EXPECT_EQ(m.residues, "Q");

  m = unimod().resolve("TMT6plex (K)", true);
  EXPECT_EQ(m.unimod_accession, 737);
  EXPECT_EQ(m.residues, "K");
  m = unimod().resolve("TMT6plex (N-term)", true);
  EXPECT_EQ(m.position, ModificationPosition::kPeptideNTerm);
  EXPECT_EQ(m.residues, "");

  m = unimod().resolve("iTRAQ4plex (K)", true);
  EXPECT_EQ(m.unimod_accession, 214);

  m = unimod().resolve("Amidated (C-term)", false);
  EXPECT_EQ(m.unimod_accession, 2);
  EXPECT_EQ(m.position, ModificationPosition::kPeptideCTerm);

  m = unimod().resolve("UNIMOD:35 (M)", false);
  EXPECT_EQ(m.name, "Oxidation");
  EXPECT_NEAR(m.mass_delta_da, 15.994915, 1e-6);

  m = unimod().resolve("oxidation (m)", false);
  EXPECT_EQ(m.unimod_accession, 35);
  EXPECT_EQ(m.residues, "M");
}

TEST(Unimod, ResolvesExplicitMasses) {
  auto m = unimod().resolve("+15.9949 (M)", false);
  EXPECT_EQ(m.name, "");
  EXPECT_EQ(m.unimod_accession, 0);
  EXPECT_DOUBLE_EQ(m.mass_delta_da, 15.9949);
  EXPECT_EQ(m.residues, "M");
  m = unimod().resolve("15.9949@M", false);
  EXPECT_DOUBLE_EQ(m.mass_delta_da, 15.9949);
  EXPECT_EQ(m.residues, "M");
  m = unimod().resolve("-17.0265@N-term Q", false);
  EXPECT_DOUBLE_EQ(m.mass_delta_da, -17.0265);
  EXPECT_EQ(m.position, ModificationPosition::kPeptideNTerm);
  EXPECT_EQ(m.residues, "Q");
}

TEST(Unimod, UnknownNameSuggestsCloseTitles) {
  try {
    unimod().resolve("Oxidaton (M)", false);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Oxidaton"), std::string::npos) << what;
    EXPECT_NE(what.find("did you mean: Oxidation"), std::string::npos) << what;
  }
  try {
    unimod().lookup("Carbamidomethy");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("Carbamidomethyl"), std::string::npos) << e.what();
  }
  EXPECT_THROW(unimod().resolve("Oxidation", false), std::invalid_argument);       // no site
  EXPECT_THROW(unimod().resolve("Oxidation (M1)", false), std::invalid_argument);  // bad site
  EXPECT_THROW(unimod().resolve("UNIMOD:999999 (M)", false), std::invalid_argument);
  EXPECT_THROW(Unimod("/nonexistent/unimod.xml"), std::runtime_error);
}

TEST(Unimod, LoadsQuickly) {
  const auto t0 = std::chrono::steady_clock::now();
  Unimod fresh;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("unimod.xml loaded in %.3f s\n", seconds);  // reported, not asserted
  EXPECT_EQ(fresh.lookup("Phospho").second, 21);
}

TEST(ModificationFromSage, Keys) {
  auto m = modification_from_sage("C", 57.021464, true);
  EXPECT_EQ(m.position, ModificationPosition::kAnywhere);
  EXPECT_EQ(m.residues, "C");
  EXPECT_TRUE(m.fixed);
  EXPECT_EQ(m.unimod_accession, 0);
  m = modification_from_sage("^", 229.162932, true);
  EXPECT_EQ(m.position, ModificationPosition::kPeptideNTerm);
  EXPECT_EQ(m.residues, "");
  m = modification_from_sage("^Q", -17.026549, false);
  EXPECT_EQ(m.position, ModificationPosition::kPeptideNTerm);
  EXPECT_EQ(m.residues, "Q");
  m = modification_from_sage("$", -0.984016, false);
  EXPECT_EQ(m.position, ModificationPosition::kPeptideCTerm);
  m = modification_from_sage("[", 42.010565, false);
  EXPECT_EQ(m.position, ModificationPosition::kProteinNTerm);
  m = modification_from_sage("]", 1.0, false);
  EXPECT_EQ(m.position, ModificationPosition::kProteinCTerm);
  EXPECT_THROW(modification_from_sage("", 1.0, false), std::invalid_argument);
  EXPECT_THROW(modification_from_sage("^1", 1.0, false), std::invalid_argument);
  EXPECT_THROW(modification_from_sage("M", std::nan(""), false), std::invalid_argument);
}

}  // namespace
}  // namespace ionflow
