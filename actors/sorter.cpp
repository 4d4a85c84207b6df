// The sorter: cuts the job's queries into sorted runs as they arrive (io/run_queue.hpp, spilling
// beyond JobSpec::sorter_memory_budget_bytes), plans each run's chunks when it is cut
// (scoring/chunk_plan.hpp), gets each run's peptide index from the database and serves the
// splitter's NextChunk with the planned chunks of the runs whose index is registered, in the
// order the runs were cut (see pipeline.hpp).
//
// Index (IndexOpen's reply, IndexPlan): with the whole database's index every run is scored as
// soon as it is cut; per run (narrow windows) the database builds each run's index from its
// queries' masses, the next run's while this one is scored; with remote scorer nodes one index
// of every query, requested after the last. Runs are cut when RAM holds more queries than the
// budget (spilled), when the splitter waits and at least kMinRunQueries queries are held (kept in
// RAM), and at the end of the input. So scoring starts while the spectra are still read, and a
// job of fewer than kMinRunQueries queries is one run scored against one index, as before runs.
// kMinRunQueries is JobSpec::min_run_queries, 4096 by default: each run of a narrow-window job
// costs an index build (0.1-0.2 s of CPU on the human-size database, most of it a pass over every
// digested peptide), worth it for a run that takes the scorers longer than that.
#include <caf/all.hpp>

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "actors/pipeline.hpp"
#include "io/run_queue.hpp"
#include "messages/registration.hpp"
#include "scoring/chunk_plan.hpp"

namespace ionflow {
namespace {

// One run cut from the queue (the same order as RunQueue's runs).
struct Run {
  uint32_t part = 0;                      // its index: QueryChunk::part
  std::vector<double> neutral_masses_da;  // its queries', until its index is requested
  std::vector<uint32_t> chunks;           // the chunk plan: query counts
  size_t next_chunk = 0;
  uint64_t queries = 0, served = 0;
  bool requested = false;  // its index (kPerRun)
  bool indexed = false;
};

struct SorterState {
  static inline const char* name = "ionflow.sorter";
  JobPtr ctx;
  caf::actor writer, coordinator, database;
  std::unique_ptr<RunQueue> queue;
  std::optional<IndexPlan> plan;  // known once the database answered IndexOpen
  std::deque<Run> runs;
  uint32_t runs_cut = 0;
  bool whole_indexed = false;   // part 0 registered (kWhole, kAllQueries)
  bool all_requested = false;   // kAllQueries: the one request sent
  bool last_requested = false;  // the request marked `last` sent
  std::optional<caf::typed_response_promise<QueryChunk>> waiting;  // the splitter's NextChunk
  bool input_done = false;
  uint64_t chunks_planned = 0;
  uint64_t chunks_served = 0;
  bool reported = false;
  bool failed = false;
  StageStats stats;
};

using SorterActor = caf::stateful_actor<SorterState>;

void sorter_fail(SorterActor* self, const std::string& message) {
  auto& st = self->state;
  if (!st.failed) report_failure(st.coordinator, *st.ctx, message);
  st.failed = true;
  if (st.waiting) {
    st.waiting->deliver(caf::make_error(caf::sec::runtime_error, "sorter failed: " + message));
    st.waiting.reset();
  }
}

// The visitor of each cut: the run's masses and chunk plan.
RunQueue::CutVisitor run_planner(SorterActor* self) {
  return [self](const std::vector<Query>& sorted) {
    auto& st = self->state;
    Run run;
    run.part = st.runs_cut++;
    std::vector<CostRun> costs;
    costs.reserve(sorted.size());
    run.neutral_masses_da.reserve(sorted.size());
    const int max_fragment_charge = st.ctx->spec.search.max_fragment_charge;
    for (const Query& q : sorted) {
      run.neutral_masses_da.push_back(q.neutral_mass);
      costs.push_back({1, estimated_scoring_cost(q.neutral_mass, q.charge, max_fragment_charge)});
    }
    run.queries = sorted.size();
    run.chunks = plan_chunks(costs, st.ctx->spec.chunk_size, st.ctx->scorer_count());
    st.chunks_planned += run.chunks.size();
    st.runs.push_back(std::move(run));
  };
}

uint32_t index_part(const SorterState& st, const Run& run) {
  return *st.plan == IndexPlan::kPerRun ? run.part : 0;
}

bool indexed(const SorterState& st, const Run& run) {
  return *st.plan == IndexPlan::kPerRun ? run.indexed : st.whole_indexed;
}

void sorter_advance(SorterActor* self);

void request_index(SorterActor* self, IndexRequest request) {
  auto& st = self->state;
  self->request(st.database, kIndexTimeout, std::move(request))
      .then(
          [self](IndexReady& ready) {
            auto& st = self->state;
            if (*st.plan == IndexPlan::kPerRun) {
              for (Run& run : st.runs) {
                if (run.part == ready.part) run.indexed = true;
              }
            } else {
              st.whole_indexed = true;
            }
            sorter_advance(self);
          },
          [self](caf::error& err) {
            sorter_fail(self, "database failed: " + self->system().render(err));
          });
}

// Sends the index requests due: per run, the front run's, and the next one's once the front run
// is half served (its index is then built while the front run's second half is scored); the
// request marked `last` once the input is done and every run is requested. With kAllQueries one
// request of every query's mass at the end.
void request_indexes(SorterActor* self) {
  auto& st = self->state;
  if (st.last_requested || *st.plan == IndexPlan::kWhole) return;
  const uint64_t key = st.ctx->key;
  if (*st.plan == IndexPlan::kAllQueries) {
    if (!st.input_done || st.queue->held() > 0) return;
    IndexRequest request{key, 0, {}, true};
    for (Run& run : st.runs) {
      request.neutral_masses_da.insert(request.neutral_masses_da.end(),
                                       run.neutral_masses_da.begin(), run.neutral_masses_da.end());
      std::vector<double>().swap(run.neutral_masses_da);
    }
    st.last_requested = true;
    request_index(self, std::move(request));
    return;
  }
  for (size_t i = 0; i < st.runs.size() && i < 2; ++i) {
    Run& run = st.runs[i];
    if (run.requested) continue;
    // The next run's index once the front run is indexed and half served: built while the
    // front run's second half is scored, and not held beside two others.
    const Run& front = st.runs.front();
    if (i == 1 && !(front.indexed && 2 * front.served >= front.queries)) break;
    run.requested = true;
    const bool last = st.input_done && st.queue->held() == 0 && i + 1 == st.runs.size();
    st.last_requested = last;
    request_index(self, IndexRequest{key, run.part, std::move(run.neutral_masses_da), last});
    run.neutral_masses_da.clear();
  }
  if (st.input_done && st.queue->held() == 0 && !st.last_requested &&
      (st.runs.empty() || st.runs.back().requested)) {
    // Every run's index is requested (or there is none): only close.
    st.last_requested = true;
    request_index(self, IndexRequest{key, kNoIndexPart, {}, true});
  }
}

void sorter_report(SorterActor* self) {
  auto& st = self->state;
  if (st.reported) return;
  st.reported = true;
  const RunQueueStats& rs = st.queue->stats();
  st.stats.bytes = rs.bytes_spilled;
  StageReport report;
  report.job = st.ctx->key;
  report.from = Stage::kSorter;
  report.stages[stage_name(Stage::kSorter)] = st.stats;
  self->send(st.writer, std::move(report));
  st.queue.reset();  // removes the spill folder now
}

// Cuts, requests and serves whatever the state allows (called after every event).
void sorter_advance(SorterActor* self) {
  auto& st = self->state;
  if (st.failed || !st.plan || !st.queue) return;
  BusyTimer timer;
  try {
    // A run when none is queued (the splitter wants one now or soon; whole index: only once it
    // is there), or, once the front run is half served, the next one, whose index is then built
    // while the front run is scored.
    const bool can_cut = st.queue->held() >= std::max<uint32_t>(1, st.ctx->spec.min_run_queries) ||
                         (st.input_done && st.queue->held() > 0);
    const bool wanted = st.runs.empty() || (st.runs.size() == 1 && indexed(st, st.runs.front()) &&
                                            2 * st.runs.front().served >= st.runs.front().queries);
    if (can_cut && wanted && *st.plan != IndexPlan::kAllQueries &&
        (*st.plan == IndexPlan::kPerRun || st.whole_indexed)) {
      st.queue->cut(run_planner(self));
    }
    request_indexes(self);
    if (st.waiting && !st.runs.empty() && indexed(st, st.runs.front())) {
      Run& run = st.runs.front();
      QueryChunk chunk{st.ctx->key, 0, index_part(st, run), {}};
      const uint32_t count = run.chunks[run.next_chunk++];
      chunk.queries.reserve(count);
      if (st.queue->take(count, chunk.queries) != count) {
        throw std::logic_error("a run held fewer queries than its chunk plan");
      }
      run.served += count;
      if (run.next_chunk == run.chunks.size()) st.runs.pop_front();
      ++st.chunks_served;
      st.stats.items += chunk.queries.size();
      st.waiting->deliver(std::move(chunk));
      st.waiting.reset();
      note_busy(st.stats, *st.ctx, timer);
      sorter_advance(self);  // the next run may be cut and requested now
      return;
    }
    if (st.waiting && st.input_done && st.runs.empty() && st.queue->held() == 0) {
      st.waiting->deliver(QueryChunk{st.ctx->key, 0, 0, {}});  // no more
      st.waiting.reset();
      sorter_report(self);
      return;
    }
  } catch (const std::exception& e) {
    sorter_fail(self, e.what());
    return;
  }
  note_busy(st.stats, *st.ctx, timer);
}

caf::behavior sorter_actor(SorterActor* self, JobPtr ctx, caf::actor writer, caf::actor coordinator,
                           caf::actor database) {
  auto& st = self->state;
  st.ctx = std::move(ctx);
  st.writer = std::move(writer);
  st.coordinator = std::move(coordinator);
  st.database = std::move(database);
  const JobSpec& spec = st.ctx->spec;
  st.queue = std::make_unique<RunQueue>(
      spec.temp_directory.empty() ? spec.output_directory : spec.temp_directory,
      spec.sorter_memory_budget_bytes);
  self->request(st.database, kIndexTimeout, IndexOpen{st.ctx->key})
      .then(
          [self](IndexReady& ready) {
            auto& st = self->state;
            st.plan = ready.plan;
            st.whole_indexed = ready.plan == IndexPlan::kWhole;
            sorter_advance(self);
          },
          [self](caf::error& err) {
            sorter_fail(self, "database failed: " + self->system().render(err));
          });
  return {
      [self](QueryBatch& batch) -> uint64_t {
        auto& st = self->state;
        if (st.failed || st.input_done || !st.queue) return 0;
        BusyTimer timer;
        try {
          const RunQueue::CutVisitor planner = run_planner(self);
          for (Query& q : batch.queries) st.queue->add(std::move(q), planner);
        } catch (const std::exception& e) {
          sorter_fail(self, e.what());
          return 0;
        }
        note_busy(st.stats, *st.ctx, timer);
        const uint64_t held = st.queue->stats().queries;
        st.ctx->update_progress([held](JobProgress& p) { p.queries = held; });
        sorter_advance(self);
        return held;
      },
      [self](InputDone&) {
        auto& st = self->state;
        if (st.failed || st.input_done || !st.queue) return;
        BusyTimer timer;
        try {
          st.queue->cut(run_planner(self));  // the last run
        } catch (const std::exception& e) {
          sorter_fail(self, e.what());
          return;
        }
        st.input_done = true;
        note_busy(st.stats, *st.ctx, timer);
        const uint64_t total = st.queue->stats().queries;
        const uint64_t chunks = st.chunks_planned;
        // Every query is read: scoring, or (nothing scored yet) waiting for the index.
        const bool scoring = st.chunks_served > 0;
        st.ctx->update_progress(
            [total, chunks, scoring](JobProgress& p) {
              p.queries = total;
              p.chunks_total = chunks;
              if (!scoring) p.stage = "indexing";
            },
            true);
        sorter_advance(self);
      },
      [self](NextChunk&) -> caf::result<QueryChunk> {
        auto& st = self->state;
        if (st.failed) return caf::make_error(caf::sec::runtime_error, "sorter failed");
        if (st.waiting) {
          return caf::make_error(caf::sec::runtime_error, "NextChunk while one is pending");
        }
        st.waiting = self->make_response_promise<QueryChunk>();
        auto promise = *st.waiting;
        sorter_advance(self);
        return promise;
      },
  };
}

}  // namespace

caf::actor spawn_sorter(caf::actor_system& sys, JobPtr ctx, caf::actor writer,
                        caf::actor coordinator, caf::actor database) {
  return sys.spawn<caf::detached>(sorter_actor, std::move(ctx), std::move(writer),
                                  std::move(coordinator), std::move(database));
}

}  // namespace ionflow
