// SearchRuntime guards at the start of a job: a cancel that arrives before or during the
// peptide index build ends the job with JobCancelled (the build reads JobControl::cancel), and
// an output directory that cannot take files fails the job before any searching.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "actors/search_runtime.hpp"

namespace ionflow {
namespace {

namespace fs = std::filesystem;

JobSpec ecoli_job(const std::string& name, const fs::path& output) {
  JobSpec job;
  job.id = name;
  job.spectra_paths = {std::string(IONFLOW_EXAMPLES_DIR) + "/ID/Ecoli_MS2_small.mzML"};
  job.fasta_path = std::string(IONFLOW_EXAMPLES_DIR) +
                   "/TOPPAS/data/Identification/"
                   "target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta";
  job.output_directory = output.string();
  job.search.database.decoy_tag = "rev_";
  job.search.database.decoy_generation = DecoyGeneration::kNone;
  return job;
}

fs::path scratch(const std::string& name) {
  return fs::temp_directory_path() /
         ("ionflow-runtime-guard-" + std::to_string(::getpid()) + "-" + name);
}

TEST(SearchRuntimeGuard, CancelBeforeTheIndexBuildEndsWithJobCancelled) {
  const fs::path dir = scratch("cancel");
  SearchRuntime runtime({1, 1, 2});
  JobSpec job = ecoli_job("cancel-build", dir);
  JobControl control;
  control.cancel = true;
  EXPECT_THROW(runtime.run(job, &control), JobCancelled);
  EXPECT_FALSE(fs::exists(dir / "results.tsv"));
  EXPECT_FALSE(fs::exists(dir / "results.json"));
  fs::remove_all(dir);
}

TEST(SearchRuntimeGuard, UnwritableOutputDirectoryFailsBeforeTheSearch) {
  // /proc exists but takes no new files, not even from root.
  SearchRuntime runtime({1, 1, 2});
  JobSpec job = ecoli_job("proc-output", "/proc");
  try {
    runtime.run(job);
    FAIL() << "expected JobError";
  } catch (const JobError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("output directory /proc is not writable: "), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace ionflow
