// The splitter: pulls chunks from the sorter (NextChunk: the sorter answers once a chunk of a run
// whose index is registered is ready) and sends them to the scorer pool, at most
// max_chunks_in_flight at a time; passes each PsmBatch to the writer, releases each part of a
// job indexed per sorted run once its last chunk is back, then sends its StageReport and
// ChunksDone (see pipeline.hpp).
#include <caf/all.hpp>

#include <algorithm>
#include <map>
#include <string>

#include "actors/pipeline.hpp"
#include "messages/registration.hpp"

namespace ionflow {
namespace {

struct SplitterState {
  static inline const char* name = "ionflow.splitter";
  JobPtr ctx;
  caf::actor sorter, pool, writer, coordinator;
  bool pulling = false;
  bool exhausted = false;
  bool finished = false;
  bool failed = false;
  bool scoring = false;  // a chunk was dispatched (progress stage)
  uint64_t next_seq = 0;
  uint32_t in_flight = 0;
  std::map<uint32_t, uint32_t> part_in_flight;  // index part -> chunks at the pool
  uint32_t current_part = 0;                    // of the last chunk from the sorter
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

// Releases the parts before the current one that have no chunk at the pool: the sorter serves
// the parts in order, so none of their chunks will come again.
void splitter_release_parts(SplitterState& st) {
  for (auto it = st.part_in_flight.begin(); it != st.part_in_flight.end();) {
    if (it->first < st.current_part && it->second == 0) {
      st.ctx->release_index_part(it->first);
      it = st.part_in_flight.erase(it);
    } else {
      ++it;
    }
  }
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
  ++st.part_in_flight[chunk.part];
  const uint64_t seq = chunk.seq;
  const uint32_t part = chunk.part;
  self->request(st.pool, kPoolTimeout, std::move(chunk))
      .then(
          [self, part](PsmBatch& batch) {
            auto& st = self->state;
            --st.in_flight;
            --st.part_in_flight[part];
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
            splitter_release_parts(st);
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
  if (st.pulling || st.exhausted || st.failed) return;
  if (st.ctx->aborted || st.ctx->cancel_requested()) return;
  if (st.in_flight >= max_chunks_in_flight(st)) return;
  st.pulling = true;
  self->request(st.sorter, kSorterTimeout, NextChunk{st.ctx->key})
      .then(
          [self](QueryChunk& chunk) {
            auto& st = self->state;
            st.pulling = false;
            if (st.failed) return;
            BusyTimer timer;
            if (chunk.queries.empty()) {
              st.exhausted = true;
            } else {
              st.splitter_stats.items += 1;
              chunk.seq = st.next_seq++;
              if (!st.scoring) {
                st.scoring = true;
                st.ctx->update_progress([](JobProgress& p) { p.stage = "scoring"; }, true);
              }
              st.current_part = std::max(st.current_part, chunk.part);
              note_busy(st.splitter_stats, *st.ctx, timer);
              splitter_dispatch(self, std::move(chunk));
              splitter_release_parts(st);
            }
            splitter_pump(self);
            splitter_maybe_finish(self);
          },
          [self](caf::error& err) {
            self->state.pulling = false;
            splitter_fail(self, "sorter failed: " + self->system().render(err));
          });
}

caf::behavior splitter_actor(SplitterActor* self, JobPtr ctx, caf::actor sorter, caf::actor pool,
                             caf::actor writer, caf::actor coordinator) {
  auto& st = self->state;
  st.ctx = std::move(ctx);
  st.sorter = std::move(sorter);
  st.pool = std::move(pool);
  st.writer = std::move(writer);
  st.coordinator = std::move(coordinator);
  splitter_pump(self);
  return {[](InputDone&) {}};  // never sent; the splitter is driven by its request replies
}

}  // namespace

caf::actor spawn_splitter(caf::actor_system& sys, JobPtr ctx, caf::actor sorter, caf::actor pool,
                          caf::actor writer, caf::actor coordinator) {
  return sys.spawn(splitter_actor, std::move(ctx), std::move(sorter), std::move(pool),
                   std::move(writer), std::move(coordinator));
}

}  // namespace ionflow
