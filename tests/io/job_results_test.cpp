// write_result_formats and write_results_json: the result files they write, and a full disk
// reported with the temporary file's path and the OS reason. <output>/results.tsv.tmp as a
// symlink to /dev/full gives ENOSPC without root (the writer opens the .tmp by name, following
// the link).
#include "io/job_results.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "io/result_common.hpp"

namespace ionflow {
namespace {

namespace fs = std::filesystem;

std::string temp_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("ionflow_job_results_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string write_error(const JobSpec& spec) {
  PendingFiles pending;
  try {
    write_result_formats(spec, std::vector<Psm>{}, pending);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(WriteResultFormats, WritesTheTsvAsTmpUntilCommitted) {
  JobSpec spec;
  spec.output_directory = temp_dir("ok");
  PendingFiles pending;
  write_result_formats(spec, std::vector<Psm>{}, pending);
  const std::string tmp = spec.output_directory + "/results.tsv.tmp";
  EXPECT_EQ(first_line(tmp).substr(0, 33), "psm_id\tfilename\tscannr\trank\tlabel");
  EXPECT_EQ(pending.commit(), std::vector<std::string>{spec.output_directory + "/results.tsv"});
  EXPECT_FALSE(fs::exists(tmp));
  fs::remove_all(spec.output_directory);
}

std::string content(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

// A re-run whose commit fails keeps the earlier run's results: a new user made one rename fail
// (a directory named results.pep.xml) and lost the earlier results.tsv while the earlier
// results.json stayed, pointing at it.
TEST(PendingFiles, FailedCommitLeavesTheEarlierResultsAsTheyWere) {
  const std::string dir = temp_dir("rollback");
  write_file(dir + "/results.tsv", "earlier tsv");
  write_file(dir + "/results.json", "earlier json");
  fs::create_directory(dir + "/results.pep.xml");
  std::string error;
  {
    PendingFiles pending;
    for (const char* name : {"results.tsv", "results.pep.xml", "results.json"}) {
      write_file(pending.add(dir, name), std::string("new ") + name);
    }
    try {
      pending.commit();
    } catch (const std::runtime_error& e) {
      error = e.what();
    }
    EXPECT_TRUE(pending.committed().empty());
  }
  EXPECT_EQ(error, "cannot rename " + dir + "/results.pep.xml.tmp to " + dir +
                       "/results.pep.xml: Is a directory");
  EXPECT_EQ(content(dir + "/results.tsv"), "earlier tsv");
  EXPECT_EQ(content(dir + "/results.json"), "earlier json");
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"results.json", "results.pep.xml", "results.tsv"}));
  fs::remove_all(dir);
}

// A successful commit replaces the earlier files and leaves nothing else behind.
TEST(PendingFiles, CommitReplacesTheEarlierResults) {
  const std::string dir = temp_dir("replace");
  write_file(dir + "/results.tsv", "earlier tsv");
  PendingFiles pending;
  write_file(pending.add(dir, "results.tsv"), "new tsv");
  write_file(pending.add(dir, "results.json"), "new json");
  EXPECT_EQ(pending.commit(),
            (std::vector<std::string>{dir + "/results.tsv", dir + "/results.json"}));
  EXPECT_EQ(content(dir + "/results.tsv"), "new tsv");
  EXPECT_EQ(content(dir + "/results.json"), "new json");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 2);
  fs::remove_all(dir);
}

// A crash in the middle of an earlier commit can leave "<final>.previous": put back when the
// final file is missing, removed when it is there; either way none is left after a commit (a
// review found one surviving later runs).
TEST(PendingFiles, CommitTidiesWhatACrashInAnEarlierCommitLeft) {
  const std::string dir = temp_dir("crash");
  write_file(dir + "/results.tsv.previous", "earlier tsv");  // results.tsv missing
  write_file(dir + "/results.json", "earlier json");
  write_file(dir + "/results.json.previous", "older json");
  fs::create_directory(dir + "/results.pep.xml");  // this commit fails: the earlier run's stay
  {
    PendingFiles pending;
    for (const char* name : {"results.tsv", "results.pep.xml", "results.json"}) {
      write_file(pending.add(dir, name), std::string("new ") + name);
    }
    EXPECT_THROW(pending.commit(), std::runtime_error);
  }
  EXPECT_EQ(content(dir + "/results.tsv"), "earlier tsv");
  EXPECT_EQ(content(dir + "/results.json"), "earlier json");
  EXPECT_FALSE(fs::exists(dir + "/results.tsv.previous"));
  EXPECT_FALSE(fs::exists(dir + "/results.json.previous"));
  fs::remove(dir + "/results.pep.xml");
  PendingFiles pending;
  write_file(pending.add(dir, "results.tsv"), "new tsv");
  pending.commit();
  EXPECT_EQ(content(dir + "/results.tsv"), "new tsv");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 2);
  fs::remove_all(dir);
}

// The result files carry the job's creation time, not the time they are written: a job
// `ionflow serve` restarts rewrites them byte for byte (a new user found pepXML and mzid
// differing only in their date).
TEST(WriteResultFormats, DatesTheFilesWithTheJobsCreationTime) {
  JobSpec spec;
  spec.output_directory = temp_dir("dated");
  spec.output_formats = {"pepxml", "mzid"};
  spec.creation_time = result_format::utc_timestamp(1764921600.75);  // 2025-12-05T08:00:00Z
  EXPECT_EQ(spec.creation_time, "2025-12-05T08:00:00Z");
  PendingFiles pending;
  write_result_formats(spec, std::vector<Psm>{}, pending);
  pending.commit();
  std::ifstream pepxml(spec.output_directory + "/results.pep.xml");
  std::stringstream pep;
  pep << pepxml.rdbuf();
  EXPECT_NE(pep.str().find("date=\"2025-12-05T08:00:00Z\""), std::string::npos);
  std::ifstream mzid(spec.output_directory + "/results.mzid");
  std::stringstream mz;
  mz << mzid.rdbuf();
  EXPECT_NE(mz.str().find("creationDate=\"2025-12-05T08:00:00Z\""), std::string::npos);
  fs::remove_all(spec.output_directory);
}

// A run with tsv only after one with tsv, mzid and pin into the same directory: the earlier
// run's mzid and pin (and a zstd run's results.tsv.zst) go, the user's own files stay.
TEST(RemoveStaleResults, KeepsOnlyThisRunsFormatsAndFilesItDoesNotName) {
  JobSpec spec;
  spec.output_directory = temp_dir("stale");
  spec.output_formats = {"tsv"};
  for (const char* name : {"results.tsv", "results.json", "results.mzid", "results.pin",
                           "results.pep.xml.zst", "results.tsv.zst", "notes.txt"}) {
    std::ofstream(spec.output_directory + "/" + name) << "x";
  }
  remove_stale_results(spec);
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(spec.output_directory)) {
    left.push_back(e.path().filename().string());
  }
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"notes.txt", "results.json", "results.tsv"}));
  fs::remove_all(spec.output_directory);
}

// What a job killed while writing leaves: every format's "<name>.tmp" goes, whatever the job
// asked for; finished results, other names, and what is no regular file at those names stay.
TEST(RemoveTemporaryResults, RemovesOnlyTheTemporaryNamesOfResultFiles) {
  const std::string dir = temp_dir("temporaries");
  for (const char* name :
       {"results.tsv.tmp", "results.json.tmp", "results.mzid.zst.tmp", "results.pep.xml.tmp",
        "results.tsv", "results.tsv.previous", "notes.tmp", "results.txt.tmp"}) {
    std::ofstream(dir + "/" + name) << "x";
  }
  fs::create_directory(dir + "/results.pin.tmp");
  fs::create_symlink(dir + "/notes.tmp", dir + "/results.pin.zst.tmp");
  remove_temporary_results(dir);
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir)) left.push_back(e.path().filename().string());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left,
            (std::vector<std::string>{"notes.tmp", "results.pin.tmp", "results.pin.zst.tmp",
                                      "results.tsv", "results.tsv.previous", "results.txt.tmp"}));
  remove_temporary_results(dir + "/missing");  // no directory: nothing to do, no throw
  fs::remove_all(dir);
}

TEST(WriteResultFormats, FullDiskNamesTheTemporaryFileAndTheReason) {
  JobSpec spec;
  spec.output_directory = temp_dir("full");
  const std::string tmp = spec.output_directory + "/results.tsv.tmp";
  fs::create_symlink("/dev/full", tmp);
  EXPECT_EQ(write_error(spec), "cannot write " + tmp + ": No space left on device");
  EXPECT_FALSE(fs::exists(fs::symlink_status(tmp)));  // PendingFiles removed it

  // The same through the zstd stream.
  spec.zstd = true;
  const std::string zst_tmp = spec.output_directory + "/results.tsv.zst.tmp";
  fs::create_symlink("/dev/full", zst_tmp);
  EXPECT_EQ(write_error(spec), "cannot write " + zst_tmp + ": No space left on device");
  fs::remove_all(spec.output_directory);
}

TEST(WriteResultsJson, FullDiskNamesTheTemporaryFileAndTheReason) {
  JobSpec spec;
  spec.output_directory = temp_dir("full_json");
  const std::string tmp = spec.output_directory + "/results.json.tmp";
  fs::create_symlink("/dev/full", tmp);
  PendingFiles pending;
  std::string error = "no error";
  try {
    write_results_json(spec, JobSummary{}, pending);
  } catch (const std::runtime_error& e) {
    error = e.what();
  }
  EXPECT_EQ(error, "cannot write " + tmp + ": No space left on device");
  fs::remove_all(spec.output_directory);
}

}  // namespace
}  // namespace ionflow
