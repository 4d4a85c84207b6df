// `ionflow search` as a user runs it: the built executable, its exit codes and its stderr.
// Skipped when the executable has not been built (it is a separate target from these tests).
#include "service/search_command.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "../scoring/yeast_run_support.hpp"
#include "service/job_message.hpp"

namespace ionflow {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kIonflow = std::string(IONFLOW_BINARY_DIR) + "/service/ionflow";
const std::string kData = IONFLOW_TEST_DATA_DIR;

struct CommandRun {
  int exit_code = -1;
  std::string out;  // stdout and stderr together
};

CommandRun run(const std::string& args) {
  CommandRun r;
  std::string command =
      "cd '" + std::string(IONFLOW_SOURCE_DIR) + "' && '" + kIonflow + "' " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.out.append(buffer.data(), n);
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class SearchCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(kIonflow)) << kIonflow << " not built";
    dir_ = fs::temp_directory_path() / ("ionflow_cli_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream((dir_ / name).string()) << text;
    return (dir_ / name).string();
  }
  fs::path dir_;
};

TEST_F(SearchCommandTest, VersionAndDryRunOfTheDemoJob) {
  CommandRun v = run("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out, std::string("ionflow ") + IONFLOW_VERSION + "\n");

  // Overrides from the command line are checked and show in the effective parameters.
  CommandRun d =
      run("search examples/bsa_demo.json --precursor-tol-ppm 5 --missed-cleavages 2 --zstd "
          "--output-formats tsv,pin --dry-run -q --log-level warn");
  ASSERT_EQ(d.exit_code, 0) << d.out;
  JsonValue effective = parse_json(d.out);
  EXPECT_EQ(to_json(*effective.find("precursor_tol")), R"({"ppm":[-5.0,5.0]})");
  EXPECT_EQ(effective.find("database")->find("enzyme")->find("missed_cleavages")->as_integer(), 2);
  EXPECT_TRUE(effective.find("zstd")->as_bool());
  EXPECT_EQ(to_json(*effective.find("output_formats")), R"(["tsv","pin"])");
  EXPECT_EQ(effective.find("database")->find("decoy_tag")->as_string(), "_rev");
}

TEST_F(SearchCommandTest, BadJobsExitWithTwoNamingTheKey) {
  std::string bad = write("bad.json", R"({"database": {"enzyme": {"missed_cleavages": "two"}}})");
  CommandRun r = run("search " + bad);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, HasSubstr("database.enzyme.missed_cleavages: expected unsigned integer, got "
                               "string \"two\""));
  CommandRun missing = run("search examples/bsa_demo.json /nonexistent/run.mzML --dry-run");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.out, HasSubstr("mzml_paths[0]: file not found: /nonexistent/run.mzML"));
  CommandRun syntax = run("search " + write("syntax.json", "{\"database\": "));
  EXPECT_EQ(syntax.exit_code, 2);
  EXPECT_THAT(syntax.out, HasSubstr("not valid JSON"));
  CommandRun usage =
      run("search examples/bsa_demo.json --precursor-tol-ppm 5 --precursor-tol-da 1");
  EXPECT_NE(usage.exit_code, 0);
  // A flag's value is checked as the key it sets, with the same message as in the file.
  CommandRun flag = run("search examples/bsa_demo.json --missed-cleavages two --dry-run");
  EXPECT_EQ(flag.exit_code, 2);
  EXPECT_THAT(flag.out, HasSubstr("database.enzyme.missed_cleavages: expected unsigned integer, "
                                  "got string \"two\""));
  CommandRun real = run("search examples/bsa_demo.json --scorers 1.5 --dry-run");
  EXPECT_EQ(real.exit_code, 2);
  EXPECT_THAT(real.out, HasSubstr("scorers: expected unsigned integer, got number 1.5"));
}

// An input named like a result in the output directory would be read, then replaced by the
// results: refused before the search, the file untouched.
TEST_F(SearchCommandTest, AnInputTheResultsWouldReplaceIsRefused) {
  fs::create_directories(dir_ / "ovw");
  fs::copy_file(kData + "/BSA1_excerpt.mzML", dir_ / "ovw" / "results.tsv");
  const auto size = fs::file_size(dir_ / "ovw" / "results.tsv");
  CommandRun r = run("search examples/bsa_demo.json " + (dir_ / "ovw" / "results.tsv").string() +
                     " -o " + (dir_ / "ovw").string() + " -q");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, HasSubstr("ionflow search: input " + (dir_ / "ovw" / "results.tsv").string() +
                               " would be replaced by this job's results in "));
  EXPECT_THAT(r.out, HasSubstr("choose another output directory (-o)"));
  EXPECT_EQ(fs::file_size(dir_ / "ovw" / "results.tsv"), size);
  // A stale format's file is removed by a job too (results.pin.zst of an earlier run).
  fs::copy_file(kData + "/BSA1_excerpt.mzML", dir_ / "ovw" / "results.pin.zst");
  EXPECT_EQ(run("search examples/bsa_demo.json " + (dir_ / "ovw" / "results.pin.zst").string() +
                " -o " + (dir_ / "ovw").string() + " --dry-run")
                .exit_code,
            2);
  // The same file in another directory, or named otherwise, is an input like any other.
  CommandRun dry = run("search examples/bsa_demo.json " + (dir_ / "ovw" / "results.tsv").string() +
                       " -o " + (dir_ / "elsewhere").string() + " --dry-run");
  EXPECT_EQ(dry.exit_code, 0) << dry.out;
  fs::copy_file(kData + "/BSA1_excerpt.mzML", dir_ / "ovw" / "results.mzML");
  CommandRun other =
      run("search examples/bsa_demo.json " + (dir_ / "ovw" / "results.mzML").string() + " -o " +
          (dir_ / "ovw").string() + " --dry-run");
  EXPECT_EQ(other.exit_code, 0) << other.out;
}

// A job error reads as the error, without the internal job id ("job local: ...").
TEST_F(SearchCommandTest, JobErrorsCarryNoJobId) {
  // /proc exists but takes no new files, not even from root.
  CommandRun r = run("search examples/bsa_demo.json " + kData + "/BSA1_excerpt.mzML -o /proc -q");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, StartsWith("ionflow search: job failed: output directory /proc is not "
                                "writable: "));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("local")));
}

// An out-of-range --chunk-size names the option, what it counts and the job key's range.
TEST_F(SearchCommandTest, ChunkSizeOutOfRangeNamesTheOptionAndTheRange) {
  for (const std::string value : {"-5", "0", "1000001", "5x"}) {
    CommandRun r = run("search examples/bsa_demo.json --chunk-size " + value + " --dry-run");
    EXPECT_EQ(r.exit_code, 2) << value;
    EXPECT_THAT(r.out, StartsWith("--chunk-size: queries per chunk (chunk_size) must be an "
                                  "integer in 1..1000000, got " +
                                  value + "\n"));
  }
  CommandRun ok = run("search examples/bsa_demo.json --chunk-size 7 --dry-run -q");
  ASSERT_EQ(ok.exit_code, 0) << ok.out;
  EXPECT_EQ(parse_json(ok.out).find("chunk_size")->as_integer(), 7);
}

TEST_F(SearchCommandTest, SearchesAndPrintsTheSummary) {
  std::string job = write("job.json", R"({"database": {"fasta": ")" + kData +
                                          R"j(/bsa_target_decoy_excerpt.fasta"},
      "fixed_modifications": ["Carbamidomethyl (C)"], "chimera": false})j");
  CommandRun r = run("search " + job + " " + kData + "/BSA1_excerpt.mzML -o " +
                     (dir_ / "out").string() + " --scorers 1");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("chimera: Sage setting not implemented by ionflow"));
  EXPECT_THAT(r.out, HasSubstr("progress: "));  // stderr is a pipe: plain lines
  EXPECT_THAT(r.out, HasSubstr("spectra read                5\n"));
  EXPECT_THAT(r.out, HasSubstr("(MS level 1: 1)"));
  EXPECT_THAT(r.out, HasSubstr("peak memory"));
  EXPECT_TRUE(fs::exists(dir_ / "out" / "results.tsv"));
  JsonValue results = parse_json([&] {
    std::ifstream in(dir_ / "out" / "results.json");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }());
  EXPECT_EQ(results.find("summary")->find("spectra_read")->as_integer(), 5);
  EXPECT_EQ(results.find("parameters")->find("mzml_paths")->as_array()[0].as_string(),
            kData + "/BSA1_excerpt.mzML");
}

// examples/orbitrap_hcd.json, the README's high-resolution template, on the development set's
// Orbitrap Velos HCD run (skipped where ../shared/data is absent): its settings as written, and
// the PSMs they find (measured 2026-12-06: 65 at 1% FDR of 118 spectra; MetaMorpheus 65).
TEST_F(SearchCommandTest, TheOrbitrapExampleSearchesTheYeastRun) {
  CommandRun d = run("search examples/orbitrap_hcd.json " + kData + "/BSA1_excerpt.mzML --fasta " +
                     kData + "/bsa_target_decoy_excerpt.fasta --dry-run -q");
  ASSERT_EQ(d.exit_code, 0) << d.out;
  JsonValue effective = parse_json(d.out);
  EXPECT_EQ(to_json(*effective.find("precursor_tol")), R"({"ppm":[-10.0,10.0]})");
  EXPECT_EQ(to_json(*effective.find("fragment_tol")), R"({"da":[-0.02,0.02]})");
  EXPECT_TRUE(effective.find("database")->find("generate_decoys")->as_bool());

  REQUIRE_YEAST_RUN();
  const std::string yeast = yeast_run::directory();
  CommandRun r =
      run("search examples/orbitrap_hcd.json " + yeast + "/SmallCalibratible_Yeast.mzML --fasta " +
          yeast + "/SmallYeast.fasta -o " + (dir_ / "out").string() + " -q");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  JsonValue results = parse_json([&] {
    std::ifstream in(dir_ / "out" / "results.json");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }());
  EXPECT_EQ(results.find("summary")->find("spectra_read")->as_integer(), 142);
  EXPECT_EQ(results.find("summary")->find("psms_at_1pct_fdr")->as_integer(), 65);
}

TEST(SetJobKey, CreatesObjectsAndRejectsNonObjects) {
  JsonValue m = parse_json(R"({"database": {"fasta": "a.fasta"}, "zstd": true})");
  set_job_key(m, "database.enzyme.missed_cleavages", JsonValue(2));
  set_job_key(m, "zstd", JsonValue(false));
  EXPECT_EQ(to_json(m),
            R"({"database":{"fasta":"a.fasta","enzyme":{"missed_cleavages":2}},"zstd":false})");
  try {
    set_job_key(m, "zstd.level", JsonValue(3));
    FAIL();
  } catch (const JobMessageError& e) {
    EXPECT_EQ(e.key_path(), "zstd");
  }
}

}  // namespace
}  // namespace ionflow
