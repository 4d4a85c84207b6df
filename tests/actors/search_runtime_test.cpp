// SearchRuntime end to end on real data: the openms-doc E. coli example (Ecoli_MS2_small.mzML,
// 139 spectra) against the E. coli K12 target-decoy FASTA (decoys prefixed "rev_"), plus the
// committed excerpts in tests/data. Results must be byte-identical whatever the number of
// scorers, parsers, chunk size, sorter budget or scorer resizing during the job.
#include "actors/search_runtime.hpp"
#include "actors_test_support.hpp"
#include "messages/job_events.hpp"
#include "scoring/chunk_plan.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "io/decompression.hpp"
#include "io/sha256.hpp"

namespace ionflow {
namespace {

namespace fs = std::filesystem;

using actors_test::kEcoliFasta;
using actors_test::kEcoliMzml;
const std::string kTestData = IONFLOW_TEST_DATA_DIR;

using actors_test::read_file;

size_t count_lines(const std::string& s) {
  size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// The search as the E. coli example is usually run: trypsin, 1 missed cleavage, fixed
// Carbamidomethyl (C) (Unimod 4, +57.021464 Da), variable Oxidation (M) (Unimod 35,
// +15.994915 Da), decoys from the FASTA.
SearchParameters ecoli_parameters() {
  SearchParameters p;
  p.database.fixed_modifications.push_back(
      {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true});
  p.database.variable_modifications.push_back(
      {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false});
  p.database.decoy_tag = "rev_";
  p.database.decoy_generation = DecoyGeneration::kNone;
  return p;
}

class SearchRuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("ionflow-runtime-test-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  JobSpec ecoli_job(const std::string& name) {
    JobSpec job;
    job.id = name;
    job.spectra_paths = {kEcoliMzml};
    job.fasta_path = kEcoliFasta;
    job.output_directory = (root_ / name).string();
    job.search = ecoli_parameters();
    job.block_size_bytes = 64 * 1024;  // many blocks: exercises the in-flight bound
    job.max_blocks_in_flight = 3;
    job.effective_parameters_json = "{\"job\": \"" + name + "\"}";
    return job;
  }

  std::string results_tsv(const JobSpec& job) {
    return read_file(job.output_directory + "/results.tsv");
  }

  fs::path root_;
};

// The reference: one scorer, one parser, chunk size 1000 (computed once per test binary).
struct Reference {
  JobSummary summary;
  std::string tsv;
};

const Reference& reference() {
  static Reference ref = [] {
    Reference r;
    fs::path dir =
        fs::temp_directory_path() / ("ionflow-runtime-ref-" + std::to_string(::getpid()));
    SearchRuntime runtime({1, 1, 2, "", {}});
    JobSpec job;
    job.id = "reference";
    job.spectra_paths = {kEcoliMzml};
    job.fasta_path = kEcoliFasta;
    job.output_directory = dir.string();
    job.search = ecoli_parameters();
    job.parsers = 1;
    job.chunk_size = 1000;
    r.summary = runtime.run(job);
    r.tsv = read_file((dir / "results.tsv").string());
    fs::remove_all(dir);
    return r;
  }();
  return ref;
}

TEST_F(SearchRuntimeTest, EcoliReferenceCountsAndChecksums) {
  const Reference& ref = reference();
  const JobSummary& s = ref.summary;
  EXPECT_EQ(s.spectra_read, 139u);
  EXPECT_GT(s.spectra_searched, 100u);
  EXPECT_GE(s.queries, s.spectra_searched);
  EXPECT_GT(s.psms, 100u);
  EXPECT_GT(s.psms_at_1pct, 10u);
  // A 10 ppm search indexes only its windows' peptides and the null pool
  // (scoring/precursor_selection.hpp): ~40,000 of the E. coli database's forms.
  EXPECT_GT(s.peptides_in_index, 10000u);
  EXPECT_LT(s.peptides_in_index, 100000u);
  EXPECT_NE(s.index_scope.find("selected: the peptides within the 139 queries' precursor windows"),
            std::string::npos)
      << s.index_scope;
  // The E. coli run's precursor errors (+4.1 ppm, perf/ident) are learned; 139 spectra are far
  // too few to rescore.
  EXPECT_EQ(s.precursor_calibration.rfind("applied: errors +4.", 0), 0u) << s.precursor_calibration;
  EXPECT_EQ(s.rescoring.rfind("not applied: ", 0), 0u) << s.rescoring;
  EXPECT_NE(s.rescoring.find("fewer than 1000 (small runs overfit)"), std::string::npos)
      << s.rescoring;
  EXPECT_EQ(count_lines(ref.tsv), s.psms + 1);  // header + one line per PSM
  EXPECT_EQ(s.input_sha256.at(kEcoliMzml), sha256_hex(read_file(kEcoliMzml)));
  EXPECT_EQ(s.input_sha256.at(kEcoliFasta), sha256_hex(read_file(kEcoliFasta)));
  for (const char* stage :
       {"database", "reader", "parser", "sorter", "splitter", "scorer", "writer"}) {
    EXPECT_TRUE(s.stages.count(stage)) << stage;
  }
  EXPECT_EQ(s.stages.at("reader").bytes, fs::file_size(kEcoliMzml));
  EXPECT_EQ(s.stages.at("parser").items, 139u);
  EXPECT_EQ(s.stages.at("sorter").items, s.queries);
  EXPECT_EQ(s.stages.at("scorer").items, s.queries);
  // 139 queries on 1 scorer: the sorter's chunk plan (scoring/chunk_plan.hpp) from these
  // queries' estimated costs, half of the cost, then floor-sized chunks: 3, not 1 of 139.
  EXPECT_EQ(s.stages.at("splitter").items, 3u);
  // Activity intervals: every stage ran inside the job's wall time; scoring starts only once
  // the index is built, and only after every spectrum was read (the sorter needs them all), so
  // reading and scoring never overlap.
  for (const auto& [name, st] : s.stages) {
    EXPECT_GE(st.first_active_seconds, 0.0) << name;
    EXPECT_LE(st.first_active_seconds, st.last_active_seconds) << name;
    EXPECT_LE(st.last_active_seconds, s.wall_seconds + 0.01) << name;
  }
  EXPECT_GE(s.stages.at("scorer").first_active_seconds,
            s.stages.at("database").last_active_seconds);
  EXPECT_GE(s.stages.at("scorer").first_active_seconds, s.stages.at("reader").last_active_seconds);
  EXPECT_EQ(overlap_seconds(s.stages.at("reader"), s.stages.at("scorer")), 0.0);
  EXPECT_GT(s.peak_rss_bytes, 0u);
}

TEST_F(SearchRuntimeTest, ResultsJsonEchoesParametersChecksumsAndSummary) {
  SearchRuntime runtime({2, 2, 2, "", {}});
  JobSpec job = ecoli_job("json");
  JobSummary s = runtime.run(job);
  std::string json = read_file(job.output_directory + "/results.json");
  EXPECT_NE(json.find("\"parameters\": {\"job\": \"json\"}"), std::string::npos);
  EXPECT_NE(json.find(sha256_hex(read_file(kEcoliMzml))), std::string::npos);
  EXPECT_NE(json.find("\"psms\": " + std::to_string(s.psms)), std::string::npos);
  EXPECT_NE(json.find("\"spectra_read\": 139"), std::string::npos);
  ASSERT_EQ(s.output_files.size(), 2u);
  EXPECT_EQ(fs::path(s.output_files[0]).filename(), "results.tsv");
  EXPECT_EQ(fs::path(s.output_files[1]).filename(), "results.json");
  EXPECT_EQ(results_tsv(job), reference().tsv);
  for (const auto& entry : fs::directory_iterator(job.output_directory)) {
    EXPECT_EQ(entry.path().extension() == ".tmp", false) << entry.path();
  }
}

TEST_F(SearchRuntimeTest, FourScorersAndChunkSizes1And7And1000GiveIdenticalResults) {
  SearchRuntime runtime({4, 4, 2, "", {}});
  EXPECT_EQ(runtime.scorer_count(), 4);
  for (uint32_t chunk : {1u, 7u, 1000u}) {
    JobSpec job = ecoli_job("chunk" + std::to_string(chunk));
    job.chunk_size = chunk;
    JobSummary s = runtime.run(job);
    EXPECT_EQ(results_tsv(job), reference().tsv) << "chunk size " << chunk;
    EXPECT_EQ(s.psms, reference().summary.psms);
    EXPECT_EQ(s.psms_at_1pct, reference().summary.psms_at_1pct);
    // Chunk size 1 and 7 bind (the plan's smallest chunks are 32 average queries); 1000 does
    // not, and the plan of these queries' estimated costs for 4 scorers has 5 chunks.
    const uint64_t expected_chunks = chunk == 1000 ? 5u : (s.queries + chunk - 1) / chunk;
    EXPECT_EQ(s.stages.at("splitter").items, expected_chunks) << "chunk size " << chunk;
  }
}

// The whole index (built, then saved to and loaded from the cache) and the selected one give
// the same results to the byte: every query's candidates and null peptides are the same
// peptides in the same order. A narrow job does not use the cache.
TEST_F(SearchRuntimeTest, WholeIndexGivesTheSelectedIndexsResults) {
  SearchRuntime runtime({2, 2, 2, "", {}});
  JobSpec job = ecoli_job("whole-index");
  job.index_cache_directory = (root_ / "cache").string();
  JobSummary s = runtime.run(job);
  EXPECT_EQ(s.index_cache,
            "not used: a narrow-window job indexes only the peptides its queries reach");
  EXPECT_FALSE(fs::exists(root_ / "cache"));
  EXPECT_EQ(results_tsv(job), reference().tsv);
  job.whole_index = true;
  s = runtime.run(job);
  EXPECT_EQ(s.index_cache.rfind("miss (", 0), 0u) << s.index_cache;
  EXPECT_EQ(s.index_scope, "");
  EXPECT_GT(s.peptides_in_index, 10 * reference().summary.peptides_in_index);
  EXPECT_EQ(results_tsv(job), reference().tsv);
  EXPECT_EQ(s.psms_at_1pct, reference().summary.psms_at_1pct);
  s = runtime.run(job);  // from the cache
  EXPECT_EQ(s.index_cache.rfind("hit ", 0), 0u) << s.index_cache;
  EXPECT_EQ(results_tsv(job), reference().tsv);
  // No practical upper mass (a user's "no limit"): the whole index, the same results.
  JobSpec unbounded = ecoli_job("unbounded-mass");
  unbounded.search.database.peptide_max_mass_da = 2e6;
  s = runtime.run(unbounded);
  EXPECT_EQ(s.index_scope, "");
  EXPECT_EQ(results_tsv(unbounded), reference().tsv);
}

TEST_F(SearchRuntimeTest, OneAndFourParsersOverSeveralFilesGiveIdenticalResults) {
  // mzML, an mzML excerpt, an MGF and the same MGF gzip-compressed.
  std::vector<std::string> files = {kEcoliMzml, kTestData + "/Ecoli_MS2_small_excerpt.mzML",
                                    kTestData + "/ecoli_ms2_small_first5.mgf",
                                    kTestData + "/ecoli_ms2_small_first5.mgf.gz"};
  for (const auto& f : files) ASSERT_TRUE(fs::exists(f)) << f;
  SearchRuntime runtime({2, 2, 2, "", {}});
  std::string first;
  JobSummary first_summary;
  for (int parsers : {1, 4}) {
    JobSpec job = ecoli_job("parsers" + std::to_string(parsers));
    job.spectra_paths = files;
    job.parsers = parsers;
    job.chunk_size = 50;
    JobSummary s = runtime.run(job);
    std::string tsv = results_tsv(job);
    if (parsers == 1) {
      first = tsv;
      first_summary = s;
      EXPECT_EQ(s.input_sha256.size(), 5u);  // 4 spectra files + FASTA
      EXPECT_GT(s.spectra_read, 139u + 5u + 5u);
    } else {
      EXPECT_EQ(tsv, first);
      EXPECT_EQ(s.spectra_read, first_summary.spectra_read);
      EXPECT_EQ(s.queries, first_summary.queries);
      EXPECT_EQ(s.spectra_skipped, first_summary.spectra_skipped);
    }
  }
  // The gzip MGF holds the same spectra as the plain MGF: equal PSM lines for file 2 and 3.
  EXPECT_GT(count_lines(first), count_lines(reference().tsv));
  // ... and says so (a reviewer's catch: X.mgf and X.mgf.gz were searched twice without a word),
  // whichever parsers read the two, in the summary and results.json.
  const std::string data = sha256_hex(read_file(files[2]));
  const std::string warning = "spectra file " + files[3] + " holds the same data as " + files[2] +
                              " once decompressed (SHA-256 " + data.substr(0, 16) +
                              "...): its spectra are searched twice, each competing with itself "
                              "for its q-value";
  EXPECT_EQ(first_summary.warnings, std::vector<std::string>{warning});
  const std::string results = read_file((root_ / "parsers4" / "results.json").string());
  EXPECT_NE(results.find("\"warnings\": [\"" + warning + "\"]"), std::string::npos) << results;
}

TEST_F(SearchRuntimeTest, ResizingScorersDuringAJobGivesIdenticalResults) {
  SearchRuntime runtime({4, 1, 2, "", {}});
  EXPECT_EQ(runtime.licensed_cores(), 4);
  EXPECT_EQ(runtime.scorer_count(), 1);
  JobSpec job = ecoli_job("resize");
  job.chunk_size = 7;
  JobControl control;
  std::vector<int> sizes;
  control.on_progress = [&](const JobProgress& p) {
    if (p.chunks_done >= 2 && sizes.empty()) sizes.push_back(runtime.set_scorer_count(4));
    if (p.chunks_done >= 6 && sizes.size() == 1) sizes.push_back(runtime.set_scorer_count(2));
  };
  JobSummary s = runtime.run(job, &control);
  EXPECT_EQ(sizes, (std::vector<int>{4, 2}));
  EXPECT_EQ(runtime.scorer_count(), 2);
  EXPECT_EQ(results_tsv(job), reference().tsv);
  EXPECT_EQ(s.psms, reference().summary.psms);
  EXPECT_EQ(runtime.set_scorer_count(99), 4);  // capped by the licensed cores
  EXPECT_EQ(runtime.set_scorer_count(0), 1);
}

TEST_F(SearchRuntimeTest, TinySorterBudgetSpillsAndGivesIdenticalResults) {
  SearchRuntime runtime({2, 2, 2, "", {}});
  JobSpec job = ecoli_job("spill");
  job.sorter_memory_budget_bytes = 16 * 1024;
  job.temp_directory = (root_ / "spill-tmp").string();
  JobSummary s = runtime.run(job);
  EXPECT_GT(s.stages.at("sorter").bytes, 0u);  // compressed bytes spilled
  // Each spilled run was scored against its own index (one per sorted run).
  EXPECT_EQ(s.index_scope.rfind("selected per sorted run: ", 0), 0u) << s.index_scope;
  EXPECT_LT(s.peptides_in_index, reference().summary.peptides_in_index);
  EXPECT_EQ(results_tsv(job), reference().tsv);
  EXPECT_TRUE(fs::is_empty(job.temp_directory));  // spill folder removed
}

// Scoring while reading: runs cut whenever the splitter waits (from 8 queries), each indexed on
// its own while the one before is scored, the E. coli run given eight times (1,112 queries) in
// small blocks, one at a time, by one and by four parsers, with one and four scorers: the results
// of one run (every query read first) to the byte, whatever the runs were.
TEST_F(SearchRuntimeTest, RunsCutWhileReadingGiveIdenticalResults) {
  auto job_for = [&](const std::string& name) {
    JobSpec job = ecoli_job(name);
    job.spectra_paths.assign(8, kEcoliMzml);
    job.block_size_bytes = 16 * 1024;
    job.max_blocks_in_flight = 1;
    return job;
  };
  std::string one_run;
  {
    SearchRuntime runtime({2, 2, 2, "", {}});
    JobSpec job = job_for("one-run");
    job.min_run_queries = 1u << 30;
    const JobSummary s = runtime.run(job);
    EXPECT_EQ(s.index_scope.rfind("selected: the peptides within the 1112 queries'", 0), 0u)
        << s.index_scope;
    one_run = results_tsv(job);
  }
  EXPECT_GT(count_lines(one_run), 8 * (count_lines(reference().tsv) - 1));
  for (int scorers : {1, 4}) {
    SearchRuntime runtime({4, scorers, 2, "", {}});
    for (int parsers : {1, 4}) {
      JobSpec job = job_for("runs" + std::to_string(scorers) + std::to_string(parsers));
      job.min_run_queries = 8;
      job.parsers = parsers;
      const JobSummary s = runtime.run(job);
      EXPECT_EQ(results_tsv(job), one_run)
          << scorers << " scorers, " << parsers << " parsers, " << s.index_scope;
      RecordProperty("index_scope_" + std::to_string(scorers) + "_" + std::to_string(parsers),
                     s.index_scope);
    }
  }
}

TEST_F(SearchRuntimeTest, ZstdResultsDecompressToTheSameTsv) {
  SearchRuntime runtime({2, 2, 2, "", {}});
  JobSpec job = ecoli_job("zstd");
  job.zstd = true;
  runtime.run(job);
  EXPECT_FALSE(fs::exists(job.output_directory + "/results.tsv"));
  std::string compressed = read_file(job.output_directory + "/results.tsv.zst");
  Decompressor d("results.tsv.zst");
  std::string plain;
  d.feed(compressed, plain);
  d.finish();
  EXPECT_EQ(d.compression(), Compression::kZstd);
  EXPECT_EQ(plain, reference().tsv);
}

TEST_F(SearchRuntimeTest, MalformedFileEndsWithJobErrorNamingItAndNoResults) {
  // The E. coli mzML with a stray end tag in the middle: not well-formed there. (A file that is
  // only cut short is read up to the cut: see tests/io/reader_agreement_test.cpp.)
  std::string bad = (root_ / "truncated.mzML").string();
  {
    std::string content = read_file(kEcoliMzml);
    content.insert(content.size() / 2, "</oops>");
    std::ofstream(bad, std::ios::binary) << content;
  }
  SearchRuntime runtime({2, 2, 2, "", {}});
  JobSpec job = ecoli_job("malformed");
  job.spectra_paths = {kEcoliMzml, bad};
  job.parsers = 2;
  try {
    runtime.run(job);
    FAIL() << "expected JobError";
  } catch (const JobError& e) {
    EXPECT_NE(std::string(e.what()).find("truncated.mzML"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(job.output_directory + "/results.tsv"));
  EXPECT_FALSE(fs::exists(job.output_directory + "/results.tsv.tmp"));
  EXPECT_FALSE(fs::exists(job.output_directory + "/results.json"));
  // The runtime is still usable afterwards.
  JobSpec good = ecoli_job("after-error");
  runtime.run(good);
  EXPECT_EQ(results_tsv(good), reference().tsv);
}

// A failed re-run into the same directory must not take the previous run's results with it
// (the default output directory is "."): only its own temporary files go.
TEST_F(SearchRuntimeTest, FailedRerunKeepsThePreviousResults) {
  std::string bad = (root_ / "truncated-rerun.mzML").string();
  {
    std::string content = read_file(kEcoliMzml);
    content.insert(content.size() / 2, "</oops>");  // not well-formed from there
    std::ofstream(bad, std::ios::binary) << content;
  }
  SearchRuntime runtime({2, 2, 2, "", {}});
  JobSpec first = ecoli_job("rerun");
  runtime.run(first);
  const std::string tsv = read_file(first.output_directory + "/results.tsv");
  const std::string json = read_file(first.output_directory + "/results.json");
  ASSERT_EQ(tsv, reference().tsv);
  JobSpec again = first;
  again.spectra_paths = {bad};
  EXPECT_THROW(runtime.run(again), JobError);
  EXPECT_EQ(read_file(first.output_directory + "/results.tsv"), tsv);
  EXPECT_EQ(read_file(first.output_directory + "/results.json"), json);
  EXPECT_FALSE(fs::exists(first.output_directory + "/results.tsv.tmp"));
  EXPECT_FALSE(fs::exists(first.output_directory + "/results.json.tmp"));
}

TEST_F(SearchRuntimeTest, MissingFastaAndMissingSpectraAreJobErrors) {
  SearchRuntime runtime({1, 1, 2, "", {}});
  JobSpec job = ecoli_job("missing-fasta");
  job.fasta_path = (root_ / "nope.fasta").string();
  try {
    runtime.run(job);
    FAIL() << "expected JobError";
  } catch (const JobError& e) {
    EXPECT_NE(std::string(e.what()).find("nope.fasta"), std::string::npos) << e.what();
  }
  JobSpec job2 = ecoli_job("missing-spectra");
  job2.spectra_paths = {(root_ / "nope.mzML").string()};
  try {
    runtime.run(job2);
    FAIL() << "expected JobError";
  } catch (const JobError& e) {
    EXPECT_NE(std::string(e.what()).find("nope.mzML"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(job2.output_directory + "/results.tsv"));
}

TEST_F(SearchRuntimeTest, CancelEndsWithJobCancelledAndNoResults) {
  SearchRuntime runtime({1, 1, 2, "", {}});
  JobSpec job = ecoli_job("cancel");
  job.chunk_size = 1;
  job.max_chunks_in_flight = 1;
  JobControl control;
  control.on_progress = [&](const JobProgress& p) {
    if (p.chunks_done >= 3) control.cancel = true;
  };
  EXPECT_THROW(runtime.run(job, &control), JobCancelled);
  EXPECT_FALSE(fs::exists(job.output_directory + "/results.tsv"));
  EXPECT_FALSE(fs::exists(job.output_directory + "/results.json"));
}

// A cancel that comes after the writer has committed the results is too late: the job is done
// and its results stay. The progress callback (called by the writer between its commit and
// its summary) asks for the cancel and holds the writer for 1 s, ten of the coordinator's 100
// ms polls, so that even a loaded machine sees the cancel first; before, the coordinator took
// the job as cancelled and removed the results just committed.
TEST_F(SearchRuntimeTest, CancelAfterTheResultsAreCommittedKeepsThem) {
  SearchRuntime runtime({2, 2, 2, "", {}});
  JobSpec job = ecoli_job("late-cancel");
  JobControl control;
  control.on_progress = [&](const JobProgress& p) {
    if (p.stage == "done" && !control.cancel) {
      control.cancel = true;
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
  };
  const JobSummary summary = runtime.run(job, &control);
  EXPECT_TRUE(control.cancel);
  EXPECT_EQ(summary.psms_at_1pct, reference().summary.psms_at_1pct);
  EXPECT_EQ(results_tsv(job), reference().tsv);
  EXPECT_TRUE(fs::exists(job.output_directory + "/results.json"));
}

TEST_F(SearchRuntimeTest, EverySpectrumSkippedGivesAnEmptyResultWithTheReason) {
  SearchRuntime runtime({1, 1, 2, "", {}});
  JobSpec job = ecoli_job("all-skipped");
  job.search.min_peaks = 100000;  // no spectrum has that many peaks
  JobSummary s = runtime.run(job);
  EXPECT_EQ(s.spectra_read, 139u);
  EXPECT_EQ(s.spectra_skipped.at("too few peaks"), 139u);
  EXPECT_EQ(s.queries, 0u);
  EXPECT_EQ(s.spectra_searched, 0u);
  EXPECT_EQ(s.psms, 0u);
  EXPECT_EQ(s.stages.at("splitter").items, 0u);
  EXPECT_EQ(count_lines(results_tsv(job)), 1u);  // the header only
}

TEST_F(SearchRuntimeTest, TwoJobsAtOnceShareThePool) {
  SearchRuntime runtime({2, 2, 2, "", {}});
  JobSpec a = ecoli_job("concurrent-a");
  JobSpec b = ecoli_job("concurrent-b");
  a.chunk_size = 7;
  b.chunk_size = 13;
  JobSummary sa, sb;
  std::thread t([&] { sb = runtime.run(b); });
  sa = runtime.run(a);
  t.join();
  EXPECT_EQ(results_tsv(a), reference().tsv);
  EXPECT_EQ(results_tsv(b), reference().tsv);
  EXPECT_EQ(sa.psms, sb.psms);
}

}  // namespace
}  // namespace ionflow
