// The splitter: once the index is ready (IndexReady) and the queries sorted (SortedReady), pulls
// the planned chunks from the sorter and sends them to the scorer pool, at most
// max_chunks_in_flight at a time; passes each PsmBatch to the writer, then its StageReport and
// ChunksDone (see pipeline.hpp).
#include <caf/all.hpp>

#include <algorithm>
#include <string>

#include "actors/pipeline.hpp"
#include "messages/registration.hpp"

namespace ionflow {
namespace {

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
  std::map<std::string, ScorerNodeStats> scorer_nodes;  // who scored the chunks
};

using SplitterActor = caf::stateful_actor<SplitterState>;

void splitter_fail(SplitterActor* self, const std::string& message) {
  auto& st = self->state;
  if (!st.failed) report_failure(st.coordinator, *st.ctx, message);
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
  report.from = Stage::kSplitter;
  report.stages[stage_name(Stage::kSplitter)] = st.splitter_stats;
  report.stages[stage_name(Stage::kScorer)] = st.scorer_stats;
  report.scorer_nodes = st.scorer_nodes;
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
            ScorerNodeStats& node =
                st.scorer_nodes[batch.scorer_node.empty() ? "local" : batch.scorer_node];
            ++node.chunks;
            node.queries += batch.queries_scored;
            node.busy_seconds += batch.scorer_busy_seconds;
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

}  // namespace

caf::actor spawn_splitter(caf::actor_system& sys, JobPtr ctx, caf::actor pool, caf::actor writer,
                          caf::actor coordinator) {
  return sys.spawn(splitter_actor, std::move(ctx), std::move(pool), std::move(writer),
                   std::move(coordinator));
}

}  // namespace ionflow
