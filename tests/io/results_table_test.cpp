// ResultsTable reads a results.tsv back: text cells, numeric columns as numbers, and errors that
// name the file and line.
#include "io/results_table.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "io/parse_error.hpp"

namespace ionflow {
namespace {

TEST(ResultsTable, CellsAndNumbers) {
  const ResultsTable t = ResultsTable::parse(
      "psm_id\tpeptide\thyperscore\trt\n1\tLVNELTEFAK\t11.5\t\n2\tC[UNIMOD:4]K\t-2e1\t3.25\n",
      "x.tsv");
  ASSERT_EQ(t.rows(), 2u);
  ASSERT_EQ(t.columns().size(), 4u);
  EXPECT_EQ(t.column("hyperscore"), 2);
  EXPECT_EQ(t.column("nope"), -1);
  EXPECT_EQ(t.cell(1, 1), "C[UNIMOD:4]K");
  EXPECT_FALSE(t.numeric(1));
  EXPECT_TRUE(t.numeric(2));
  EXPECT_DOUBLE_EQ(t.number(1, 2), -20.0);
  EXPECT_TRUE(std::isnan(t.number(0, 3)));  // empty rt
  EXPECT_DOUBLE_EQ(t.number(1, 3), 3.25);
  EXPECT_EQ(t.cell(0, 3), "");
}

TEST(ResultsTable, CrLfAndNoTrailingNewline) {
  const ResultsTable t = ResultsTable::parse("a\tb\r\n1\t2\r\n3\t4", "y.tsv");
  ASSERT_EQ(t.rows(), 2u);
  EXPECT_EQ(t.cell(0, 1), "2");
  EXPECT_DOUBLE_EQ(t.number(1, 1), 4.0);
}

TEST(ResultsTable, ErrorsNameFileAndLine) {
  try {
    ResultsTable::parse("a\tb\n1\t2\n3\n", "z.tsv");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_STREQ(e.what(), "z.tsv: line 3 (byte 8): 1 cells, the header has 2");
  }
  EXPECT_THROW(ResultsTable::parse("", "e.tsv"), std::runtime_error);
  EXPECT_THROW(ResultsTable::parse("just one column\n", "o.tsv"), std::runtime_error);
  EXPECT_THROW(ResultsTable::read("/nonexistent/results.tsv"), std::runtime_error);
}

}  // namespace
}  // namespace ionflow
