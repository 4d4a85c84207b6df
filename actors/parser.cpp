// A parser: decompresses, parses and prepares the blocks of the files it is given
// (io/peak_list_parser.hpp) and hands their queries to the sorter; acknowledges each block once
// the sorter took its queries, and answers InputDone with its counts (see pipeline.hpp).
#include <caf/all.hpp>

#include <memory>
#include <string>

#include "actors/pipeline.hpp"
#include "io/peak_list_parser.hpp"
#include "messages/registration.hpp"

namespace ionflow {
namespace {

struct ParserState {
  static inline const char* name = "ionflow.parser";
  JobPtr ctx;
  caf::actor sorter, coordinator;
  std::unique_ptr<PeakListParser> peak_lists;
  StageStats stats;
  bool failed = false;
};

using ParserActor = caf::stateful_actor<ParserState>;

caf::behavior parser_actor(ParserActor* self, JobPtr ctx, caf::actor sorter,
                           caf::actor coordinator) {
  self->state.ctx = std::move(ctx);
  self->state.sorter = std::move(sorter);
  self->state.coordinator = std::move(coordinator);
  self->state.peak_lists = std::make_unique<PeakListParser>(self->state.ctx->spec.spectra_paths,
                                                            self->state.ctx->spec.search);
  return {
      [self](ByteBlock& block) -> caf::result<BlockAck> {
        auto& st = self->state;
        BlockAck ack{block.job, true};
        if (st.failed || st.ctx->aborted) {
          ack.ok = false;
          return ack;
        }
        QueryBatch batch{block.job, {}};
        BusyTimer timer;
        try {
          st.stats.bytes += block.bytes.size();
          const uint64_t spectra =
              st.peak_lists->feed(block.file_index, block.bytes, block.last, batch.queries);
          st.stats.items += spectra;
          if (spectra > 0) {
            st.ctx->update_progress([spectra](JobProgress& p) { p.spectra_read += spectra; });
          }
        } catch (const std::exception& e) {
          st.failed = true;
          report_failure(st.coordinator, *st.ctx,
                         st.peak_lists->failure_message(e, block.file_index, block.offset));
          ack.ok = false;
          return ack;
        }
        note_busy(st.stats, *st.ctx, timer);
        if (batch.queries.empty()) return ack;
        auto rp = self->make_response_promise<BlockAck>();
        self->request(st.sorter, kBlockTimeout, std::move(batch))
            .then([rp, ack](uint64_t) mutable { rp.deliver(ack); },
                  [self, rp, ack](caf::error& err) mutable {
                    auto& st = self->state;
                    report_failure(st.coordinator, *st.ctx,
                                   "sorter failed: " + self->system().render(err));
                    BlockAck failed = ack;
                    failed.ok = false;
                    rp.deliver(failed);
                  });
        return rp;
      },
      [self](InputDone&) -> StageReport {
        auto& st = self->state;
        const ParseTally& tally = st.peak_lists->tally();
        StageReport report;
        report.job = st.ctx->key;
        report.spectra_read = tally.spectra_read;
        report.spectra_searched = tally.spectra_searched;
        report.queries = tally.queries;
        report.spectra_skipped = tally.spectra_skipped;
        report.spectra_skipped_first = tally.spectra_skipped_first;
        report.warnings = tally.warnings;
        report.decompressed_sha256 = tally.decompressed_sha256;
        report.from = Stage::kParser;
        report.stages[stage_name(Stage::kParser)] = st.stats;
        return report;
      },
  };
}

}  // namespace

caf::actor spawn_parser(caf::actor_system& sys, JobPtr ctx, caf::actor sorter,
                        caf::actor coordinator) {
  return sys.spawn<caf::detached>(parser_actor, std::move(ctx), std::move(sorter),
                                  std::move(coordinator));
}

}  // namespace ionflow
