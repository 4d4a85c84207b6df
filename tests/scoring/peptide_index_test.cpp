// PeptideIndex: merge (I = L), target-wins, decoys, modifications, mass order and E. coli build.
#include "scoring/peptide_index.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "scoring/mass.hpp"
#include "scoring/proforma.hpp"
#include "scoring_test_support.hpp"

namespace ionflow {
namespace {

using scoring_test::carbamidomethyl;
using scoring_test::oxidation;
using scoring_test::protein_n_acetyl;

SearchParameters simple_params() {
  SearchParameters p;
  p.database.enzyme.missed_cleavages = 0;
  p.database.enzyme.min_length = 4;
  p.database.peptide_min_mass_da = 0;
  p.database.decoy_generation = DecoyGeneration::kNone;
  p.database.clip_n_terminal_methionine = false;
  return p;
}

Protein protein(std::string accession, std::string sequence, bool decoy = false) {
  Protein p;
  p.accession = std::move(accession);
  p.sequence = std::move(sequence);
  p.is_decoy = decoy;
  return p;
}

// Views of every peptide, in index order.
std::vector<Peptide> all(const PeptideIndex& index) {
  std::vector<Peptide> out;
  for (size_t i = 0; i < index.size(); ++i) out.push_back(index.peptide(i));
  return out;
}

std::optional<Peptide> find(const PeptideIndex& index, std::string_view sequence, bool decoy,
                            size_t mod_count = 0) {
  for (const Peptide& p : all(index)) {
    if (p.sequence == sequence && p.decoy == decoy && p.modifications.size() == mod_count) {
      return p;
    }
  }
  return std::nullopt;
}

TEST(PeptideIndex, MergesIsoleucineAndLeucineAcrossProteins) {
  auto index = build_peptide_index({protein("A", "SAMPLEKGGGGR"), protein("B", "AAAKSAMPIEK")},
                                   simple_params());
  // SAMPLEK (A, 0) and SAMPIEK (B, 4) are one entry; the first by protein order names it.
  int count = 0;
  for (const Peptide& p : all(*index)) {
    if (p.sequence == "SAMPLEK" || p.sequence == "SAMPIEK") ++count;
  }
  EXPECT_EQ(count, 1);
  const auto merged = find(*index, "SAMPLEK", false);
  ASSERT_TRUE(merged.has_value());
  ASSERT_EQ(merged->occurrences.size(), 2u);
  EXPECT_EQ(merged->occurrences[0].protein, 0u);
  EXPECT_EQ(merged->occurrences[0].start, 0u);
  EXPECT_EQ(merged->occurrences[1].protein, 1u);
  EXPECT_EQ(merged->occurrences[1].start, 4u);
  // 774.3946 Da = SAMPLEK, hand sum of Unimod residue masses + water.
  EXPECT_NEAR(merged->neutral_mass_da, 774.3946, 1e-4);
}

TEST(PeptideIndex, SortedByMassAndMassRange) {
  auto index = build_peptide_index({protein("A", "PEPTIDEKAAAAKLVNELTEFAKYLYEIARHLVDEPQNLIK")},
                                   simple_params());
  ASSERT_EQ(index->size(), 5u);
  EXPECT_TRUE(std::is_sorted(index->masses().begin(), index->masses().end()));
  // LVNELTEFAK 1162.6234 Da (hand sum), the only one in [1162, 1163].
  const auto [first, last] = index->mass_range(1162.0, 1163.0);
  ASSERT_EQ(last - first, 1u);
  EXPECT_EQ(index->peptide(first).sequence, "LVNELTEFAK");
  const auto [f2, l2] = index->mass_range(1162.6234, 1162.6234);
  EXPECT_EQ(l2 - f2, 0u);  // exact bounds: 1162.62338 < 1162.6234
  const auto [f3, l3] = index->mass_range(0.0, 1e9);
  EXPECT_EQ(f3, 0u);
  EXPECT_EQ(l3, 5u);
}

TEST(PeptideIndex, ReversedPeptideDecoysPairWithTargets) {
  SearchParameters params = simple_params();
  params.database.decoy_generation = DecoyGeneration::kReversePeptide;
  params.database.variable_modifications = {oxidation()};
  auto index = build_peptide_index({protein("P1", "PEPMTIDEK")}, params);
  // proteins: input then one generated decoy protein per target.
  ASSERT_EQ(index->proteins.size(), 2u);
  EXPECT_EQ(index->proteins[1].accession, "rev_P1");
  EXPECT_TRUE(index->proteins[1].is_decoy);
  const auto target = find(*index, "PEPMTIDEK", false, 1);
  const auto decoy = find(*index, "EDITMPEPK", true, 1);
  ASSERT_TRUE(target.has_value());
  ASSERT_TRUE(decoy.has_value());
  EXPECT_EQ(target->modifications[0].position, 3);
  EXPECT_EQ(decoy->modifications[0].position, 4);  // the M moved from 3 to 4
  EXPECT_NEAR(target->neutral_mass_da, decoy->neutral_mass_da, 1e-9);
  ASSERT_EQ(decoy->occurrences.size(), 1u);
  EXPECT_EQ(decoy->occurrences[0].protein, 1u);
  EXPECT_EQ(decoy->occurrences[0].start, 0u);
  EXPECT_EQ(index->size(), 4u);
}

TEST(PeptideIndex, TargetWinsOverIdenticalDecoy) {
  SearchParameters params = simple_params();
  params.database.decoy_generation = DecoyGeneration::kReversePeptide;
  // EDITPEPK's reversed decoy is PEPTIDEK, which is also a target in protein B (I = L too):
  // both sequences stay targets and no decoy of either is kept.
  auto index = build_peptide_index({protein("A", "EDLTPEPK"), protein("B", "PEPTIDEK")}, params);
  EXPECT_EQ(index->size(), 2u);
  for (const Peptide& p : all(*index)) EXPECT_FALSE(p.decoy) << p.sequence;
  // With a FASTA decoy and kNone, a decoy equal to a target is dropped as well.
  auto fasta = build_peptide_index({protein("A", "PEPTIDEK"), protein("rev_A", "PEPTLDEK", true)},
                                   simple_params());
  ASSERT_EQ(fasta->size(), 1u);
  EXPECT_FALSE(fasta->peptide(0).decoy);
  EXPECT_EQ(fasta->peptide(0).occurrences.size(), 1u);
}

TEST(PeptideIndex, ProteinNTermModOnlyAtProteinNTerminus) {
  SearchParameters params = simple_params();
  params.database.fixed_modifications = {carbamidomethyl()};
  params.database.variable_modifications = {protein_n_acetyl(), oxidation()};
  params.database.clip_n_terminal_methionine = true;
  // MECKAAAK: MECK (protein N-term), ECK (Met clipped, also protein N-term).
  params.database.enzyme.min_length = 3;
  auto index = build_peptide_index({protein("X", "MECKAAAAK"), protein("Y", "GGGKMECK")}, params);
  std::vector<std::string> proforma;
  for (const Peptide& p : all(*index)) proforma.push_back(to_proforma(p, *index));
  std::sort(proforma.begin(), proforma.end());
  const std::vector<std::string> expected = {
      "AAAAK",
      "EC[UNIMOD:4]K",
      "GGGK",
      "MEC[UNIMOD:4]K",
      "M[UNIMOD:35]EC[UNIMOD:4]K",
      "[UNIMOD:1]-EC[UNIMOD:4]K",
      "[UNIMOD:1]-GGGK",  // GGGK starts protein Y
      "[UNIMOD:1]-MEC[UNIMOD:4]K",
      "[UNIMOD:1]-M[UNIMOD:35]EC[UNIMOD:4]K",
  };
  EXPECT_EQ(proforma, expected);
  // MECK occurs in X at 0 and in Y at 4; the acetylated forms only in X.
  for (const Peptide& p : all(*index)) {
    if (p.sequence != "MECK") continue;
    const bool acetyl = !p.modifications.empty() && p.modifications[0].position == -1;
    EXPECT_EQ(p.occurrences.size(), acetyl ? 1u : 2u) << to_proforma(p, *index);
  }
}

TEST(PeptideIndex, ReversedProteinDecoys) {
  SearchParameters params = simple_params();
  params.database.decoy_generation = DecoyGeneration::kReverseProtein;
  // Reversed: RAAAAKEDITPEP -> R (too short), AAAAK and EDITPEP (C-terminal, no K/R).
  auto index = build_peptide_index({protein("P1", "PEPTIDEKAAAAR")}, params);
  ASSERT_EQ(index->proteins.size(), 2u);
  EXPECT_EQ(index->proteins[1].sequence, "RAAAAKEDITPEP");
  EXPECT_TRUE(find(*index, "PEPTIDEK", false).has_value());
  EXPECT_TRUE(find(*index, "AAAAR", false).has_value());
  EXPECT_TRUE(find(*index, "AAAAK", true).has_value());
  EXPECT_TRUE(find(*index, "EDITPEP", true).has_value());
  EXPECT_EQ(index->size(), 4u);
}

TEST(PeptideIndex, FastaDecoysUsedOnlyWithoutGeneration) {
  const std::vector<Protein> proteins = {protein("P1", "PEPTIDEKAAAAR"),
                                         protein("rev_P1", "EDITPEPKGGGGR", true)};
  auto none = build_peptide_index(proteins, simple_params());
  EXPECT_TRUE(find(*none, "EDITPEPK", true).has_value());
  EXPECT_TRUE(find(*none, "GGGGR", true).has_value());
  EXPECT_EQ(none->proteins.size(), 2u);
  SearchParameters generate = simple_params();
  generate.database.decoy_generation = DecoyGeneration::kReversePeptide;
  auto generated = build_peptide_index(proteins, generate);
  EXPECT_FALSE(find(*generated, "GGGGR", true).has_value());  // FASTA decoys are not digested
  EXPECT_TRUE(find(*generated, "EDITPEPK", true).has_value());
  EXPECT_TRUE(find(*generated, "AAAAR", false).has_value());
  ASSERT_EQ(generated->proteins.size(), 3u);  // input proteins keep their indices
  EXPECT_EQ(generated->proteins[2].accession, "rev_P1");
}

TEST(PeptideIndex, SemiSpecificRecordsTermini) {
  SearchParameters params = simple_params();
  params.database.enzyme.semi_enzymatic = true;
  params.database.enzyme.min_length = 6;
  auto index = build_peptide_index({protein("P1", "ACDKEFGHIKLMNPQR")}, params);
  // Fully specific: EFGHIK (6); LMNPQR (6); ACDK too short. Semi: every prefix/suffix of
  // length >= 6 inside one missed-cleavage-free segment... with 0 missed cleavages:
  // ACDKEF.. needs a site inside -> not allowed; so from EFGHIK none longer, from LMNPQR none.
  ASSERT_EQ(index->size(), 2u);
  for (const Peptide& p : all(*index)) EXPECT_EQ(p.enzymatic_termini, 2);
  params.database.enzyme.missed_cleavages = 1;
  index = build_peptide_index({protein("P1", "ACDKEFGHIKLMNPQR")}, params);
  const auto semi = find(*index, "CDKEFGHIK", false);
  ASSERT_TRUE(semi.has_value());
  EXPECT_EQ(semi->enzymatic_termini, 1);
  EXPECT_EQ(semi->missed_cleavages, 1);
  const auto full = find(*index, "EFGHIKLMNPQR", false);
  ASSERT_TRUE(full.has_value());
  EXPECT_EQ(full->enzymatic_termini, 2);
  EXPECT_EQ(full->missed_cleavages, 1);
}

TEST(PeptideIndex, MassBoundsApplyToModifiedMass) {
  SearchParameters params = simple_params();
  params.database.fixed_modifications = {carbamidomethyl()};
  // CCCCK: 509.16 Da unmodified, 737.25 Da with 4 CAM: kept with a 600 Da minimum.
  params.database.peptide_min_mass_da = 600.0;
  auto index = build_peptide_index({protein("P1", "CCCCKAAAAK")}, params);
  ASSERT_EQ(index->size(), 1u);
  EXPECT_EQ(index->peptide(0).sequence, "CCCCK");
  EXPECT_NEAR(index->peptide(0).neutral_mass_da, mass::peptide_mass("CCCCK") + 4 * 57.021464, 1e-9);
}

TEST(PeptideIndex, RejectsImpossibleParameters) {
  SearchParameters params = simple_params();
  params.database.enzyme.name = "pepsin-x";
  EXPECT_THROW(build_peptide_index({}, params), std::invalid_argument);
  params = simple_params();
  params.database.enzyme.min_length = 10;
  params.database.enzyme.max_length = 5;
  EXPECT_THROW(build_peptide_index({}, params), std::invalid_argument);
  params = simple_params();
  params.database.peptide_min_mass_da = 5000;
  params.database.peptide_max_mass_da = 500;
  EXPECT_THROW(build_peptide_index({}, params), std::invalid_argument);
  EXPECT_TRUE(build_peptide_index({}, simple_params())->empty());
}

using scoring_test::read_file;

std::vector<Protein> read_fasta_simple(const std::string& path, const std::string& decoy_tag) {
  std::vector<Protein> out;
  std::istringstream in(read_file(path));
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line[0] == '>') {
      Protein p;
      const auto space = line.find(' ');
      p.accession = line.substr(1, space == std::string::npos ? std::string::npos : space - 1);
      p.is_decoy = p.accession.rfind(decoy_tag, 0) == 0;
      out.push_back(std::move(p));
    } else if (!out.empty()) {
      for (char c : line) {
        if (c != '*') out.back().sequence += static_cast<char>(std::toupper(c));
      }
    }
  }
  return out;
}

TEST(PeptideIndex, BsaWithCarbamidomethylAndOxidation) {
  const std::string path = std::string(IONFLOW_EXAMPLES_DIR) +
                           "/TOPPAS/data/BSA_Identification/"
                           "18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta";
  std::vector<Protein> bsa;
  for (auto& p : read_fasta_simple(path, "rev_")) {
    if (p.accession == "P02769|ALBU_BOVIN") bsa.push_back(std::move(p));
  }
  ASSERT_EQ(bsa.size(), 1u);
  SearchParameters params;
  params.database.enzyme.missed_cleavages = 1;
  params.database.fixed_modifications = {carbamidomethyl()};
  params.database.variable_modifications = {oxidation()};
  auto index = build_peptide_index(bsa, params);
  auto only = [&](double lo, double hi, const std::string& sequence) -> std::optional<Peptide> {
    const auto [first, last] = index->mass_range(lo, hi);
    std::optional<Peptide> found;
    for (size_t i = first; i < last; ++i) {
      if (index->peptide(i).sequence == sequence) found = index->peptide(i);
    }
    return found;
  };
  // Hand sums of Unimod residue masses + water (+ 57.021464 per C, + 15.994915 per oxidised M);
  // YICDNQDTISSK [M+2H]2+ 722.3247 as commonly reported for BSA digests.
  auto p = only(1162.62, 1162.63, "LVNELTEFAK");
  ASSERT_TRUE(p.has_value());
  EXPECT_NEAR(p->neutral_mass_da, 1162.62339, 1e-4);
  p = only(1442.63, 1442.64, "YICDNQDTISSK");
  ASSERT_TRUE(p.has_value());
  EXPECT_NEAR(p->neutral_mass_da, 1442.63476, 1e-4);
  EXPECT_EQ(to_proforma(*p, *index), "YIC[UNIMOD:4]DNQDTISSK");
  p = only(1723.82, 1723.83, "MPCTEDYLSLILNR");
  ASSERT_TRUE(p.has_value());
  EXPECT_NEAR(p->neutral_mass_da, 1723.82733, 1e-4);
  p = only(1739.82, 1739.83, "MPCTEDYLSLILNR");
  ASSERT_TRUE(p.has_value());
  EXPECT_NEAR(p->neutral_mass_da, 1739.82224, 1e-4);
  EXPECT_EQ(to_proforma(*p, *index), "M[UNIMOD:35]PC[UNIMOD:4]TEDYLSLILNR");
  // Its reversed-peptide decoy has the same mass: NLILSLYDETCPMR with the same mods.
  p = only(1739.82, 1739.83, "NLILSLYDETCPMR");
  ASSERT_TRUE(p.has_value());
  EXPECT_TRUE(p->decoy);
  EXPECT_EQ(to_proforma(*p, *index), "NLILSLYDETC[UNIMOD:4]PM[UNIMOD:35]R");
}

TEST(PeptideIndex, EcoliTrypticIndex) {
  const std::string path = std::string(IONFLOW_EXAMPLES_DIR) +
                           "/TOPPAS/data/Identification/target_decoy_Ecoli_K12_TaxID_83333."
                           "proteomes.fasta";
  auto proteins = read_fasta_simple(path, "rev_");
  ASSERT_GT(proteins.size(), 8000u);
  SearchParameters params;
  params.database.enzyme.missed_cleavages = 2;
  params.database.fixed_modifications = {carbamidomethyl()};
  params.database.variable_modifications = {oxidation()};
  const auto t0 = std::chrono::steady_clock::now();
  auto index = build_peptide_index(proteins, params);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  size_t targets = 0, decoys = 0;
  for (const Peptide& p : all(*index)) (p.decoy ? decoys : targets) += 1;
  std::printf("E. coli index: %zu proteins, %zu targets + %zu decoys in %.2f s\n",
              index->proteins.size(), targets, decoys, seconds);
  EXPECT_GT(targets, 100000u);
  EXPECT_GT(decoys, 100000u);
  // Every peptide's first occurrence really holds its sequence (I = L) for targets.
  for (const Peptide& p : all(*index)) {
    if (p.decoy) continue;
    const auto& occ = p.occurrences.front();
    std::string actual = index->proteins[occ.protein].sequence.substr(occ.start, p.sequence.size());
    std::string expected(p.sequence);
    std::replace(actual.begin(), actual.end(), 'I', 'L');
    std::replace(expected.begin(), expected.end(), 'I', 'L');
    ASSERT_EQ(actual, expected);
  }
}

TEST(PeptideIndex, FormsOfOneSequenceShareTheirResidues) {
  SearchParameters params = simple_params();
  params.database.variable_modifications = {oxidation()};
  auto index = build_peptide_index({protein("P1", "PEPMTIDEKLVNELTEFAK")}, params);
  // PEPMTIDEK with and without oxidised M, LVNELTEFAK: 3 peptides, 19 residues stored once.
  ASSERT_EQ(index->size(), 3u);
  EXPECT_EQ(index->residues().size(), 9u + 10u);
  std::vector<uint32_t> offsets;
  for (size_t i = 0; i < index->size(); ++i) {
    if (index->peptide(i).sequence == "PEPMTIDEK") offsets.push_back(index->records()[i].residues);
  }
  ASSERT_EQ(offsets.size(), 2u);
  EXPECT_EQ(offsets[0], offsets[1]);
  EXPECT_EQ(index->placed_modifications().size(), 1u);  // only the oxidised form has one
  EXPECT_EQ(index->occurrences().size(), 3u);
}

TEST(PeptideIndex, AppendKeepsMassOrderAndCopiesTheView) {
  PeptideIndex index;
  index.modifications = {oxidation()};
  const std::vector<PlacedModification> placed = {{3, 0}};
  const PeptideOccurrence occurrence{0, 4};
  {
    const std::string sequence = "PEPMTIDEK";
    Peptide p;
    p.sequence = sequence;
    p.modifications = placed;
    p.occurrences = {&occurrence, 1};
    p.neutral_mass_da = 1092.4651;
    p.missed_cleavages = 1;
    p.enzymatic_termini = 1;
    index.append(p);
  }  // the index holds its own copy of the residues
  const Peptide q = index.peptide(0);
  EXPECT_EQ(q.sequence, "PEPMTIDEK");
  ASSERT_EQ(q.modifications.size(), 1u);
  EXPECT_EQ(q.modifications[0].position, 3);
  ASSERT_EQ(q.occurrences.size(), 1u);
  EXPECT_EQ(q.occurrences[0].start, 4u);
  EXPECT_EQ(q.missed_cleavages, 1);
  EXPECT_EQ(q.enzymatic_termini, 1);
  Peptide lighter;
  lighter.sequence = "AAAAK";
  lighter.neutral_mass_da = 430.2540;
  EXPECT_THROW(index.append(lighter), std::invalid_argument);
  EXPECT_EQ(index.size(), 1u);
}

TEST(PeptideIndex, AssignColumnsRejectsInconsistentColumns) {
  PeptideIndex index;
  index.proteins = {protein("P1", "AAAAK")};
  PeptideRecord r;
  r.length = 5;
  r.occurrence_count = 1;
  // Residues past the buffer: rejected, index unchanged.
  EXPECT_THROW(index.assign_columns({430.2540}, {r}, "AAAA", {}, {{0, 0}}), std::invalid_argument);
  EXPECT_TRUE(index.empty());
  // Occurrence past the end of its protein.
  EXPECT_THROW(index.assign_columns({430.2540}, {r}, "AAAAK", {}, {{0, 1}}), std::invalid_argument);
  // Modification id without a modification.
  PeptideRecord modified = r;
  modified.modification_count = 1;
  EXPECT_THROW(index.assign_columns({430.2540}, {modified}, "AAAAK", {{0, 0}}, {{0, 0}}),
               std::invalid_argument);
  // Masses out of order.
  EXPECT_THROW(index.assign_columns({430.3, 430.2}, {r, r}, "AAAAK", {}, {{0, 0}}),
               std::invalid_argument);
  index.assign_columns({430.2540}, {r}, "AAAAK", {}, {{0, 0}});
  ASSERT_EQ(index.size(), 1u);
  EXPECT_EQ(index.peptide(0).sequence, "AAAAK");
  EXPECT_EQ(index.peptide(0).occurrences[0].protein, 0u);
}

}  // namespace
}  // namespace ionflow
