// Digestion: hand-checked tryptic digests, semi-specific counts, Met clipping, BSA.
#include "scoring/digest.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "io/fasta_reader.hpp"
#include "scoring/mass.hpp"

namespace ionflow {
namespace {

Enzyme trypsin() {
  return Enzyme(EnzymeParameters{});
}

DigestOptions options(int missed, int min_length = 1, bool clip = false) {
  DigestOptions o;
  o.missed_cleavages = missed;
  o.min_length = min_length;
  o.max_length = 50;
  o.clip_n_terminal_methionine = clip;
  return o;
}

// The example protein of Sage's enzyme tests; sites after K5, K12, R13, R16, R20; "ERP" (R35)
// is not cut because P follows.
constexpr std::string_view kProtein = "MADEEKLPPGWEKRMSRSSGRVYYFNHITNASQWERPSGN";

TEST(Digest, TrypsinNoMissedCleavage) {
  const auto peptides = digest_sequences(kProtein, trypsin(), options(0));
  const std::vector<std::string_view> expected = {"MADEEK", "LPPGWEK", "R",
                                                  "MSR",    "SSGR",    "VYYFNHITNASQWERPSGN"};
  EXPECT_EQ(peptides, expected);
}

TEST(Digest, TrypsinOneMissedCleavageHandChecked) {
  std::vector<DigestedPeptide> out;
  digest(kProtein, trypsin(), options(1), out);
  std::vector<std::tuple<std::string_view, int>> got;
  for (const auto& p : out)
    got.emplace_back(kProtein.substr(p.start, p.length), p.missed_cleavages);
  const std::vector<std::tuple<std::string_view, int>> expected = {{"MADEEK", 0},
                                                                   {"MADEEKLPPGWEK", 1},
                                                                   {"LPPGWEK", 0},
                                                                   {"LPPGWEKR", 1},
                                                                   {"R", 0},
                                                                   {"RMSR", 1},
                                                                   {"MSR", 0},
                                                                   {"MSRSSGR", 1},
                                                                   {"SSGR", 0},
                                                                   {"SSGRVYYFNHITNASQWERPSGN", 1},
                                                                   {"VYYFNHITNASQWERPSGN", 0}};
  EXPECT_EQ(got, expected);
  EXPECT_TRUE(out.front().protein_n_term);
  EXPECT_TRUE(out.back().protein_c_term);
  EXPECT_FALSE(out[2].protein_n_term);
  for (const auto& p : out) EXPECT_EQ(p.enzymatic_termini, 2);
}

TEST(Digest, LengthAndMassBounds) {
  DigestOptions o = options(0, 4);
  o.max_length = 7;
  EXPECT_EQ(digest_sequences(kProtein, trypsin(), o),
            (std::vector<std::string_view>{"MADEEK", "LPPGWEK", "SSGR"}));
  o.min_mass_da = 700.0;  // MADEEK 721.30 Da, LPPGWEK 825.44, SSGR 405.20
  o.max_mass_da = 750.0;
  EXPECT_EQ(digest_sequences(kProtein, trypsin(), o), (std::vector<std::string_view>{"MADEEK"}));
}

TEST(Digest, MethionineClipping) {
  std::vector<DigestedPeptide> out;
  digest("MPEPTIDEKAAAAR", trypsin(), options(0, 1, true), out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].start, 0u);  // MPEPTIDEK
  EXPECT_EQ(out[0].length, 9);
  EXPECT_EQ(out[1].start, 1u);  // PEPTIDEK, Met removed: counts as protein N-term
  EXPECT_EQ(out[1].length, 8);
  EXPECT_TRUE(out[1].protein_n_term);
  EXPECT_EQ(out[1].enzymatic_termini, 2);
  EXPECT_EQ(out[1].missed_cleavages, 0);
  EXPECT_EQ(out[2].start, 9u);  // AAAAR
  EXPECT_FALSE(out[2].protein_n_term);
  // No clipping without a leading M or when disabled.
  EXPECT_EQ(digest_sequences("MPEPTIDEKAAAAR", trypsin(), options(0, 1, false)).size(), 2u);
  EXPECT_EQ(digest_sequences("APEPTIDEKAAAAR", trypsin(), options(0, 1, true)).size(), 2u);
}

TEST(Digest, SemiSpecificHandCount) {
  // ACDK|EFGR: fully specific ACDK, EFGR. Semi-specific, 0 missed: starts 0 and 4 with any end
  // up to the next site (4 + 4), plus non-specific starts 1-3 and 5-7 ending at a site (3 + 3).
  DigestOptions o = options(0);
  EXPECT_EQ(digest_sequences("ACDKEFGR", trypsin(), o).size(), 2u);
  o.semi_specific = true;
  std::vector<DigestedPeptide> out;
  digest("ACDKEFGR", trypsin(), o, out);
  EXPECT_EQ(out.size(), 14u);
  int two = 0;
  for (const auto& p : out) two += p.enzymatic_termini == 2;
  EXPECT_EQ(two, 2);
  o.min_length = 2;
  EXPECT_EQ(digest_sequences("ACDKEFGR", trypsin(), o).size(), 10u);
}

TEST(Digest, SkipsUndefinedResidues) {
  // B, Z, X, J have no single mass: peptides containing them are not generated.
  EXPECT_EQ(digest_sequences("PEPXIDEKAAAAKBBR", trypsin(), options(1, 1)),
            (std::vector<std::string_view>{"AAAAK"}));
}

TEST(Digest, NoEnzymeEverySubstring) {
  EnzymeParameters p;
  p.name = "no-enzyme";
  DigestOptions o = options(2, 2);
  o.max_length = 3;
  // ACDE: AC ACD CD CDE DE.
  EXPECT_EQ(digest_sequences("ACDE", Enzyme(p), o),
            (std::vector<std::string_view>{"AC", "ACD", "CD", "CDE", "DE"}));
}

TEST(Digest, UnspecificCountsPerStartEqualTheDigest) {
  EnzymeParameters p;
  p.name = "no-enzyme";
  // X and B have no mass: no peptide crosses them.
  for (std::string_view sequence :
       {std::string_view("ACDE"), std::string_view("PEPTIDEXKLMNBQR"), std::string_view("XX"),
        std::string_view("MKWVTFISLLLLFSSAYS")}) {
    for (auto [min_length, max_length] : {std::pair{1, 1}, {2, 3}, {5, 50}, {1, 1000}, {4, 2}}) {
      DigestOptions o = options(0, min_length);
      o.max_length = max_length;
      std::vector<DigestedPeptide> made;
      digest(sequence, Enzyme(p), o, made);
      std::vector<uint32_t> expected(sequence.size(), 0);
      for (const auto& d : made) ++expected[d.start];
      std::vector<uint32_t> counted;
      count_unspecific_starts(sequence, o, counted);
      EXPECT_EQ(counted, expected) << sequence << " " << min_length << "-" << max_length;
    }
  }
  // ACDE at lengths 2-3: AC ACD | CD CDE | DE | -.
  DigestOptions o = options(0, 2);
  o.max_length = 3;
  std::vector<uint32_t> counted;
  count_unspecific_starts("ACDE", o, counted);
  EXPECT_EQ(counted, (std::vector<uint32_t>{2, 2, 1, 0}));
}

std::vector<Protein> read_fasta(const std::string& relative, const std::string& tag) {
  const std::string path = std::string(IONFLOW_EXAMPLES_DIR) + relative;
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  FastaOptions fo;
  fo.decoy_tag = tag;
  fo.tag_is_suffix = true;
  return parse_fasta(ss.str(), path, fo);
}

TEST(Digest, BsaContainsKnownPeptides) {
  const auto proteins = read_fasta(
      "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta",
      "_rev");
  const auto bsa = std::find_if(proteins.begin(), proteins.end(), [](const Protein& p) {
    return !p.is_decoy && p.accession.rfind("P02769", 0) == 0;
  });
  ASSERT_NE(bsa, proteins.end());
  const auto peptides = digest_sequences(bsa->sequence, trypsin(), options(1, 5));
  const std::set<std::string_view> set(peptides.begin(), peptides.end());
  EXPECT_TRUE(set.count("LVNELTEFAK"));
  EXPECT_TRUE(set.count("YLYEIAR"));
  EXPECT_TRUE(set.count("HLVDEPQNLIK"));
  EXPECT_TRUE(set.count("KQTALVELLK"));  // one missed cleavage
}

// Independent brute force over all substrings of BSA: semi-specific with 2 missed cleavages.
TEST(Digest, SemiSpecificMatchesBruteForceOnBsa) {
  const auto proteins = read_fasta(
      "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta",
      "_rev");
  const auto bsa = std::find_if(proteins.begin(), proteins.end(), [](const Protein& p) {
    return !p.is_decoy && p.accession.rfind("P02769", 0) == 0;
  });
  ASSERT_NE(bsa, proteins.end());
  const std::string& s = bsa->sequence;
  auto is_site = [&](size_t i) { return (s[i - 1] == 'K' || s[i - 1] == 'R') && s[i] != 'P'; };
  for (bool semi : {false, true}) {
    DigestOptions o = options(2, 7, true);
    o.semi_specific = semi;
    std::vector<DigestedPeptide> out;
    digest(s, trypsin(), o, out);
    std::set<std::tuple<uint32_t, uint16_t, int, int>> got, want;
    for (const auto& p : out)
      got.emplace(p.start, p.length, p.missed_cleavages, p.enzymatic_termini);
    for (size_t a = 0; a < s.size(); ++a) {
      for (size_t b = a + 7; b <= std::min(s.size(), a + 50); ++b) {
        int missed = 0;
        for (size_t i = a + 1; i < b; ++i) missed += is_site(i);
        const bool start = a == 0 || is_site(a) || (a == 1 && s[0] == 'M');
        const bool end = b == s.size() || is_site(b);
        const int termini = start + end;
        if (missed > 2 || termini < (semi ? 1 : 2)) continue;
        want.emplace(static_cast<uint32_t>(a), static_cast<uint16_t>(b - a), missed, termini);
      }
    }
    EXPECT_EQ(got.size(), out.size());  // no duplicates
    EXPECT_EQ(got, want) << (semi ? "semi" : "fully");
  }
}

}  // namespace
}  // namespace ionflow
