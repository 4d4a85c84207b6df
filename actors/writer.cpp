// The writer: the job's one sequential write stream. Each PsmBatch is spilled at once (JobPsms:
// sorted runs in a temp file), so the writer's memory does not grow with the number of queries.
// When every chunk is in, the job's peptide index is released, the PSMs are finalized from their
// facts and the result files are written from a merge of the spill (io/job_psms.hpp,
// io/job_results.hpp).

#include <caf/all.hpp>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "actors/pipeline.hpp"
#include "io/job_psms.hpp"
#include "io/job_results.hpp"
#include "messages/registration.hpp"

namespace ionflow {
namespace {

struct WriterState {
  static inline const char* name = "ionflow.writer";
  JobPtr ctx;
  caf::actor coordinator;
  std::unique_ptr<JobPsms> psms;  // created with the first batch; removes its spill file
  uint64_t batches = 0;           // PsmBatches received
  StageReport report;
  std::vector<Stage> reports_from;
  int64_t chunks_expected = -1;
  bool done = false;
  bool failed = false;
  StageStats stats;
};

using WriterActor = caf::stateful_actor<WriterState>;

bool has_report(const WriterState& st, Stage from) {
  return std::find(st.reports_from.begin(), st.reports_from.end(), from) != st.reports_from.end();
}

void writer_fail(WriterActor* self, const std::string& message) {
  auto& st = self->state;
  st.psms.reset();  // removes the spill file now
  if (st.failed) return;
  st.failed = true;
  report_failure(st.coordinator, *st.ctx, message);
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
    summary.protein_groups_at_1pct = fdr.protein_groups;
    summary.peptides_in_index = r.peptides_in_index;
    summary.index_cache = r.index_cache;
    summary.fragment_index = r.fragment_index;
    summary.index_scope = r.index_scope;
    summary.precursor_calibration = describe(psms.report().precursor_calibration);
    summary.rescoring = describe(psms.report().rescoring);
    // One per file, from parsers that report in any order: sorted, results.json is stable.
    summary.warnings = r.warnings;
    std::sort(summary.warnings.begin(), summary.warnings.end());
    summary.stages = r.stages;
    summary.scorer_nodes = r.scorer_nodes;
    st.stats.items += summary.psms;
    st.stats.bytes += psms.spill().bytes_written();
    st.psms.reset();  // removes the spill file
    note_busy(st.stats, *st.ctx, timer);
    summary.stages[stage_name(Stage::kWriter)] = st.stats;
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
    remove_stale_results(spec);
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
  for (Stage from : {Stage::kDatabase, Stage::kReader, Stage::kSorter, Stage::kSplitter}) {
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

caf::actor spawn_writer(caf::actor_system& sys, JobPtr ctx, caf::actor coordinator) {
  return sys.spawn<caf::detached>(writer_actor, std::move(ctx), std::move(coordinator));
}

}  // namespace ionflow
