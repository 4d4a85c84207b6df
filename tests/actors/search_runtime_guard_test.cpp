// SearchRuntime guards at the start of a job: a cancel that arrives before or during the
// peptide index build ends the job with JobCancelled (the build reads JobControl::cancel), and
// an output directory that cannot take files fails the job before any searching, and an empty
// FASTA or an empty spectra file fails the job with an error naming the file (it used to
// "succeed" with 0 PSMs).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
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

// Runs `job`, expecting a JobError whose message contains `expected`; no results are left.
void expect_job_error(JobSpec job, const std::string& expected) {
  SearchRuntime runtime({1, 1, 2});
  try {
    runtime.run(job);
    ADD_FAILURE() << "expected JobError containing: " << expected;
  } catch (const JobError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(expected), std::string::npos) << what;
  }
  EXPECT_FALSE(fs::exists(fs::path(job.output_directory) / "results.tsv"));
}

TEST(SearchRuntimeGuard, EmptyFastaFailsNamingTheFile) {
  const fs::path dir = scratch("empty-fasta");
  fs::create_directories(dir);
  const fs::path fasta = dir / "empty.fasta";
  std::ofstream(fasta).close();
  JobSpec job = ecoli_job("empty-fasta", dir / "out");
  job.fasta_path = fasta.string();
  expect_job_error(job, fasta.string() + ": no protein entries");
  fs::remove_all(dir);
}

TEST(SearchRuntimeGuard, EmptySpectraFileFailsNamingTheFile) {
  const fs::path dir = scratch("empty-spectra");
  fs::create_directories(dir);
  const fs::path mzml = dir / "empty.mzML";
  std::ofstream(mzml) << "\n  \n";  // whitespace only
  JobSpec job = ecoli_job("empty-spectra", dir / "out");
  job.spectra_paths = {mzml.string()};
  expect_job_error(job, mzml.string() + ": (byte 0): empty file: no mzML or MGF content");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ionflow
