// SearchRuntime guards at the start of a job: a cancel that arrives before or during the
// peptide index build ends the job with JobCancelled (the build reads JobControl::cancel), and
// an output directory that cannot take files fails the job before any searching, and an empty
// FASTA or an empty spectra file fails the job with an error naming the file (it used to
// "succeed" with 0 PSMs).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "actors/search_runtime.hpp"
#include "actors_test_support.hpp"

namespace ionflow {
namespace {

namespace fs = std::filesystem;
using namespace actors_test;

fs::path scratch(const std::string& name) {
  return scratch_directory("runtime-guard", name);
}

TEST(SearchRuntimeGuard, CancelBeforeTheIndexBuildEndsWithJobCancelled) {
  const fs::path dir = scratch("cancel");
  SearchRuntime runtime({1, 1, 2, "", {}});
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
  SearchRuntime runtime({1, 1, 2, "", {}});
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
  SearchRuntime runtime({1, 1, 2, "", {}});
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
  expect_job_error(job, mzml.string() + ": byte 0: empty file: no mzML, mzXML, MGF or MS2 content");
  fs::remove_all(dir);
}

// The index cache (used by jobs that index the whole database; here forced by whole_index, as a
// wide window would): the first job builds and saves the index, the second loads it and gives
// byte-identical results; a damaged cache file is a miss (rebuilt and saved again), never an
// error.
TEST(SearchRuntimeGuard, IndexCacheMissThenHitThenDamagedFileRebuilds) {
  const fs::path dir = scratch("index-cache");
  SearchRuntime runtime({2, 2, 2, "", {}});
  auto run = [&](const std::string& name) {
    JobSpec job = ecoli_job(name, dir / name);
    job.index_cache_directory = (dir / "cache").string();
    job.whole_index = true;
    JobSummary s = runtime.run(job);
    return std::make_pair(s, read_file(dir / name / "results.tsv"));
  };
  auto [first, first_tsv] = run("first");
  EXPECT_EQ(first.index_cache.rfind("miss (", 0), 0u) << first.index_cache;
  EXPECT_NE(first.index_cache.find("no such file), saved "), std::string::npos)
      << first.index_cache;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir / "cache")) files.push_back(e.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].extension(), ".ionflow-index");

  auto [second, second_tsv] = run("second");
  EXPECT_EQ(second.index_cache, "hit " + files[0].string());
  EXPECT_EQ(second.peptides_in_index, first.peptides_in_index);
  EXPECT_EQ(second.psms_at_1pct, first.psms_at_1pct);
  EXPECT_EQ(second_tsv, first_tsv);

  fs::resize_file(files[0], fs::file_size(files[0]) / 2);  // damaged: truncated
  auto [third, third_tsv] = run("third");
  EXPECT_EQ(third.index_cache.rfind("miss (" + files[0].string() + ": ", 0), 0u)
      << third.index_cache;
  EXPECT_EQ(third_tsv, first_tsv);
  auto [fourth, fourth_tsv] = run("fourth");  // the rebuilt cache is intact again
  EXPECT_EQ(fourth.index_cache, "hit " + files[0].string());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ionflow
