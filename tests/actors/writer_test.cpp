// The writer stage (actors/writer.cpp) against a stand-in coordinator: once every chunk and the
// reports of database, reader, sorter and splitter are in, it writes results.tsv and
// results.json and sends the JobSummary assembled from the reports.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "actors_test_support.hpp"
#include "stage_test_support.hpp"

namespace ionflow {
namespace {

namespace fs = std::filesystem;

class WriterStage : public actors_test::StageTest {};

StageReport report_from(Stage from) {
  StageReport r;
  r.job = 7;
  r.from = from;
  r.stages[stage_name(from)].items = 1;
  return r;
}

TEST_F(WriterStage, WritesTheResultsOnceEveryReportAndChunkIsIn) {
  const fs::path out = actors_test::scratch_directory("actors", "writer-stage");
  fs::create_directories(out);
  JobSpec spec;
  spec.id = "writer-stage";
  spec.spectra_paths = {"run.mgf"};
  spec.fasta_path = "db.fasta";
  spec.output_directory = out.string();
  caf::actor writer = keep(spawn_writer(sys, context(spec), me()));
  StageReport database = report_from(Stage::kDatabase);
  database.peptides_in_index = 42;
  database.input_sha256["db.fasta"] = "ab";
  StageReport reader = report_from(Stage::kReader);
  reader.spectra_read = 5;
  reader.warnings = {"b", "a"};
  self->send(writer, database);
  self->send(writer, reader);
  self->send(writer, report_from(Stage::kSorter));
  self->send(writer, PsmBatch{kJob, 0, {}, 3, 0.0, ""});
  self->send(writer, ChunksDone{kJob, 1});
  EXPECT_FALSE(fs::exists(out / "results.json"));  // the splitter's report is missing
  self->send(writer, report_from(Stage::kSplitter));
  JobSummary summary;
  self->receive([&](JobSummary& s) { summary = std::move(s); },
                [&](JobFailure& f) { FAIL() << f.message; },
                caf::after(kWait) >> [] { FAIL() << "no summary"; });
  EXPECT_EQ(summary.peptides_in_index, 42u);
  EXPECT_EQ(summary.spectra_read, 5u);
  EXPECT_EQ(summary.psms, 0u);
  EXPECT_EQ(summary.warnings, (std::vector<std::string>{"a", "b"}));  // sorted
  EXPECT_EQ(summary.input_sha256.at("db.fasta"), "ab");
  for (const char* stage : {"database", "reader", "sorter", "splitter", "writer"}) {
    EXPECT_EQ(summary.stages.count(stage), 1u) << stage;
  }
  EXPECT_EQ(summary.output_files, (std::vector<std::string>{(out / "results.tsv").string(),
                                                            (out / "results.json").string()}));
  const std::string tsv = actors_test::read_file(out / "results.tsv");
  EXPECT_EQ(tsv.substr(0, 7), "psm_id\t");
  EXPECT_EQ(std::count(tsv.begin(), tsv.end(), '\n'), 1);  // the header alone
  EXPECT_TRUE(fs::exists(out / "results.json"));
  fs::remove_all(out);
}

}  // namespace
}  // namespace ionflow
