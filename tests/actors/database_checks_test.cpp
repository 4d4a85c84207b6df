// Databases a job cannot search meaningfully fail it up front, naming the FASTA and the reason
// (actors/search_runtime.cpp, check_searchable_database): found by a new-user test, where they ran
// to "success" with misleading numbers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "actors/search_runtime.hpp"
#include "actors_test_support.hpp"

namespace ionflow {
namespace {

using namespace actors_test;

std::string run_error(const JobSpec& job) {
  SearchRuntime::Options options;
  options.licensed_cores = 2;
  SearchRuntime runtime(options);
  try {
    runtime.run(job);
  } catch (const JobError& e) {
    return e.what();
  }
  return "";
}

// A job on the E. coli run whose FASTA, in a fresh scratch folder, holds `fasta_text`.
struct FastaJob {
  fs::path out;
  std::string fasta;
  JobSpec job;
};
FastaJob job_with_fasta(const std::string& name, const std::string& fasta_text) {
  FastaJob f;
  f.out = scratch_directory("actors", name);
  fs::create_directories(f.out);
  f.fasta = (f.out / (name + ".fasta")).string();
  std::ofstream(f.fasta) << fasta_text;
  f.job = ecoli_job(name, f.out);
  f.job.fasta_path = f.fasta;
  return f;
}

// The E. coli target-decoy FASTA marks decoys with the prefix "rev_"; a job that says "DECOY_"
// would see 8,272 targets and no decoy, and every PSM would pass 1% FDR.
TEST(DatabaseChecks, DecoyTagMatchingNoAccessionFailsTheJob) {
  const fs::path out = scratch_directory("actors", "decoy-tag");
  JobSpec job = ecoli_job("decoy-tag", out);
  job.search.database.decoy_tag = "DECOY_";
  const std::string error = run_error(job);
  EXPECT_NE(error.find(kEcoliFasta + ": no decoy entries: 0 of the 8272 accessions carry the "
                                     "decoy tag 'DECOY_' as a prefix"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("generate_decoys"), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(out / "results.tsv"));
  fs::remove_all(out);
}

// generate_decoys drops the FASTA's decoys: a decoy-only FASTA has no target left, and the job
// says so instead of "no peptides ... 500-5000 Da".
TEST(DatabaseChecks, DecoyOnlyFastaWithGeneratedDecoysNamesTheTag) {
  auto [out, fasta, job] = job_with_fasta(
      "decoys-only", ">rev_P1\nKLAEEGVSPKSEIAHRFKDLGEEHFK\n>rev_P2\nMKWVTFISLLLLFSSAYSR\n");
  job.search.database.decoy_generation = DecoyGeneration::kReversePeptide;
  const std::string error = run_error(job);
  EXPECT_NE(error.find(fasta + ": all 2 entries carry the decoy tag 'rev_' as a prefix (first "
                               "accession: 'rev_P1'), and generate_decoys replaces"),
            std::string::npos)
      << error;
  fs::remove_all(out);
}

// Headers without sequences: nothing to digest.
TEST(DatabaseChecks, FastaWithoutPeptidesFailsTheJob) {
  const auto [out, fasta, job] = job_with_fasta("no-peptides", ">P1 only a header\n>rev_P1\n");
  const std::string error = run_error(job);
  EXPECT_EQ(error.find(fasta + ": "), 0u) << error;
  EXPECT_NE(error.find("no peptides to search: its 2 entries give none with enzyme trypsin, "
                       "5-50 residues, 500-5000 Da"),
            std::string::npos)
      << error;
  fs::remove_all(out);
}

// With generate_decoys the index holds a reversed decoy per target: the message counts the
// FASTA's 3 entries, not the 6 proteins of the index.
TEST(DatabaseChecks, FastaWithoutPeptidesCountsTheFastaEntriesWhenGeneratingDecoys) {
  auto [out, fasta, job] =
      job_with_fasta("no-peptides-generated", ">P1 only a header\n>P2 short\nPEPK\n>P3\n");
  job.search.database.decoy_generation = DecoyGeneration::kReverseProtein;
  const std::string error = run_error(job);
  EXPECT_EQ(error.find(fasta + ": "), 0u) << error;
  EXPECT_NE(error.find("no peptides to search: its 3 entries give none (nor do the 3 decoys "
                       "generated from them) with enzyme trypsin, 5-50 residues, 500-5000 Da"),
            std::string::npos)
      << error;
  fs::remove_all(out);
}

}  // namespace
}  // namespace ionflow
