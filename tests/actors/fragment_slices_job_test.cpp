// An open search whose fragment-ion index exceeds the job's budget
// (JobSpec::fragment_index_budget_bytes): the runtime hands the scorers FragmentSlices
// (scoring/fragment_slices.hpp) built on demand, and the job writes the same results as with the
// whole index. E. coli, 139 spectra, ±150 Da, isotope error 0, Carbamidomethyl (C) fixed,
// Oxidation (M) variable (the job of open_search_test: 78 target PSMs at 1% FDR).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "actors/search_runtime.hpp"
#include "actors_test_support.hpp"

namespace ionflow {
namespace {

using namespace actors_test;

JobSummary run_open_search(const std::string& name, const fs::path& out, uint64_t budget_bytes) {
  JobSpec job = ecoli_job(name, out);
  // Unimod: Carbamidomethyl = UNIMOD:4, +57.021464 Da; Oxidation = UNIMOD:35, +15.994915 Da.
  job.search.database.fixed_modifications.push_back(
      {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true});
  job.search.database.variable_modifications.push_back(
      {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false});
  job.search.precursor_tolerance = Tolerance::Da(-150, 150);
  job.search.isotope_errors = {0};
  job.fragment_index_budget_bytes = budget_bytes;
  SearchRuntime::Options options;
  options.licensed_cores = 2;
  SearchRuntime runtime(options);
  return runtime.run(job, nullptr);
}

// The whole index takes 114 MB (up to 173 MB estimated); a 40 MB budget cuts it into 17 slices
// of at most 10 MB that two scorers share and build as their queries reach them. Same
// results.tsv, byte for byte.
TEST(FragmentSlicesJob, OverBudgetOpenSearchWritesTheSameResults) {
  const fs::path whole_out = scratch_directory("actors", "slices-whole");
  const fs::path sliced_out = scratch_directory("actors", "slices-sliced");
  fs::remove_all(whole_out);
  fs::remove_all(sliced_out);
  const JobSummary whole = run_open_search("whole", whole_out, 2ull << 30);
  const JobSummary sliced = run_open_search("sliced", sliced_out, 40ull << 20);
  EXPECT_EQ(whole.fragment_index.rfind("15024985 entries (114 MB), built in ", 0), 0u)
      << whole.fragment_index;
  EXPECT_EQ(sliced.fragment_index.rfind(
                "sliced: 17 slices (up to 10 MB each) built on demand within 40 MB; ", 0),
            0u)
      << sliced.fragment_index;
  // 72 before the open search's precursor calibration; 78 when the 139 spectra were rescored;
  // 74 before the sampled null's E-value took in the candidates' tail (spectrum_scorer.cpp).
  EXPECT_EQ(whole.psms_at_1pct, 79u);
  EXPECT_EQ(sliced.psms_at_1pct, 79u);
  EXPECT_EQ(sliced.psms, whole.psms);
  const std::string tsv = read_file(whole_out / "results.tsv");
  ASSERT_FALSE(tsv.empty());
  EXPECT_TRUE(read_file(sliced_out / "results.tsv") == tsv);
  fs::remove_all(whole_out);
  fs::remove_all(sliced_out);
}

}  // namespace
}  // namespace ionflow
