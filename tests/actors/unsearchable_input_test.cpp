// A job whose input file gives no searchable spectrum (MS1 only, every spectrum skipped) still
// succeeds, as an all-skipped job always has, but says which file and why in
// JobSummary::warnings, results.json and the log (found by a new-user test: an MS1-only file
// finished without a word).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "actors/search_runtime.hpp"
#include "actors_test_support.hpp"

namespace ionflow {
namespace {

using namespace actors_test;

// tests/data/BSA1_excerpt.mzML without its four MS2 spectra: its one MS1 spectrum (scan 1011).
std::string ms1_only_mzml() {
  std::string mzml = read_file(fs::path(IONFLOW_TEST_DATA_DIR) / "BSA1_excerpt.mzML");
  const size_t from = mzml.find("<spectrum id=\"spectrum=2442\"");
  const size_t to = mzml.find("</spectrumList>");
  EXPECT_NE(from, std::string::npos);
  EXPECT_NE(to, std::string::npos);
  if (from == std::string::npos || to == std::string::npos) return "";
  return mzml.erase(from, to - from);
}

// The E. coli run (139 MS2 spectra) with an MS1-only file beside it: the job searches the E. coli
// spectra and warns about the other file only.
TEST(UnsearchableInput, Ms1OnlyFileIsNamedInTheWarnings) {
  const fs::path out = scratch_directory("actors", "ms1-only");
  fs::create_directories(out);
  const std::string ms1 = (out / "ms1_only.mzML").string();
  std::ofstream(ms1, std::ios::binary) << ms1_only_mzml();
  JobSpec job = ecoli_job("ms1-only", out / "results");
  job.spectra_paths = {ms1, kEcoliMzml};
  SearchRuntime runtime({1, 1, 2, "", {}});
  const JobSummary s = runtime.run(job);
  EXPECT_EQ(s.spectra_read, 140u);
  EXPECT_EQ(s.spectra_searched, 139u);
  const std::string expected = ms1 + ": 0 of 1 spectra searchable (1 MS level 1)";
  EXPECT_EQ(s.warnings, std::vector<std::string>{expected});
  const std::string results = read_file(out / "results" / "results.json");
  EXPECT_NE(results.find("\"warnings\": [\"" + expected + "\"]"), std::string::npos) << results;
  fs::remove_all(out);
}

// Every spectrum skipped by preparation: the reason and its count, and a job with a searchable
// file has no warning at all.
TEST(UnsearchableInput, EverySpectrumSkippedGivesTheReasonsCount) {
  const fs::path out = scratch_directory("actors", "all-skipped-warning");
  JobSpec job = ecoli_job("all-skipped-warning", out);
  SearchRuntime runtime({1, 1, 2, "", {}});
  EXPECT_TRUE(runtime.run(job).warnings.empty());
  job.search.min_peaks = 100000;  // no spectrum has that many peaks
  const JobSummary s = runtime.run(job);
  EXPECT_EQ(s.spectra_searched, 0u);
  EXPECT_EQ(s.warnings,
            std::vector<std::string>{kEcoliMzml + ": 0 of 139 spectra searchable (139 too few "
                                                  "peaks)"});
  fs::remove_all(out);
}

}  // namespace
}  // namespace ionflow
