// PSM pages: filters, numeric and text sorts (empty cells last, ties in file order), paging,
// and the errors that name the parameter.
#include "service/psm_page.hpp"

#include <gtest/gtest.h>

namespace ionflow {
namespace {

const char* kTsv =
    "psm_id\tscannr\tlabel\trank\tcharge\tpeptide\tproteins\thyperscore\tspectrum_q\trt\n"
    "1\tscan=1\t1\t1\t2\tPEPTIDEK\tP1\t10.5\t0.001\t1.5\n"
    "2\tscan=2\t-1\t1\t3\tKEDITPEP\trev_P1\t4.0\t0.5\t\n"
    "3\tscan=3\t1\t1\t2\tLVNELTEFAK\tP2\t12.0\t0.0\t2.5\n"
    "4\tscan=3\t1\t2\t2\tLVNELTEFAR\tP3\t10.5\t0.2\t2.5\n";

std::vector<std::string> ids(const ResultsTable& t, const PsmQuery& q) {
  std::vector<std::string> out;
  for (size_t r : select_psms(t, q)) out.emplace_back(t.cell(r, 0));
  return out;
}

TEST(PsmPage, FiltersAndSorts) {
  const ResultsTable t = ResultsTable::parse(kTsv, "t.tsv");
  PsmQuery q = parse_psm_query({{"sort", "hyperscore"}, {"order", "desc"}});
  EXPECT_EQ(ids(t, q), (std::vector<std::string>{"3", "1", "4", "2"}));  // 1 before 4: file order
  q = parse_psm_query({{"max_q", "0.01"}, {"label", "target"}, {"rank", "1"}});
  EXPECT_EQ(ids(t, q), (std::vector<std::string>{"1", "3"}));
  q = parse_psm_query({{"filter", "ELTEF"}, {"sort", "peptide"}, {"order", "desc"}});
  EXPECT_EQ(ids(t, q), (std::vector<std::string>{"4", "3"}));
  q = parse_psm_query({{"filter", "rev_"}});
  EXPECT_EQ(ids(t, q), (std::vector<std::string>{"2"}));
  q = parse_psm_query({{"sort", "rt"}, {"order", "desc"}});  // the empty rt last
  EXPECT_EQ(ids(t, q), (std::vector<std::string>{"3", "4", "1", "2"}));
  q = parse_psm_query({{"charge", "3"}});
  EXPECT_EQ(ids(t, q), (std::vector<std::string>{"2"}));
}

TEST(PsmPage, PagesAsJson) {
  const ResultsTable t = ResultsTable::parse(kTsv, "t.tsv");
  const PsmQuery q = parse_psm_query({{"offset", "1"}, {"limit", "2"}});
  const JsonValue page = psm_page_json(t, q, select_psms(t, q));
  EXPECT_EQ(page.find("total")->as_integer(), 4);
  EXPECT_EQ(page.find("matched")->as_integer(), 4);
  const auto& rows = page.find("rows")->as_array();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].as_array()[5].as_string(), "KEDITPEP");
  EXPECT_EQ(rows[1].as_array()[0].as_string(), "3");
}

TEST(PsmPage, ErrorsNameTheParameter) {
  const ResultsTable t = ResultsTable::parse(kTsv, "t.tsv");
  auto error_of = [&](std::map<std::string, std::string> params) {
    try {
      select_psms(t, parse_psm_query(params));
    } catch (const PsmQueryError& e) {
      return e.field() + " | " + e.what();
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of({{"limit", "0"}}), "limit | limit: expected an integer from 1 to 1000, got 0");
  EXPECT_EQ(error_of({{"order", "up"}}), "order | order: expected asc or desc, got up");
  EXPECT_EQ(error_of({{"max_q", "2"}}), "max_q | max_q: expected a q-value from 0 to 1, got 2");
  EXPECT_EQ(error_of({{"sort", "peptid"}}),
            "sort | sort: no column \"peptid\"; did you mean \"peptide\"?");
  EXPECT_EQ(error_of({{"colour", "red"}}),
            "colour | colour: unknown parameter (known: offset, limit, sort, order, filter, max_q, "
            "label, rank, charge)");
}

}  // namespace
}  // namespace ionflow
