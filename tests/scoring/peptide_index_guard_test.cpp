// build_peptide_index guards: the form-count bound that rejects combinatorial jobs before any
// modification is placed, the cancel flag, and the hashed merge of forms across protein-terminus
// classes.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "scoring/modified_forms.hpp"
#include "scoring/peptide_index.hpp"

namespace ionflow {
namespace {

Modification oxidation() {
  return {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false};
}
Modification phospho() {
  return {"Phospho", 21, 79.966331, ModificationPosition::kAnywhere, "STY", false};
}
Modification protein_n_acetyl() {
  return {"Acetyl", 1, 42.010565, ModificationPosition::kProteinNTerm, "", false};
}

SearchParameters params_with(std::vector<Modification> variable, int max_variable) {
  SearchParameters p;
  p.database.enzyme.missed_cleavages = 0;
  p.database.enzyme.min_length = 4;
  p.database.peptide_min_mass_da = 0;
  p.database.decoy_generation = DecoyGeneration::kNone;
  p.database.clip_n_terminal_methionine = false;
  p.database.variable_modifications = std::move(variable);
  p.database.max_variable_modifications = max_variable;
  return p;
}

std::vector<Protein> proteins() {
  Protein a;
  a.accession = "A";
  a.sequence = "MSTMYEKGEPTIDEMSKAAAMSSR";  // MSTMYEK, GEPTIDEMSK, AAAMSSR
  Protein b;
  b.accession = "B";
  b.sequence = "GGGKMSTMYEK";  // GGGK (none), MSTMYEK again, not at the protein N-terminus
  return {a, b};
}

TEST(PeptideIndexGuard, FormCountBoundIsExactWithoutTerminalModifications) {
  // MSTMYEK: M at 0 and 3 (1 choice each), S, T, Y (1 choice each with phospho): 5 sites.
  // At most 2 of them: 1 + 5 + C(5,2) = 16 forms.
  const ModificationPlacer placer({}, {oxidation(), phospho()}, 2);
  EXPECT_EQ(placer.form_count_bound("MSTMYEK"), 16u);
  EXPECT_EQ(placer.forms("MSTMYEK").size(), 16u);
  // All 5: 2^5 = 32.
  const ModificationPlacer all({}, {oxidation(), phospho()}, 10);
  EXPECT_EQ(all.form_count_bound("MSTMYEK"), 32u);
  EXPECT_EQ(all.forms("MSTMYEK").size(), 32u);
  // 60 phospho sites, up to 30 of them: (2^60 + C(60,30)) / 2; 80 sites up to 40 pass 2^62
  // and saturate.
  const ModificationPlacer many({}, {phospho()}, 30);
  EXPECT_EQ(many.form_count_bound(std::string(60, 'S')), 635593043085854200u);
  const ModificationPlacer more({}, {phospho()}, 40);
  EXPECT_EQ(more.form_count_bound(std::string(80, 'S')), uint64_t{1} << 62);
}

TEST(PeptideIndexGuard, TooManyFormsFailsFastNamingTheKeys) {
  // Bound: MSTMYEK 16 + GEPTIDEMSK (T, M, S: 1 + 3 + 3) 7 + AAAMSSR 7 + GGGK 1 = 31.
  const auto params = params_with({oxidation(), phospho()}, 2);
  EXPECT_EQ(build_peptide_index(proteins(), params, nullptr, {31})->size(), 31u);
  try {
    build_peptide_index(proteins(), params, nullptr, {30});
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("more than 30 peptide forms"), std::string::npos) << what;
    EXPECT_NE(what.find("max_variable_mods 2 with 2 variable modifications"), std::string::npos)
        << what;
    EXPECT_NE(what.find("lower database.max_variable_mods"), std::string::npos) << what;
  }
}

TEST(PeptideIndexGuard, PresetCancelFlagThrowsBuildCancelled) {
  const std::atomic<bool> cancel{true};
  EXPECT_THROW(build_peptide_index(proteins(), params_with({oxidation()}, 2), &cancel),
               BuildCancelled);
  const std::atomic<bool> go{false};
  EXPECT_EQ(build_peptide_index(proteins(), params_with({}, 0), &go)->size(), 4u);
}

TEST(PeptideIndexGuard, FormsSharedByTerminusClassesMergeOnce) {
  // MSTMYEK is at protein A's N-terminus and inside B: with Acetyl (Protein N-term) and
  // Oxidation (M), max 1, its forms are {}, M1ox, M4ox (both classes) and Acetyl (A only).
  const auto index =
      build_peptide_index(proteins(), params_with({oxidation(), protein_n_acetyl()}, 1));
  size_t forms = 0, acetyl = 0;
  for (size_t i = 0; i < index->size(); ++i) {
    const Peptide p = index->peptide(i);
    if (p.sequence != "MSTMYEK") continue;
    ++forms;
    const bool acetylated = p.modifications.size() == 1 && p.modifications[0].position == -1;
    if (acetylated) {
      ++acetyl;
      EXPECT_EQ(p.occurrences.size(), 1u);
    } else {
      EXPECT_EQ(p.occurrences.size(), 2u);
    }
  }
  EXPECT_EQ(forms, 4u);
  EXPECT_EQ(acetyl, 1u);
}

}  // namespace
}  // namespace ionflow
