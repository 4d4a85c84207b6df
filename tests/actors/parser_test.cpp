// The parser stage (actors/parser.cpp) against stand-in neighbours: a block's prepared queries go
// to the sorter before the block is acknowledged; InputDone is answered with the counts; an
// empty file fails the job with the file's name.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "actors_test_support.hpp"
#include "io/spectrum_reader.hpp"
#include "scoring/search.hpp"
#include "stage_test_support.hpp"

namespace ionflow {
namespace {

const std::string kMgf = std::string(IONFLOW_TEST_DATA_DIR) + "/ecoli_ms2_small_first5.mgf";

class ParserStage : public actors_test::StageTest {};

TEST_F(ParserStage, SendsTheBlocksQueriesToTheSorterThenAcknowledges) {
  JobSpec spec;
  spec.spectra_paths = {kMgf};
  const std::string bytes = actors_test::read_file(kMgf);
  size_t want = 0;  // queries of the five spectra prepared one by one
  {
    auto reader = make_spectrum_reader(PeakListFormat::kMgf, kMgf, 0);
    std::vector<RawSpectrum> spectra;
    reader->feed(bytes, spectra);
    reader->finish(spectra);
    for (const RawSpectrum& s : spectra) want += prepare_spectrum(s, spec.search).queries.size();
  }
  ASSERT_GT(want, 0u);
  caf::actor parser = keep(spawn_parser(sys, context(spec), me(), me()));
  self->send(parser, ByteBlock{kJob, 0, 0, bytes, true});
  size_t got = 0;
  self->receive([&](QueryBatch& b) -> uint64_t { return got = b.queries.size(); },
                caf::after(kWait) >> [] { FAIL() << "no queries"; });
  EXPECT_EQ(got, want);
  bool acked = false;
  self->receive([&](BlockAck& ack) { acked = ack.ok; }, caf::after(kWait) >> [] {});
  EXPECT_TRUE(acked);
  self->request(parser, kWait, InputDone{kJob})
      .receive(
          [&](StageReport& r) {
            EXPECT_EQ(r.from, Stage::kParser);
            EXPECT_EQ(r.spectra_read, 5u);
            EXPECT_EQ(r.queries, want);
            EXPECT_EQ(r.stages.at("parser").items, 5u);
            EXPECT_EQ(r.stages.at("parser").bytes, bytes.size());
          },
          [&](caf::error& e) { FAIL() << sys.render(e); });
}

TEST_F(ParserStage, AnEmptyFileFailsTheJobNamingIt) {
  JobSpec spec;
  spec.spectra_paths = {"empty.mgf"};
  caf::actor parser = keep(spawn_parser(sys, context(spec), me(), me()));
  self->send(parser, ByteBlock{kJob, 0, 0, "", true});
  JobFailure failure;
  bool acked = true;
  for (int i = 0; i < 2; ++i) {
    self->receive([&](JobFailure& f) { failure = std::move(f); },
                  [&](BlockAck& ack) { acked = ack.ok; }, caf::after(kWait) >> [] {});
  }
  EXPECT_FALSE(acked);
  EXPECT_EQ(failure.message, "empty.mgf: byte 0: empty file: no mzML, mzXML, MGF or MS2 content");
}

}  // namespace
}  // namespace ionflow
