// The service API's job summary JSON carries the job's warnings (an input file with no
// searchable spectrum), and leaves the key out when there are none.
#include "service/summary_report.hpp"

#include <gtest/gtest.h>

namespace ionflow {
namespace {

TEST(SummaryReport, JsonListsWarningsOnlyWhenThereAreSome) {
  JobSummary s;
  s.spectra_read = 612;
  s.spectra_skipped["MS level 1"] = 612;
  EXPECT_EQ(job_summary_json(s).find("warnings"), nullptr);
  s.warnings.push_back("BSA1.mzML: 0 of 612 spectra searchable (612 MS level 1)");
  const JsonValue json = job_summary_json(s);
  const JsonValue* warnings = json.find("warnings");
  ASSERT_NE(warnings, nullptr);
  EXPECT_EQ(to_json(*warnings), R"j(["BSA1.mzML: 0 of 612 spectra searchable (612 MS level 1)"])j");
  EXPECT_EQ(json.find("spectra_searched")->as_integer(), 0);
}

// The printed summary counts in the singular after one: "1 PSM, 1 peptide, 1 protein group (2
// proteins)"; protein groups first, the accessions they hold in parentheses.
TEST(SummaryReport, TheFdrLineCountsInTheSingularAfterOne) {
  JobSummary s;
  s.psms_at_1pct = 1;
  s.peptides_at_1pct = 1;
  s.proteins_at_1pct = 2;
  s.protein_groups_at_1pct = 1;
  const std::string text = format_job_summary(s);
  EXPECT_NE(text.find("1 PSM, 1 peptide, 1 protein group (2 proteins)\n"), std::string::npos)
      << text;
  s.psms_at_1pct = 40;
  s.peptides_at_1pct = 17;
  s.proteins_at_1pct = 11;
  s.protein_groups_at_1pct = 4;
  EXPECT_NE(format_job_summary(s).find("40 PSMs, 17 peptides, 4 protein groups (11 proteins)\n"),
            std::string::npos);
  s.protein_groups_at_1pct = 1;
  s.proteins_at_1pct = 1;
  EXPECT_NE(format_job_summary(s).find("1 protein group (1 protein)\n"), std::string::npos);
}

// results.json and the service API carry both protein counts under their own keys.
TEST(SummaryReport, JsonHasProteinsAndProteinGroups) {
  JobSummary s;
  s.proteins_at_1pct = 11;
  s.protein_groups_at_1pct = 4;
  const JsonValue json = job_summary_json(s);
  EXPECT_EQ(json.find("proteins_at_1pct_fdr")->as_integer(), 11);
  EXPECT_EQ(json.find("protein_groups_at_1pct_fdr")->as_integer(), 4);
}

}  // namespace
}  // namespace ionflow
