// The per-job actors: reader, parsers, sorter, splitter, writer (see pipeline.hpp). Each actor
// only moves messages and calls io/ or scoring/; all algorithms live there.
#include <sys/stat.h>
#include <caf/all.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "scoring/chunk_plan.hpp"
#include "actors/pipeline.hpp"
#include "io/block_reader.hpp"
#include "io/job_psms.hpp"
#include "io/job_results.hpp"
#include "io/peak_list_parser.hpp"
#include "io/sha256.hpp"
#include "io/sorted_runs.hpp"
#include "io/spectrum_reader.hpp"
#include "messages/registration.hpp"
#include "scoring/search.hpp"

namespace ionflow {
namespace {

using JobPtr = std::shared_ptr<JobContext>;

void report_failure(caf::local_actor*, const caf::actor& coordinator, const JobContext& ctx,
                    const std::string& stage, const std::string& message) {
  caf::anon_send(coordinator, JobFailure{ctx.key, stage, message, false});
}

// --- reader -------------------------------------------------------------------------------------

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
  report_failure(self, st.coordinator, *st.ctx, "reader", message);
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
              st.report.from = "reader";
              st.report.stages["reader"] = st.stats;
              st.report.input_sha256 = st.blocks->sha256();
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

// --- parser -------------------------------------------------------------------------------------

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
        BlockAck ack{block.job, block.file_index, block.offset, true};
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
          report_failure(self, st.coordinator, *st.ctx, "parser",
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
                    report_failure(self, st.coordinator, *st.ctx, "sorter",
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
        report.from = "parser";
        report.stages["parser"] = st.stats;
        return report;
      },
  };
}

// --- sorter -------------------------------------------------------------------------------------

struct SorterState {
  static inline const char* name = "ionflow.sorter";
  JobPtr ctx;
  caf::actor splitter, writer, coordinator;
  std::unique_ptr<SortedRuns> runs;
  std::vector<double> neutral_masses_da;  // of every query, for the coordinator (QueryMasses)
  QueryCosts query_costs;                 // for the chunk plan
  bool finished = false;
  bool reported = false;
  bool failed = false;
  StageStats stats;
};

using SorterActor = caf::stateful_actor<SorterState>;

void sorter_fail(SorterActor* self, const std::exception& e) {
  auto& st = self->state;
  if (!st.failed) report_failure(self, st.coordinator, *st.ctx, "sorter", e.what());
  st.failed = true;
}

caf::behavior sorter_actor(SorterActor* self, JobPtr ctx, caf::actor splitter, caf::actor writer,
                           caf::actor coordinator) {
  auto& st = self->state;
  st.ctx = std::move(ctx);
  st.splitter = std::move(splitter);
  st.writer = std::move(writer);
  st.coordinator = std::move(coordinator);
  const JobSpec& spec = st.ctx->spec;
  st.runs = std::make_unique<SortedRuns>(
      spec.temp_directory.empty() ? spec.output_directory : spec.temp_directory,
      spec.sorter_memory_budget_bytes);
  return {
      [self](QueryBatch& batch) -> uint64_t {
        auto& st = self->state;
        if (st.failed || st.finished) return 0;
        BusyTimer timer;
        try {
          const int max_fragment_charge = st.ctx->spec.search.max_fragment_charge;
          for (Query& q : batch.queries) {
            st.neutral_masses_da.push_back(q.neutral_mass);
            st.query_costs.add(q.neutral_mass, q.charge, max_fragment_charge);
            st.runs->add(std::move(q));
          }
        } catch (const std::exception& e) {
          sorter_fail(self, e);
        }
        note_busy(st.stats, *st.ctx, timer);
        uint64_t held = st.runs->stats().queries;
        st.ctx->update_progress([held](JobProgress& p) { p.queries = held; });
        return held;
      },
      [self](InputDone&) {
        auto& st = self->state;
        if (st.failed || st.finished) return;
        BusyTimer timer;
        try {
          st.runs->finish();
        } catch (const std::exception& e) {
          sorter_fail(self, e);
          return;
        }
        st.finished = true;
        uint64_t total = st.runs->stats().queries;
        // The masses first: the coordinator builds the peptide index from them.
        self->send(st.coordinator, QueryMasses{st.ctx->key, std::move(st.neutral_masses_da)});
        std::vector<uint32_t> plan =
            plan_chunks(st.query_costs.runs(), st.ctx->spec.chunk_size, st.ctx->scorer_count());
        st.query_costs = QueryCosts();
        note_busy(st.stats, *st.ctx, timer);
        // The stage moves on in the splitter, which also knows whether the index is built.
        st.ctx->update_progress([total](JobProgress& p) { p.queries = total; }, true);
        self->send(st.splitter, SortedReady{st.ctx->key, total, std::move(plan)});
      },
      [self](NextQueries& request) -> QueryBatch {
        auto& st = self->state;
        QueryBatch batch{st.ctx->key, {}};
        if (st.failed || !st.finished) return batch;
        BusyTimer timer;
        try {
          batch.queries.reserve(request.max_count);
          st.runs->take(request.max_count, batch.queries);
        } catch (const std::exception& e) {
          sorter_fail(self, e);
          batch.queries.clear();
          return batch;
        }
        note_busy(st.stats, *st.ctx, timer);
        st.stats.items += batch.queries.size();
        if (batch.queries.size() < request.max_count && !st.reported) {
          st.reported = true;
          const SortedRunsStats& rs = st.runs->stats();
          st.stats.bytes = rs.bytes_spilled;
          StageReport report;
          report.job = st.ctx->key;
          report.from = "sorter";
          report.stages["sorter"] = st.stats;
          self->send(st.writer, std::move(report));
          st.runs.reset();  // removes the spill folder now
        }
        return batch;
      },
  };
}

// --- splitter -----------------------------------------------------------------------------------

struct SplitterState {
  static inline const char* name = "ionflow.splitter";
  JobPtr ctx;
  caf::actor pool, writer, coordinator, sorter;
  bool index_ready = false;
  bool sorted_ready = false;
  bool pulling = false;
  bool exhausted = false;
  bool finished = false;
  bool failed = false;
  uint64_t next_seq = 0;
  std::vector<uint32_t> chunk_queries;  // the sorter's chunk plan (SortedReady)
  size_t next_chunk = 0;                // in chunk_queries
  uint32_t in_flight = 0;
  uint64_t chunks_done = 0;
  uint64_t queries_scored = 0;
  StageStats splitter_stats, scorer_stats;
};

using SplitterActor = caf::stateful_actor<SplitterState>;

void splitter_fail(SplitterActor* self, const std::string& message) {
  auto& st = self->state;
  if (!st.failed) report_failure(self, st.coordinator, *st.ctx, "scorer", message);
  st.failed = true;
}

uint32_t max_chunks_in_flight(const SplitterState& st) {
  uint32_t limit = st.ctx->spec.max_chunks_in_flight;
  if (limit == 0) limit = 2 * static_cast<uint32_t>(std::max(1, st.ctx->scorer_count()));
  return limit;
}

void splitter_pump(SplitterActor* self);

void splitter_maybe_finish(SplitterActor* self) {
  auto& st = self->state;
  if (!st.exhausted || st.in_flight > 0 || st.finished || st.failed) return;
  st.finished = true;
  StageReport report;
  report.job = st.ctx->key;
  report.from = "splitter";
  report.stages["splitter"] = st.splitter_stats;
  report.stages["scorer"] = st.scorer_stats;
  self->send(st.writer, std::move(report));
  self->send(st.writer, ChunksDone{st.ctx->key, st.next_seq});
}

void splitter_dispatch(SplitterActor* self, QueryChunk chunk) {
  auto& st = self->state;
  ++st.in_flight;
  uint64_t seq = chunk.seq;
  self->request(st.pool, kPoolTimeout, std::move(chunk))
      .then(
          [self](PsmBatch& batch) {
            auto& st = self->state;
            --st.in_flight;
            if (st.failed) return;
            ++st.chunks_done;
            st.queries_scored += batch.queries_scored;
            st.scorer_stats.busy_seconds += batch.scorer_busy_seconds;
            {
              const double end = st.ctx->elapsed_seconds();  // the chunk's result is back
              note_active(st.scorer_stats, end - batch.scorer_busy_seconds, end);
            }
            st.scorer_stats.items += batch.queries_scored;
            uint64_t done = st.chunks_done, scored = st.queries_scored;
            st.ctx->update_progress([done, scored](JobProgress& p) {
              p.chunks_done = done;
              p.queries_scored = scored;
            });
            self->send(st.writer, std::move(batch));
            splitter_pump(self);
            splitter_maybe_finish(self);
          },
          [self, seq](caf::error& err) {
            --self->state.in_flight;
            splitter_fail(self, "scoring chunk " + std::to_string(seq) +
                                    " failed: " + self->system().render(err));
          });
}

void splitter_pump(SplitterActor* self) {
  auto& st = self->state;
  if (!st.index_ready || !st.sorted_ready || st.pulling || st.exhausted || st.failed) return;
  if (st.ctx->aborted || st.ctx->cancel_requested()) return;
  if (st.in_flight >= max_chunks_in_flight(st)) return;
  st.pulling = true;
  // After the plan, one more request: its empty reply is what ends the sorter (and would
  // catch queries the plan did not count, sent on one by one).
  const uint32_t chunk_size =
      st.next_chunk < st.chunk_queries.size() ? st.chunk_queries[st.next_chunk++] : 1;
  self->request(st.sorter, kSorterTimeout, NextQueries{st.ctx->key, chunk_size})
      .then(
          [self, chunk_size](QueryBatch& batch) {
            auto& st = self->state;
            st.pulling = false;
            if (st.failed) return;
            BusyTimer timer;
            if (batch.queries.size() < chunk_size) st.exhausted = true;
            if (!batch.queries.empty()) {
              st.splitter_stats.items += 1;
              QueryChunk chunk{st.ctx->key, st.next_seq++, std::move(batch.queries)};
              note_busy(st.splitter_stats, *st.ctx, timer);
              splitter_dispatch(self, std::move(chunk));
            }
            splitter_pump(self);
            splitter_maybe_finish(self);
          },
          [self](caf::error& err) {
            self->state.pulling = false;
            splitter_fail(self, "sorter failed: " + self->system().render(err));
          });
}

caf::behavior splitter_actor(SplitterActor* self, JobPtr ctx, caf::actor pool, caf::actor writer,
                             caf::actor coordinator) {
  auto& st = self->state;
  st.ctx = std::move(ctx);
  st.pool = std::move(pool);
  st.writer = std::move(writer);
  st.coordinator = std::move(coordinator);
  return {
      [self](IndexReady&) {
        auto& st = self->state;
        st.index_ready = true;
        if (st.sorted_ready) {
          st.ctx->update_progress([](JobProgress& p) { p.stage = "scoring"; }, true);
        }
        splitter_pump(self);
      },
      [self](SortedReady& sorted) {
        auto& st = self->state;
        st.sorter = caf::actor_cast<caf::actor>(self->current_sender());
        st.sorted_ready = true;
        st.chunk_queries = std::move(sorted.chunk_queries);
        const uint64_t chunks = st.chunk_queries.size();
        // Every query is read: scoring, or still waiting for the peptide (and fragment) index.
        const char* stage = st.index_ready ? "scoring" : "indexing";
        st.ctx->update_progress(
            [chunks, stage](JobProgress& p) {
              p.chunks_total = chunks;
              p.stage = stage;
            },
            true);
        splitter_pump(self);
      },
  };
}

// --- writer -------------------------------------------------------------------------------------
// The job's one sequential write stream. Each PsmBatch is spilled at once (JobPsms: sorted runs in
// a temp file), so the writer's memory does not grow with the number of queries. When every
// chunk is in, the job's peptide index is released, the PSMs are finalized from their facts and
// the result files are written from a merge of the spill (see io/job_psms.hpp).

struct WriterState {
  static inline const char* name = "ionflow.writer";
  JobPtr ctx;
  caf::actor coordinator;
  std::unique_ptr<JobPsms> psms;  // created with the first batch; removes its spill file
  uint64_t batches = 0;           // PsmBatches received
  StageReport report;
  std::vector<std::string> reports_from;
  int64_t chunks_expected = -1;
  bool done = false;
  bool failed = false;
  StageStats stats;
};

using WriterActor = caf::stateful_actor<WriterState>;

bool has_report(const WriterState& st, const char* from) {
  return std::find(st.reports_from.begin(), st.reports_from.end(), from) != st.reports_from.end();
}

void writer_fail(WriterActor* self, const std::string& message) {
  auto& st = self->state;
  st.psms.reset();  // removes the spill file now
  if (st.failed) return;
  st.failed = true;
  report_failure(self, st.coordinator, *st.ctx, "writer", message);
}

JobPsms& writer_psms(WriterState& st) {
  if (!st.psms) st.psms = std::make_unique<JobPsms>(JobPsms::spill_directory(st.ctx->spec));
  return *st.psms;
}

void writer_finish(WriterActor* self) {
  auto& st = self->state;
  const JobSpec& spec = st.ctx->spec;
  st.ctx->update_progress([](JobProgress& p) { p.stage = "writing"; }, true);
  BusyTimer timer;
  try {
    JobPsms& psms = writer_psms(st);
    // Every chunk is scored: nothing needs the peptide index any more. Releasing it first
    // keeps finalizing's memory (the facts, the merge) from adding to the index's.
    st.ctx->release_index();
    // Chunk order (seq) is the sorter's order: deterministic whatever the completion order.
    psms.finalize(spec.search);
    if (st.ctx->aborted || st.ctx->cancel_requested()) return;

    PendingFiles pending;
    write_result_formats(spec, psms.source(), pending);
    if (st.ctx->aborted || st.ctx->cancel_requested()) return;

    JobSummary summary;
    const StageReport& r = st.report;
    summary.spectra_read = r.spectra_read;
    summary.spectra_skipped = r.spectra_skipped;
    summary.spectra_skipped_first = r.spectra_skipped_first;
    summary.spectra_searched = r.spectra_searched;
    summary.queries = r.queries;
    summary.psms = psms.final_psms();
    const FdrCounts fdr = psms.counts();
    summary.psms_at_1pct = fdr.psms;
    summary.peptides_at_1pct = fdr.peptides;
    summary.proteins_at_1pct = fdr.proteins;
    summary.peptides_in_index = r.peptides_in_index;
    summary.index_cache = r.index_cache;
    summary.fragment_index = r.fragment_index;
    summary.index_scope = r.index_scope;
    // One per file, from parsers that report in any order: sorted, results.json is stable.
    summary.warnings = r.warnings;
    std::sort(summary.warnings.begin(), summary.warnings.end());
    summary.stages = r.stages;
    st.stats.items += summary.psms;
    st.stats.bytes += psms.spill().bytes_written();
    st.psms.reset();  // removes the spill file
    note_busy(st.stats, *st.ctx, timer);
    summary.stages["writer"] = st.stats;
    summary.input_sha256 = r.input_sha256;
    for (const std::string& name : result_file_names(spec)) {
      summary.output_files.push_back(
          (std::filesystem::path(spec.output_directory) / name).string());
    }
    summary.wall_seconds = st.ctx->elapsed_seconds();
    summary.peak_rss_bytes = peak_rss_bytes();
    write_results_json(spec, summary, pending);
    try {
      pending.commit();
    } catch (...) {
      st.ctx->note_committed(pending.committed());
      throw;
    }
    st.ctx->note_committed(pending.committed());
    st.ctx->update_progress([](JobProgress& p) { p.stage = "done"; }, true);
    self->send(st.coordinator, std::move(summary));
  } catch (const std::exception& e) {
    writer_fail(self, e.what());
  }
}

void writer_maybe_finish(WriterActor* self) {
  auto& st = self->state;
  if (st.done || st.failed || st.chunks_expected < 0) return;
  if (st.batches != static_cast<uint64_t>(st.chunks_expected)) return;
  for (const char* from : {"database", "reader", "sorter", "splitter"}) {
    if (!has_report(st, from)) return;
  }
  st.done = true;
  writer_finish(self);
}

caf::behavior writer_actor(WriterActor* self, JobPtr ctx, caf::actor coordinator) {
  self->state.ctx = std::move(ctx);
  self->state.coordinator = std::move(coordinator);
  return {
      [self](PsmBatch& batch) {
        auto& st = self->state;
        if (st.failed || st.done) return;
        ++st.batches;
        BusyTimer timer;
        try {
          writer_psms(st).add(batch.seq, batch.psms);
        } catch (const std::exception& e) {
          writer_fail(self, e.what());
          return;
        }
        note_busy(st.stats, *st.ctx, timer);
        writer_maybe_finish(self);
      },
      [self](StageReport& report) {
        auto& st = self->state;
        st.reports_from.push_back(report.from);
        merge_stage_report(st.report, report);
        writer_maybe_finish(self);
      },
      [self](ChunksDone& done) {
        self->state.chunks_expected = static_cast<int64_t>(done.chunks);
        writer_maybe_finish(self);
      },
  };
}

}  // namespace

std::vector<caf::actor> JobActors::all() const {
  std::vector<caf::actor> out{reader};
  out.insert(out.end(), parsers.begin(), parsers.end());
  out.push_back(sorter);
  out.push_back(splitter);
  out.push_back(writer);
  return out;
}

JobActors spawn_job_pipeline(caf::actor_system& sys, std::shared_ptr<JobContext> ctx,
                             caf::actor pool, caf::actor coordinator) {
  JobActors a;
  int parsers = std::clamp(ctx->spec.parsers, 1, 4);
  a.writer = sys.spawn<caf::detached>(writer_actor, ctx, coordinator);
  a.splitter = sys.spawn(splitter_actor, ctx, pool, a.writer, coordinator);
  a.sorter = sys.spawn<caf::detached>(sorter_actor, ctx, a.splitter, a.writer, coordinator);
  for (int i = 0; i < parsers; ++i) {
    a.parsers.push_back(sys.spawn<caf::detached>(parser_actor, ctx, a.sorter, coordinator));
  }
  a.reader =
      sys.spawn<caf::detached>(reader_actor, ctx, a.parsers, a.sorter, a.writer, coordinator);
  return a;
}

}  // namespace ionflow
