// Enzyme: cleavage rules of the named proteases and Sage-style custom rules.
#include "scoring/enzyme.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace ionflow {
namespace {

// Positions i (1..n-1) where the bond before sequence[i] is cut.
std::vector<size_t> sites(const Enzyme& e, std::string_view s) {
  std::vector<size_t> out;
  for (size_t i = 1; i < s.size(); ++i) {
    if (e.is_site(s, i)) out.push_back(i);
  }
  return out;
}

Enzyme named(const std::string& name) {
  EnzymeParameters p;
  p.name = name;
  return Enzyme(p);
}

using V = std::vector<size_t>;
constexpr std::string_view kSeq = "AKPRKDEFWYLRPE";
//                                  0123456789....
// A0 K1 P2 R3 K4 D5 E6 F7 W8 Y9 L10 R11 P12 E13

TEST(Enzyme, Trypsin) {
  EXPECT_EQ(sites(named("trypsin"), kSeq), (V{4, 5}));  // K1-P2 and R11-P12 not cut
  EXPECT_EQ(sites(named("Trypsin"), kSeq), (V{4, 5}));  // case-insensitive
  EXPECT_EQ(sites(named("trypsin/p"), kSeq), (V{2, 4, 5, 12}));
}

TEST(Enzyme, OtherNamedRules) {
  EXPECT_EQ(sites(named("lys-c"), kSeq), (V{5}));
  EXPECT_EQ(sites(named("lys-n"), kSeq), (V{1, 4}));
  EXPECT_EQ(sites(named("arg-c"), kSeq), (V{4}));
  EXPECT_EQ(sites(named("asp-n"), kSeq), (V{5}));
  EXPECT_EQ(sites(named("glu-c"), kSeq), (V{7}));  // E13 is last; D5 not cut (E only)
  EXPECT_EQ(sites(named("chymotrypsin"), kSeq), (V{8, 9, 10, 11}));  // F W Y L; not L-P? L10-R11
  EXPECT_TRUE(named("no-enzyme").cleaves_every_bond());
  EXPECT_TRUE(named("unspecific cleavage").cleaves_every_bond());
  EXPECT_TRUE(named("no-cleavage").cleaves_no_bond());
}

// Which end of a peptide carries the site residue: the scorer's mass-matched null keeps that
// end's ions unmoved (scoring/spectrum_scorer.cpp).
TEST(Enzyme, SiteResidueEndsOrStartsThePeptide) {
  for (const char* name : {"trypsin", "trypsin/p", "lys-c", "arg-c", "glu-c", "chymotrypsin"}) {
    EXPECT_TRUE(named(name).cleaves_c_terminal()) << name;
  }
  EXPECT_FALSE(named("lys-n").cleaves_c_terminal());
  EXPECT_FALSE(named("asp-n").cleaves_c_terminal());
}

// Built in one go: GCC 12 warns (-Wrestrict, PR 105329) on assigning short literals to strings.
Enzyme custom(std::string cleave_at, std::string restrict, bool c_terminal) {
  EnzymeParameters p;
  p.name = "custom";
  p.cleave_at = std::move(cleave_at);
  p.restrict = std::move(restrict);
  p.c_terminal = c_terminal;
  return Enzyme(p);
}

TEST(Enzyme, CustomFollowsSage) {
  EXPECT_EQ(sites(custom("DE", "", true), kSeq), (V{6, 7}));
  EXPECT_EQ(sites(custom("K", "D", true), kSeq), (V{2}));  // K4-D5 restricted
  // N-terminal: before K unless preceded by a restrict residue.
  EXPECT_EQ(sites(custom("K", "R", false), kSeq), (V{1}));  // R3-K4 restricted
  EXPECT_TRUE(custom("", "", true).cleaves_every_bond());   // Sage: "" = non-specific
  EXPECT_TRUE(custom("$", "", true).cleaves_no_bond());     // Sage: "$" = no digestion
  EXPECT_THROW(custom("K1", "", true), std::invalid_argument);
  EXPECT_FALSE(custom("K", "R", false).cleaves_c_terminal());
}

TEST(Enzyme, UnknownNameListsKnownNames) {
  try {
    named("trypsine");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("trypsine"), std::string::npos);
    EXPECT_NE(what.find("chymotrypsin"), std::string::npos);
    EXPECT_NE(what.find("no-enzyme"), std::string::npos);
  }
}

}  // namespace
}  // namespace ionflow
