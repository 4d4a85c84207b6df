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

}  // namespace
}  // namespace ionflow
