// The reader: the job's one sequential pass over its spectra files (io/block_reader.hpp), as
// ByteBlocks to the parsers, at most JobSpec::max_blocks_in_flight unacknowledged. When every
// block is acknowledged it collects the parsers' StageReports (InputDone), sends the merged
// report to the writer and InputDone to the sorter (see pipeline.hpp).
#include <caf/all.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "actors/pipeline.hpp"
#include "io/block_reader.hpp"
#include "io/peak_list_parser.hpp"
#include "messages/registration.hpp"

namespace ionflow {
namespace {

struct ReaderState {
  static inline const char* name = "ionflow.reader";
  JobPtr ctx;
  std::vector<caf::actor> parsers;
  caf::actor sorter, writer, coordinator;
  std::unique_ptr<BlockReader> blocks;
  uint32_t in_flight = 0;
  bool done_reading = false;
  bool finishing = false;
  bool failed = false;
  StageStats stats;
  StageReport report;
  size_t parser_reports = 0;
};

using ReaderActor = caf::stateful_actor<ReaderState>;

void reader_fail(ReaderActor* self, const std::string& message) {
  auto& st = self->state;
  if (st.failed) return;
  st.failed = true;
  report_failure(st.coordinator, *st.ctx, message);
}

void reader_finish(ReaderActor* self) {
  auto& st = self->state;
  st.finishing = true;
  // Each parser answers InputDone with its counts; only then are all queries in the sorter.
  for (const caf::actor& parser : st.parsers) {
    self->request(parser, kBlockTimeout, InputDone{st.ctx->key})
        .then(
            [self](StageReport& parser_report) {
              auto& st = self->state;
              merge_stage_report(st.report, parser_report);
              if (++st.parser_reports < st.parsers.size()) return;
              st.report.from = Stage::kReader;
              st.report.stages[stage_name(Stage::kReader)] = st.stats;
              st.report.input_sha256 = st.blocks->sha256();
              for (std::string& warning : identical_spectra_file_warnings(
                       st.ctx->spec.spectra_paths, st.report.input_sha256,
                       st.report.decompressed_sha256)) {
                st.report.warnings.push_back(std::move(warning));
              }
              self->send(st.writer, std::move(st.report));
              self->send(st.sorter, InputDone{st.ctx->key});
            },
            [self](caf::error& err) {
              reader_fail(self, "parser did not finish: " + self->system().render(err));
            });
  }
}

void reader_pump(ReaderActor* self) {
  auto& st = self->state;
  const JobSpec& spec = st.ctx->spec;
  while (!st.failed && !st.done_reading &&
         st.in_flight < std::max<uint32_t>(1, spec.max_blocks_in_flight)) {
    if (st.ctx->aborted || st.ctx->cancel_requested()) return;
    BusyTimer timer;
    FileBlock read;
    try {
      if (!st.blocks->next(read)) {
        st.done_reading = true;
        break;
      }
    } catch (const std::exception& e) {
      reader_fail(self, e.what());
      return;
    }
    st.stats.items = st.blocks->blocks_read();
    st.stats.bytes = st.blocks->bytes_read();
    note_busy(st.stats, *st.ctx, timer);
    uint64_t read_so_far = st.stats.bytes;
    st.ctx->update_progress([read_so_far](JobProgress& p) { p.bytes_read = read_so_far; });
    ByteBlock block{st.ctx->key, read.file_index, read.offset, std::move(read.bytes), read.last};

    ++st.in_flight;
    const caf::actor& parser = st.parsers[block.file_index % st.parsers.size()];
    self->request(parser, kBlockTimeout, std::move(block))
        .then(
            [self](BlockAck& ack) {
              auto& st = self->state;
              --st.in_flight;
              if (!ack.ok) {
                st.failed = true;  // the parser reported the failure itself
                return;
              }
              reader_pump(self);
            },
            [self](caf::error& err) {
              --self->state.in_flight;
              reader_fail(self, "parser failed: " + self->system().render(err));
            });
  }
  if (st.done_reading && st.in_flight == 0 && !st.finishing && !st.failed) reader_finish(self);
}

caf::behavior reader_actor(ReaderActor* self, JobPtr ctx, std::vector<caf::actor> parsers,
                           caf::actor sorter, caf::actor writer, caf::actor coordinator) {
  auto& st = self->state;
  st.ctx = std::move(ctx);
  st.parsers = std::move(parsers);
  st.sorter = std::move(sorter);
  st.writer = std::move(writer);
  st.coordinator = std::move(coordinator);
  st.blocks =
      std::make_unique<BlockReader>(st.ctx->spec.spectra_paths, st.ctx->spec.block_size_bytes);
  const uint64_t total = total_file_bytes(st.ctx->spec.spectra_paths);
  st.ctx->update_progress(
      [total](JobProgress& p) {
        p.stage = "reading";
        p.bytes_total = total;
      },
      true);
  reader_pump(self);
  return {[](InputDone&) {}};  // never sent; the reader is driven by its request replies
}

}  // namespace

caf::actor spawn_reader(caf::actor_system& sys, JobPtr ctx, std::vector<caf::actor> parsers,
                        caf::actor sorter, caf::actor writer, caf::actor coordinator) {
  return sys.spawn<caf::detached>(reader_actor, std::move(ctx), std::move(parsers),
                                  std::move(sorter), std::move(writer), std::move(coordinator));
}

}  // namespace ionflow
