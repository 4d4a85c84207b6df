// ProteinList: copies share one list; it reads like the vector it was made from.
#include "scoring/protein_list.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ionflow {
namespace {

TEST(ProteinList, CopiesShareTheProteinsInMemory) {
  const ProteinList list(
      std::vector<Protein>{{"P1", "first", "PEPTIDEK", false}, {"rev_P1", "", "KEDITPEP", true}});
  const ProteinList copy = list;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_TRUE(copy.shares(list));
  EXPECT_EQ(&copy[1], &list[1]);
  EXPECT_EQ(copy[1].sequence.data(), list[1].sequence.data());

  const ProteinList equal = {{"P1", "first", "PEPTIDEK", false}, {"rev_P1", "", "KEDITPEP", true}};
  EXPECT_FALSE(equal.shares(list));  // equal proteins, another list
}

TEST(ProteinList, ReadsLikeTheVectorItWasMadeFrom) {
  const ProteinList list = {{"P1", "first", "PEPTIDEK", false}, {"rev_P1", "", "KEDITPEP", true}};
  ASSERT_EQ(list.size(), 2u);
  EXPECT_FALSE(list.empty());
  EXPECT_EQ(list.front().accession, "P1");
  EXPECT_EQ(list.back().accession, "rev_P1");
  EXPECT_TRUE(list[1].is_decoy);
  std::vector<std::string> accessions;
  for (const Protein& p : list) accessions.push_back(p.accession);
  EXPECT_EQ(accessions, (std::vector<std::string>{"P1", "rev_P1"}));
  EXPECT_EQ(&list.all()[0], &list[0]);
}

TEST(ProteinList, DefaultIsEmpty) {
  const ProteinList none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.size(), 0u);
  EXPECT_EQ(none.begin(), none.end());
  EXPECT_TRUE(none.all().empty());
}

}  // namespace
}  // namespace ionflow
