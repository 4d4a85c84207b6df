// The reader stage (actors/reader.cpp) against stand-in neighbours: it sends both files' bytes in
// order as blocks to the parser, then InputDone, and the writer gets the merged report with each
// file's SHA-256 while the sorter gets InputDone.
#include <gtest/gtest.h>

#include <string>

#include "actors_test_support.hpp"
#include "io/sha256.hpp"
#include "stage_test_support.hpp"

namespace ionflow {
namespace {

const std::string kMgf = std::string(IONFLOW_TEST_DATA_DIR) + "/ecoli_ms2_small_first5.mgf";
const std::string kMgfGz = kMgf + ".gz";

class ReaderStage : public actors_test::StageTest {};

TEST_F(ReaderStage, SendsEveryFileInBlocksThenReportsAndEndsTheInput) {
  JobSpec spec;
  spec.spectra_paths = {kMgf, kMgfGz};
  spec.block_size_bytes = 4096;
  spec.max_blocks_in_flight = 2;
  caf::scoped_actor downstream{sys};  // the sorter and the writer
  keep(spawn_reader(sys, context(spec), {me()}, caf::actor_cast<caf::actor>(downstream),
                    caf::actor_cast<caf::actor>(downstream), me()));
  std::string bytes[2];
  uint64_t blocks = 0;
  bool input_done = false;
  while (!input_done) {
    self->receive(
        [&](ByteBlock& b) -> BlockAck {
          EXPECT_EQ(b.offset, bytes[b.file_index].size());
          bytes[b.file_index] += b.bytes;
          ++blocks;
          return BlockAck{b.job, true};
        },
        [&](InputDone&) -> StageReport {
          input_done = true;
          StageReport parser;
          parser.from = Stage::kParser;
          parser.spectra_read = 10;
          return parser;
        },
        caf::after(kWait) >> [&] { FAIL() << "no block"; });
  }
  EXPECT_EQ(bytes[0], actors_test::read_file(kMgf));
  EXPECT_EQ(bytes[1], actors_test::read_file(kMgfGz));
  StageReport report;
  downstream->receive([&](StageReport& r) { report = std::move(r); },
                      caf::after(kWait) >> [] { FAIL() << "no report"; });
  EXPECT_EQ(report.from, Stage::kReader);
  EXPECT_EQ(report.spectra_read, 10u);  // the parser's, merged
  EXPECT_EQ(report.stages.at("reader").items, blocks);
  EXPECT_EQ(report.stages.at("reader").bytes, bytes[0].size() + bytes[1].size());
  EXPECT_EQ(report.input_sha256.at(kMgf), sha256_hex(bytes[0]));
  EXPECT_EQ(report.input_sha256.at(kMgfGz), sha256_hex(bytes[1]));
  bool sorter_told = false;
  downstream->receive([&](InputDone& d) { sorter_told = d.job == kJob; },
                      caf::after(kWait) >> [] {});
  EXPECT_TRUE(sorter_told);
}

TEST_F(ReaderStage, AMissingFileFailsTheJobNamingIt) {
  JobSpec spec;
  spec.spectra_paths = {"/nonexistent/run.mzML"};
  keep(spawn_reader(sys, context(spec), {me()}, me(), me(), me()));
  JobFailure failure;
  self->receive([&](JobFailure& f) { failure = std::move(f); },
                caf::after(kWait) >> [] { FAIL() << "no failure"; });
  EXPECT_EQ(failure.job, kJob);
  EXPECT_EQ(failure.message, "/nonexistent/run.mzML: cannot open: No such file or directory");
}

}  // namespace
}  // namespace ionflow
