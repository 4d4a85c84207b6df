// On-demand measurement (disabled by default, not a pass/fail test): runs the E. coli example
// job with the input listed IONFLOW_MEASURE_COPIES times (default 1) and prints results.json.
// Run one size per process, since peak RSS is per process:
//   IONFLOW_MEASURE_COPIES=10 actors_tests --gtest_also_run_disabled_tests
//     --gtest_filter='*MeasureEcoli*'
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "actors/search_runtime.hpp"

namespace ionflow {
namespace {

TEST(Measure, DISABLED_MeasureEcoli) {
  int copies = 1;
  if (const char* c = std::getenv("IONFLOW_MEASURE_COPIES")) copies = std::max(1, std::atoi(c));
  int scorers = 0;
  if (const char* c = std::getenv("IONFLOW_MEASURE_SCORERS")) scorers = std::atoi(c);
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ionflow-measure-" + std::to_string(::getpid()));
  JobSpec job;
  job.id = "measure";
  for (int i = 0; i < copies; ++i) {
    job.spectra_paths.push_back(std::string(IONFLOW_EXAMPLES_DIR) + "/ID/Ecoli_MS2_small.mzML");
  }
  job.fasta_path = std::string(IONFLOW_EXAMPLES_DIR) +
                   "/TOPPAS/data/Identification/target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta";
  job.output_directory = dir.string();
  job.search.database.fixed_modifications.push_back(
      {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true});
  job.search.database.variable_modifications.push_back(
      {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false});
  job.search.database.decoy_tag = "rev_";
  job.search.database.decoy_generation = DecoyGeneration::kNone;
  if (const char* c = std::getenv("IONFLOW_MEASURE_PARSERS")) job.parsers = std::atoi(c);
  SearchRuntime::Options options;
  options.scorers = scorers;
  SearchRuntime runtime(options);
  JobSummary s = runtime.run(job);
  std::ifstream in(dir / "results.json");
  std::stringstream json;
  json << in.rdbuf();
  std::cout << json.str();
  EXPECT_EQ(s.spectra_read, 139u * copies);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ionflow
