// The writer's PSM path (io/job_psms.hpp): spilled, finalized from facts and merged back, the
// job's results must be exactly those of the in-RAM path (finalize_psms on a vector + the vector
// writers), for real BSA1 PSMs; and a BSA1 job through the whole pipeline (which spills) still
// reports its known 62 target PSMs at 1% FDR.
#include "io/job_psms.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "actors/search_runtime.hpp"
#include "actors_test_support.hpp"
#include "io/fasta_reader.hpp"
#include "io/result_writer.hpp"
#include "io/spectrum_reader.hpp"
#include "scoring/search.hpp"

namespace ionflow {
namespace {

namespace fs = std::filesystem;
using actors_test::read_file;
using actors_test::scratch_directory;

const std::string kExamples = IONFLOW_EXAMPLES_DIR;
const std::string kBsaMzml = kExamples + "/BSA/BSA1.mzML";
const std::string kBsaFasta =
    kExamples +
    "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta";

// examples/bsa_demo.json: trypsin, 1 missed cleavage, fixed Carbamidomethyl C (UNIMOD:4,
// +57.021464 Da), variable Oxidation M (UNIMOD:35, +15.994915 Da), decoys "_rev" from the FASTA,
// ±10 ppm, isotope errors 0..1, ±0.5 Da, charges 2..4.
SearchParameters bsa_demo_parameters(int report_psms) {
  SearchParameters p;
  p.database.decoy_tag = "_rev";
  p.database.decoy_tag_is_suffix = true;
  p.database.decoy_generation = DecoyGeneration::kNone;
  p.database.fixed_modifications.push_back(
      {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true});
  p.database.variable_modifications.push_back(
      {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false});
  p.isotope_errors = {0, 1};
  p.min_precursor_charge = 2;
  p.max_precursor_charge = 4;
  p.report_psms = report_psms;
  return p;
}

// BSA1 scored in chunks of 50 queries (sorted by mass as the sorter does), PSMs per chunk.
std::vector<std::vector<Psm>> bsa1_chunks(const SearchParameters& params) {
  std::ifstream fasta_in(kBsaFasta, std::ios::binary);
  std::ostringstream fasta;
  fasta << fasta_in.rdbuf();
  FastaOptions options;
  options.decoy_tag = params.database.decoy_tag;
  options.tag_is_suffix = params.database.decoy_tag_is_suffix;
  auto index = build_peptide_index(parse_fasta(fasta.str(), kBsaFasta, options), params);
  const std::string mzml = read_file(kBsaMzml);
  auto reader = make_spectrum_reader(PeakListFormat::kMzML, kBsaMzml, 0);
  std::vector<RawSpectrum> spectra;
  reader->feed(mzml, spectra);
  reader->finish(spectra);
  std::vector<Query> queries;
  for (const RawSpectrum& s : spectra) {
    for (Query& q : prepare_spectrum(s, params).queries) queries.push_back(std::move(q));
  }
  std::sort(queries.begin(), queries.end(),
            [](const Query& a, const Query& b) { return a.neutral_mass < b.neutral_mass; });
  SpectrumScorer scorer(index, params);
  std::vector<std::vector<Psm>> chunks;
  for (size_t i = 0; i < queries.size(); i += 50) {
    std::vector<Psm> chunk;
    for (size_t k = i; k < std::min(queries.size(), i + 50); ++k) {
      for (Psm& p : scorer.score(queries[k])) chunk.push_back(std::move(p));
    }
    chunks.push_back(std::move(chunk));
  }
  return chunks;
}

class JobPsmsTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    // A parameterised test's name holds a '/' ("Name/0"): as a path that made a nested folder,
    // and TearDown removed only the inner one (an empty folder left in /tmp per run).
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '_');
    dir_ = scratch_directory("job-psms", std::to_string(GetParam()) + "-" + name);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

std::string written(void (*write)(std::ostream&, const PsmSource&, const ResultContext&),
                    const PsmSource& source, const ResultContext& context) {
  std::ostringstream out;
  write(out, source, context);
  return out.str();
}

TEST_P(JobPsmsTest, SpilledResultsEqualTheInMemoryPathForBsa1) {
  const SearchParameters params = bsa_demo_parameters(GetParam());
  const std::vector<std::vector<Psm>> chunks = bsa1_chunks(params);
  ASSERT_GT(chunks.size(), 20u);

  // In RAM: chunks concatenated by seq, finalize_psms, the vector writers.
  std::vector<Psm> all;
  for (const auto& c : chunks) all.insert(all.end(), c.begin(), c.end());
  const std::vector<Psm> expected = finalize_psms(all, params);

  // Spilled: chunks arrive in reverse order, runs of ~16 KiB (many runs to merge).
  JobPsms psms(dir_.string(), 16 * 1024);
  for (size_t seq = chunks.size(); seq-- > 0;) psms.add(seq, chunks[seq]);
  EXPECT_EQ(psms.psms_added(), all.size());
  psms.finalize(params);
  EXPECT_GT(psms.spill().runs(), 5u);
  EXPECT_TRUE(fs::is_empty(dir_));  // the spill file is unlinked
  EXPECT_EQ(psms.final_psms(), expected.size());

  // The counts of the in-RAM facts (finalize_psms' own path; a Psm has no per-protein q for the
  // groups).
  PsmFacts in_ram_facts = facts_of(all);
  finalize_psm_facts(in_ram_facts, params);
  const FdrCounts want = count_at_1pct(in_ram_facts);
  EXPECT_EQ(psms.counts().psms, want.psms);
  EXPECT_EQ(psms.counts().peptides, want.peptides);
  EXPECT_EQ(psms.counts().proteins, want.proteins);
  EXPECT_EQ(psms.counts().protein_groups, want.protein_groups);
  // BSA1 with the demo settings (results.json psms_at_1pct_fdr): 40 with the decoy tail bound
  // (scoring/fdr.hpp), the precursor-error likelihood ratio and the null peptides mass-matched at
  // their N-terminus (scoring/spectrum_scorer.cpp; 45 at the C-terminus, 44 with the ratio's
  // 1 ppm sigma floor, 54 with D/T), without the LDA (926 rank-1 PSMs < 1000); 65 before.
  EXPECT_EQ(want.psms, 40u);

  ResultContext context;
  context.params = &params;
  context.spectra_paths = {kBsaMzml};
  context.fasta_path = kBsaFasta;
  context.software_version = "test";
  context.creation_time = "2026-11-30T08:00:00Z";
  const VectorPsmSource in_ram(expected);
  for (auto write :
       {static_cast<void (*)(std::ostream&, const PsmSource&, const ResultContext&)>(&write_tsv),
        static_cast<void (*)(std::ostream&, const PsmSource&, const ResultContext&)>(&write_pin),
        static_cast<void (*)(std::ostream&, const PsmSource&, const ResultContext&)>(&write_pepxml),
        static_cast<void (*)(std::ostream&, const PsmSource&, const ResultContext&)>(
            &write_mzidentml)}) {
    const std::string a = written(write, in_ram, context);
    const std::string b = written(write, psms.source(), context);
    EXPECT_GT(a.size(), 10000u);
    EXPECT_TRUE(a == b) << "formats differ (sizes " << a.size() << " vs " << b.size() << ")";
  }
}

INSTANTIATE_TEST_SUITE_P(ReportPsms, JobPsmsTest, ::testing::Values(1, 3));

TEST(JobPsms, UnwritableTempDirectoryFailsNamingThePath) {
  const fs::path file = scratch_directory("job-psms", "not-a-directory");
  { std::ofstream(file.string()) << "x"; }
  try {
    JobPsms psms(file.string());
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("PSM spill " + file.string() + "/ionflow-psms-"), std::string::npos)
        << message;
    EXPECT_NE(message.find("Not a directory"), std::string::npos) << message;
  }
  fs::remove(file);
}

TEST(JobPsms, Bsa1JobThroughThePipelineReportsItsKnownCounts) {
  const fs::path dir = scratch_directory("job-psms", "bsa1-job");
  fs::remove_all(dir);
  SearchRuntime runtime({2, 2, 2, "", {}});
  JobSpec job;
  job.id = "bsa1";
  job.spectra_paths = {kBsaMzml};
  job.fasta_path = kBsaFasta;
  job.output_directory = (dir / "out").string();
  job.temp_directory = (dir / "tmp").string();
  job.search = bsa_demo_parameters(1);
  job.chunk_size = 37;  // many batches for the writer
  const JobSummary s = runtime.run(job);
  EXPECT_EQ(s.spectra_read, 1684u);
  EXPECT_EQ(s.psms, 926u);
  // 54 / 24 with D/T (scoring/fdr.hpp: the decoy tail bound), 65 with the LDA rescoring of 925
  // PSMs (now >= 1000 only).
  // 45 / 19 / 5 with the null peptides mass-matched at the C-terminus (scoring/spectrum_scorer.cpp;
  // the 11 proteins: albumin, pig and dog trypsin, O46375 (bovine transthyretin) and a group of
  // seven human keratins, every one a BSA digest's protein or contaminant); 44 / 18 with the
  // precursor ratio's 1 ppm sigma floor.
  EXPECT_EQ(s.psms_at_1pct, 40u);
  EXPECT_EQ(s.peptides_at_1pct, 17u);
  // (12 by the picked protein FDR alone with the C-terminal null, before a protein's q was at
  // least its best peptide's.)
  EXPECT_EQ(s.proteins_at_1pct, 11u);
  // The 11 in 4 protein groups (scoring/protein_groups.hpp): albumin, transthyretin, pig trypsin
  // (dog trypsin's one peptide is pig trypsin's too) and the seven keratins.
  EXPECT_EQ(s.protein_groups_at_1pct, 4u);
  EXPECT_TRUE(fs::is_empty(dir / "tmp"));  // no spill left behind
  const std::string tsv = read_file(dir / "out" / "results.tsv");
  EXPECT_EQ(std::count(tsv.begin(), tsv.end(), '\n'), 927);  // header + 926 PSMs
  fs::remove_all(dir);
}

TEST(JobPsms, AFileAsTempDirectoryFailsTheJobNamingIt) {
  const fs::path dir = scratch_directory("job-psms", "bad-temp");
  fs::remove_all(dir);
  fs::create_directories(dir);
  { std::ofstream((dir / "tmp").string()) << "x"; }
  SearchRuntime runtime({1, 1, 2, "", {}});
  JobSpec job = actors_test::ecoli_job("bad-temp", dir / "out");
  job.temp_directory = (dir / "tmp").string();
  try {
    runtime.run(job);
    FAIL() << "expected a JobError";
  } catch (const JobError& e) {
    EXPECT_NE(std::string(e.what()).find("PSM spill " + (dir / "tmp").string()), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(dir / "out" / "results.tsv"));
  EXPECT_FALSE(fs::exists(dir / "out" / "results.json"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ionflow
