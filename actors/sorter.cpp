// The sorter: holds every query of the job in precursor-mass order (io/sorted_runs.hpp, spilling
// beyond JobSpec::sorter_memory_budget_bytes), plans the chunks once all are in
// (scoring/chunk_plan.hpp), sends the queries' masses to the database and SortedReady to the
// splitter, then serves the splitter's NextQueries (see pipeline.hpp).
#include <caf/all.hpp>

#include <memory>
#include <vector>

#include "actors/pipeline.hpp"
#include "io/sorted_runs.hpp"
#include "messages/registration.hpp"
#include "scoring/chunk_plan.hpp"

namespace ionflow {
namespace {

struct SorterState {
  static inline const char* name = "ionflow.sorter";
  JobPtr ctx;
  caf::actor splitter, writer, coordinator, database;
  std::unique_ptr<SortedRuns> runs;
  std::vector<double> neutral_masses_da;  // of every query, for the database (QueryMasses)
  QueryCosts query_costs;                 // for the chunk plan
  bool finished = false;
  bool reported = false;
  bool failed = false;
  StageStats stats;
};

using SorterActor = caf::stateful_actor<SorterState>;

void sorter_fail(SorterActor* self, const std::exception& e) {
  auto& st = self->state;
  if (!st.failed) report_failure(st.coordinator, *st.ctx, e.what());
  st.failed = true;
}

caf::behavior sorter_actor(SorterActor* self, JobPtr ctx, caf::actor splitter, caf::actor writer,
                           caf::actor coordinator, caf::actor database) {
  auto& st = self->state;
  st.ctx = std::move(ctx);
  st.splitter = std::move(splitter);
  st.writer = std::move(writer);
  st.coordinator = std::move(coordinator);
  st.database = std::move(database);
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
        // The masses first: the database builds a narrow-window job's index from them.
        self->send(st.database, QueryMasses{st.ctx->key, std::move(st.neutral_masses_da)});
        std::vector<uint32_t> plan =
            plan_chunks(st.query_costs.runs(), st.ctx->spec.chunk_size, st.ctx->scorer_count());
        st.query_costs = QueryCosts();
        note_busy(st.stats, *st.ctx, timer);
        // The stage moves on in the splitter, which also knows whether the index is built.
        st.ctx->update_progress([total](JobProgress& p) { p.queries = total; }, true);
        self->send(st.splitter, SortedReady{st.ctx->key, std::move(plan)});
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
          report.from = Stage::kSorter;
          report.stages[stage_name(Stage::kSorter)] = st.stats;
          self->send(st.writer, std::move(report));
          st.runs.reset();  // removes the spill folder now
        }
        return batch;
      },
  };
}

}  // namespace

caf::actor spawn_sorter(caf::actor_system& sys, JobPtr ctx, caf::actor splitter, caf::actor writer,
                        caf::actor coordinator, caf::actor database) {
  return sys.spawn<caf::detached>(sorter_actor, std::move(ctx), std::move(splitter),
                                  std::move(writer), std::move(coordinator), std::move(database));
}

}  // namespace ionflow
