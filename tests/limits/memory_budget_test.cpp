// --max-memory (issue 20): sizes parse as stated, the default follows the machine, and a
// semi-enzymatic search with 3 missed cleavages and four variable modifications on the E. coli
// database stops in seconds with the estimate, the budget and the settings named — through
// `ionflow search` and `ionflow serve` — while a job that fits the budget runs to the end.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>

#include "../e2e/e2e_support.hpp"
#include "../service/serve_support.hpp"
#include "service/memory_budget.hpp"

namespace ionflow {
namespace {

using Clock = std::chrono::steady_clock;
namespace st = serve_test;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(MemoryBudget, SizesParseWithBinaryUnits) {
  EXPECT_EQ(parse_memory_size("8G"), 8ull << 30);
  EXPECT_EQ(parse_memory_size("512M"), 512ull << 20);
  EXPECT_EQ(parse_memory_size("2GiB"), 2ull << 30);
  EXPECT_EQ(parse_memory_size("1.5g"), 3ull << 29);
  EXPECT_EQ(parse_memory_size("64k"), 64ull << 10);
  EXPECT_EQ(parse_memory_size("1048576"), 1ull << 20);
  try {
    parse_memory_size("lots");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "expected a memory size such as 8G, 512M or 1073741824 (bytes), got \"lots\"");
  }
  EXPECT_THROW(parse_memory_size("0"), std::invalid_argument);
  EXPECT_THROW(parse_memory_size("5X"), std::invalid_argument);
}

TEST(MemoryBudget, DefaultIsThreeQuartersOfTheAvailableMemoryPerJob) {
  const uint64_t available = available_memory_bytes();
  ASSERT_GT(available, 0u) << "neither /proc/meminfo nor a cgroup limit could be read";
  // Memory moves between the calls (other processes): compare within 64 MiB.
  const double expected = static_cast<double>(available) / 4 * 3;
  EXPECT_NEAR(static_cast<double>(default_max_memory_bytes(1)), expected, 64.0 * (1 << 20));
  EXPECT_NEAR(static_cast<double>(default_max_memory_bytes(2)), expected / 2, 64.0 * (1 << 20));
}

const std::string kEcoliFasta =
    e2e::kExamplesDir +
    "/TOPPAS/data/Identification/target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta";
const std::string kEcoliMzml = e2e::kExamplesDir + "/ID/Ecoli_MS2_small.mzML";

// The demo job made combinatorial: semi-enzymatic, 3 missed cleavages, four variable
// modifications (Oxidation M, Phospho STY, Deamidated NQ, Acetyl N-term), up to 3 per peptide.
std::string combinatorial(const std::string& mzml, const std::string& fasta) {
  return R"j({"database": {"fasta": ")j" + fasta + R"j(",
    "enzyme": {"missed_cleavages": 3, "min_len": 7, "max_len": 50, "semi_enzymatic": true},
    "peptide_min_mass": 500.0, "peptide_max_mass": 5000.0, "max_variable_mods": 3,
    "decoy_tag": "rev_", "generate_decoys": false},
  "enzyme": "trypsin",
  "fixed_modifications": ["Carbamidomethyl (C)"],
  "variable_modifications": ["Oxidation (M)", "Phospho (S)", "Phospho (T)", "Phospho (Y)",
                             "Deamidated (N)", "Deamidated (Q)", "Acetyl (N-term)"],
  "precursor_tol": {"ppm": [-10, 10]}, "fragment_tol": {"da": [-0.5, 0.5]},
  "mzml_paths": [")j" +
         mzml + R"j("], "output_formats": ["tsv"]})j";
}

TEST(MemoryBudget, SearchRefusesACombinatorialJobInSecondsNamingTheSettings) {
  ASSERT_NO_FATAL_FAILURE(e2e::require_file(e2e::kIonflow));
  ASSERT_NO_FATAL_FAILURE(e2e::require_file(kEcoliFasta));
  e2e::TempDir dir;
  const std::string job = dir / "combinatorial.json";
  std::ofstream(job) << combinatorial(kEcoliMzml, kEcoliFasta);
  const auto start = Clock::now();
  auto run = e2e::run_ionflow({"search", job, "-o", dir / "out", "-q", "--max-memory", "1G"}, dir);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_TRUE(contains(run.err, "the peptide index would need about ")) << run.err;
  EXPECT_TRUE(
      contains(run.err, "more than the memory budget of 1.0 GiB (--max-memory); settings: "))
      << run.err;
  EXPECT_TRUE(contains(run.err,
                       "database.enzyme.semi_enzymatic true, "
                       "database.enzyme.missed_cleavages 3, database.enzyme.min_len 7, "
                       "database.enzyme.max_len 50, database.max_variable_mods 3 with 7 "
                       "variable modification(s)"))
      << run.err;
  EXPECT_LT(seconds, 30) << "the refusal must come before the build, not after it";
  EXPECT_EQ(e2e::list_directory(dir / "out").size(), 0u);
}

TEST(MemoryBudget, AJobThatFitsTheBudgetRuns) {
  ASSERT_NO_FATAL_FAILURE(e2e::require_file(e2e::kIonflow));
  e2e::TempDir dir;
  auto run = e2e::run_ionflow({"search", e2e::kSourceDir + "/examples/bsa_demo.json",
                               e2e::kTestDataDir + "/BSA1_excerpt.mzML", "-f",
                               e2e::kTestDataDir + "/bsa_target_decoy_excerpt.fasta", "-o",
                               dir / "out", "-q", "--max-memory", "1G"},
                              dir);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(e2e::file_exists(dir / "out/results.tsv"));
}

TEST(MemoryBudget, ServeFailsTheCombinatorialJobAndRunsTheNext) {
  ASSERT_TRUE(st::fs::exists(st::kIonflow));
  st::ServeTestDir dir("memory_budget");
  st::ServeProcess server(dir.path(), {"--scorers", "1", "--max-memory", "1G"});
  ASSERT_GT(server.start(), 0) << server.log();
  auto client = server.client();
  const std::string id = st::submit(*client, combinatorial(kEcoliMzml, kEcoliFasta));
  ASSERT_FALSE(id.empty());
  EXPECT_EQ(
      st::wait_for_state(*client, id, {"done", "failed", "cancelled"}, std::chrono::seconds(60)),
      "failed");
  auto res = client->Get(("/v1/jobs/" + id).c_str());
  ASSERT_TRUE(res);
  const std::string error = parse_json(res->body).find("error")->as_string();
  EXPECT_TRUE(contains(error, "more than the memory budget of 1.0 GiB (--max-memory)")) << error;
  const std::string next = st::submit(*client, st::small_job());
  ASSERT_FALSE(next.empty());
  EXPECT_EQ(st::wait_for_end(*client, next), "done");
}

}  // namespace
}  // namespace ionflow
