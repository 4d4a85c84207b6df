// The scorer pool shared by all jobs of a SearchRuntime, and its scorers (see pipeline.hpp).
//
// The pool gives each QueryChunk to an idle scorer (no chunk outstanding) with
// request(...).then(...), or queues it (FIFO) until a scorer is idle: a chunk queued at a busy
// scorer could wait there while another scorer has nothing to do, which at the end of a job left
// one scorer running alone for up to a chunk. It keeps the chunk until a PsmBatch comes back; on
// any error (the scorer threw, died, was removed with queued work, timed out) the chunk is sent
// again to another scorer (a chunk fails after kMaxChunkAttempts scoring errors or
// kMaxChunkUnreachable vanished scorers). Scorers are detached actors (one thread each, so the pool
// size is the number of cores scoring) linked to the pool; a scorer that dies is replaced. A scorer
// checks the job's stop flag (JobScoring::stop) between queries, so a cancelled or failed job's
// chunks stop within one query instead of being scored to the end.
#include <caf/all.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "actors/pipeline.hpp"
#include "messages/registration.hpp"
#include "scoring/search.hpp"

namespace ionflow {
namespace {

// --- scorer -------------------------------------------------------------------------------------

// A job as one scorer knows it: the JobScoring looked up at the job's first chunk (kept, so
// that chunks still queued after the job ended see its stop flag) and a SpectrumScorer holding
// the job's shared, read-only PeptideIndex.
struct ScorerJob {
  std::shared_ptr<const JobScoring> scoring;
  std::unique_ptr<SpectrumScorer> scorer;
};

struct ScorerState {
  static inline const char* name = "ionflow.scorer";
  std::shared_ptr<JobRegistry> registry;
  std::map<uint64_t, ScorerJob> jobs;  // until ForgetJob
};

using ScorerActor = caf::stateful_actor<ScorerState>;

caf::behavior scorer_actor(ScorerActor* self, std::shared_ptr<JobRegistry> registry) {
  self->state.registry = std::move(registry);
  return {
      [self](QueryChunk& chunk) -> caf::result<PsmBatch> {
        auto& st = self->state;
        BusyTimer timer;
        auto it = st.jobs.find(chunk.job);
        if (it == st.jobs.end()) {
          std::shared_ptr<const JobScoring> job = st.registry->find(chunk.job);
          if (!job) {
            return caf::make_error(caf::sec::runtime_error,
                                   "job " + std::to_string(chunk.job) + " is not registered");
          }
          try {
            auto scorer = std::make_unique<SpectrumScorer>(job->index, job->params, job->fragments,
                                                           job->fragment_slices);
            it = st.jobs.emplace(chunk.job, ScorerJob{job, std::move(scorer)}).first;
          } catch (const std::exception& e) {
            return caf::make_error(caf::sec::runtime_error, std::string(e.what()));
          }
        }
        const JobScoring& job = *it->second.scoring;
        PsmBatch batch;
        batch.job = chunk.job;
        batch.seq = chunk.seq;
        for (const Query& q : chunk.queries) {
          // A cancelled or failed job: stop here. The partial batch goes only to that job,
          // whose results are discarded (the flag is never set for a job that finishes).
          if (job.stop && job.stop->load(std::memory_order_relaxed)) break;
          try {
            if (job.before_score) job.before_score(q);  // tests: may throw anything
            std::vector<Psm> psms = it->second.scorer->score(q);
            for (Psm& p : psms) batch.psms.push_back(std::move(p));
          } catch (const std::exception& e) {
            return caf::make_error(caf::sec::runtime_error,
                                   "scoring file " + std::to_string(q.file_index) + " spectrum " +
                                       std::to_string(q.spectrum_index) + " (" + q.native_id +
                                       ") charge " + std::to_string(q.charge) + ": " + e.what());
          }
          ++batch.queries_scored;
        }
        batch.scorer_busy_seconds = timer.seconds();
        return batch;
      },
      [self](ForgetJob& forget) { self->state.jobs.erase(forget.job); },
  };
}

// --- pool ---------------------------------------------------------------------------------------

struct PendingChunk {
  QueryChunk chunk;
  caf::typed_response_promise<PsmBatch> promise;
  int failures = 0;     // errors raised while scoring (the scorer threw or died in the handler)
  int unreachable = 0;  // the scorer was gone before it started (request_receiver_down, timeout)
  caf::actor_addr last_scorer;
};

struct PoolState {
  static inline const char* name = "ionflow.scorer_pool";
  std::shared_ptr<JobRegistry> registry;
  std::vector<caf::actor> scorers;
  std::set<caf::actor_addr> spawned;    // every scorer ever linked, removed ones included
  std::map<caf::actor_addr, int> load;  // chunks outstanding per scorer
  int target = 1;
  uint64_t next_work = 0;
  std::map<uint64_t, PendingChunk> work;
  std::deque<uint64_t> waiting;  // work not given to a scorer yet, in order (retries first)
};

using PoolActor = caf::stateful_actor<PoolState>;

void pool_add_scorer(PoolActor* self) {
  auto& st = self->state;
  caf::actor scorer = self->spawn<caf::detached>(scorer_actor, st.registry);
  self->monitor(scorer);
  self->link_to(scorer);
  st.load[scorer.address()] = 0;
  st.spawned.insert(scorer.address());
  st.scorers.push_back(scorer);
}

void pool_resize(PoolActor* self, int count) {
  auto& st = self->state;
  st.target = std::max(1, count);
  while (static_cast<int>(st.scorers.size()) < st.target) pool_add_scorer(self);
  while (static_cast<int>(st.scorers.size()) > st.target) {
    // Take it out of rotation first; the chunks it holds are still processed before the exit
    // (mailbox order), and anything lost is retried by the error handler.
    caf::actor scorer = st.scorers.back();
    st.scorers.pop_back();
    st.load.erase(scorer.address());
    self->unlink_from(scorer);
    self->send_exit(scorer, caf::exit_reason::user_shutdown);
  }
}

void pool_drain(PoolActor* self);

// Sends chunk `id` to an idle scorer; false when there is none for it now (it stays waiting).
// A retry avoids the scorer that failed it while the pool has another: it waits for another
// scorer to be idle. A chunk no longer pending counts as sent.
bool pool_try_send(PoolActor* self, uint64_t id) {
  auto& st = self->state;
  auto it = st.work.find(id);
  if (it == st.work.end()) return true;
  PendingChunk& pending = it->second;
  if (st.scorers.empty()) pool_resize(self, st.target);
  caf::actor chosen;
  for (const caf::actor& s : st.scorers) {
    if (st.load[s.address()] != 0) continue;
    if (st.scorers.size() > 1 && s.address() == pending.last_scorer) continue;
    chosen = s;
    break;
  }
  if (!chosen) return false;
  pending.last_scorer = chosen.address();
  ++st.load[chosen.address()];
  self->request(chosen, kScorerTimeout, pending.chunk)
      .then(
          [self, id, chosen](PsmBatch& batch) {
            auto& st = self->state;
            auto load = st.load.find(chosen.address());
            if (load != st.load.end()) --load->second;
            auto it = st.work.find(id);
            if (it != st.work.end()) {
              it->second.promise.deliver(std::move(batch));
              st.work.erase(it);
            }
            pool_drain(self);
          },
          [self, id, chosen](caf::error& err) {
            auto& st = self->state;
            auto load = st.load.find(chosen.address());
            if (load != st.load.end()) --load->second;
            auto it = st.work.find(id);
            if (it == st.work.end()) {
              pool_drain(self);
              return;
            }
            PendingChunk& pending = it->second;
            bool gone = err == caf::sec::request_receiver_down || err == caf::sec::request_timeout;
            ++(gone ? pending.unreachable : pending.failures);
            if (pending.failures >= kMaxChunkAttempts ||
                pending.unreachable >= kMaxChunkUnreachable) {
              pending.promise.deliver(
                  caf::make_error(caf::sec::runtime_error,
                                  "chunk " + std::to_string(pending.chunk.seq) + " failed " +
                                      std::to_string(pending.failures + pending.unreachable) +
                                      " times, last: " + self->system().render(err)));
              st.work.erase(it);
            } else {
              st.waiting.push_front(id);
            }
            pool_drain(self);
          });
  return true;
}

// Gives waiting chunks, in order, to idle scorers while there are both (a retry that must wait
// for another scorer does not hold up the chunks behind it).
void pool_drain(PoolActor* self) {
  auto& st = self->state;
  for (auto it = st.waiting.begin(); it != st.waiting.end();) {
    if (pool_try_send(self, *it)) {
      it = st.waiting.erase(it);
    } else {
      ++it;
    }
  }
}

caf::behavior pool_actor(PoolActor* self, std::shared_ptr<JobRegistry> registry, int scorers) {
  self->state.registry = std::move(registry);
  // A dead scorer is replaced; its chunks come back through the request error handlers.
  self->set_down_handler([self](caf::down_msg& down) {
    auto& st = self->state;
    auto it = std::find_if(st.scorers.begin(), st.scorers.end(),
                           [&](const caf::actor& s) { return s.address() == down.source; });
    if (it == st.scorers.end()) return;  // removed on purpose
    st.load.erase(it->address());
    st.scorers.erase(it);
    pool_resize(self, st.target);
    pool_drain(self);  // the replacement is idle
  });
  // Exits from linked scorers are handled as down messages; any other exit stops the pool.
  self->set_exit_handler([self](caf::exit_msg& exit) {
    auto& st = self->state;
    if (st.spawned.count(exit.source) == 0) self->quit(exit.reason);
  });
  pool_resize(self, scorers);
  return {
      [self](QueryChunk& chunk) -> caf::result<PsmBatch> {
        auto& st = self->state;
        auto promise = self->make_response_promise<PsmBatch>();
        uint64_t id = st.next_work++;
        st.work.emplace(id, PendingChunk{std::move(chunk), promise, 0, 0, {}});
        st.waiting.push_back(id);
        pool_drain(self);
        return promise;
      },
      [self](ResizePool& resize) {
        pool_resize(self, resize.scorers);
        pool_drain(self);
      },
      // The scorers now in rotation (tests, metrics).
      [self](caf::get_atom) -> std::vector<caf::actor> { return self->state.scorers; },
      [self](ForgetJob& forget) {
        for (const caf::actor& s : self->state.scorers) self->send(s, forget);
      },
  };
}

}  // namespace

caf::actor spawn_scorer_pool(caf::actor_system& sys, std::shared_ptr<JobRegistry> registry,
                             int scorers) {
  return sys.spawn(pool_actor, std::move(registry), scorers);
}

}  // namespace ionflow
