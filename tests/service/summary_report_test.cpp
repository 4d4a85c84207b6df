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

// The printed summary counts in the singular after one: "1 PSM, 1 peptide, 1 protein".
TEST(SummaryReport, TheFdrLineCountsInTheSingularAfterOne) {
  JobSummary s;
  s.psms_at_1pct = 1;
  s.peptides_at_1pct = 1;
  s.proteins_at_1pct = 2;
  const std::string text = format_job_summary(s);
  EXPECT_NE(text.find("1 PSM, 1 peptide, 2 proteins\n"), std::string::npos) << text;
  s.psms_at_1pct = 45;
  s.peptides_at_1pct = 19;
  EXPECT_NE(format_job_summary(s).find("45 PSMs, 19 peptides, 2 proteins\n"), std::string::npos);
}

}  // namespace
}  // namespace ionflow
