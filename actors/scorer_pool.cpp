// The scorer pool shared by all jobs of a SearchRuntime (see pipeline.hpp): local scorers
// (actors/scorer.cpp) and the remote scorer nodes that joined through the gate
// (actors/scorer_gate.cpp).
//
// The pool gives each QueryChunk to an idle local scorer (no chunk outstanding) or to a remote
// node with fewer chunks outstanding than its scorers, with request(...).then(...), or queues it
// (FIFO) until one is free: a chunk queued at a busy scorer could wait there while another has
// nothing to do. It keeps the chunk until a PsmBatch comes back; on any error (the scorer threw,
// died, was removed with queued work, timed out, its node was lost) the chunk is sent again
// elsewhere (a chunk fails after kMaxChunkAttempts scoring errors or kMaxChunkUnreachable
// vanished scorers). Local scorers are detached actors linked to the pool; one that dies is
// replaced.
//
// Remote nodes: a node gets a job's chunks only after it answered the job's RemoteJobSetup with
// "" (it rebuilt the index with the coordinator's checksum); a node that refused a job gets none
// of its chunks. The pool monitors each node: when its connection drops (kill -9 included; CAF
// then reports the node down at once, while its requests would only time out), the chunks it
// held are queued again at once, and a late answer of the lost attempt is ignored.
// With an explicit licensed-cores cap, local and remote scorers together stay within it.
#include <spdlog/spdlog.h>
#include <caf/all.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "actors/pipeline.hpp"
#include "actors/request_timeout.hpp"
#include "messages/registration.hpp"
#include "messages/scorer_node_inspect.hpp"

namespace ionflow {
namespace {

// How long a remote node may take to rebuild a job's index before it counts as refusing.
constexpr std::chrono::seconds kRemoteSetupTimeout{30 * 60};

struct PendingChunk {
  QueryChunk chunk;
  caf::typed_response_promise<PsmBatch> promise;
  int failures = 0;     // errors raised while scoring (the scorer threw or died in the handler)
  int unreachable = 0;  // the scorer was gone before it started (request_receiver_down, timeout)
  caf::actor_addr last_scorer;
  uint32_t attempt = 0;    // numbers the sends; an error of an older send is stale
  bool in_flight = false;  // sent, no answer yet
};

enum class NodeJob { kPending, kReady, kRefused };

struct RemoteNode {
  caf::actor handle;
  std::string name;
  int scorers = 0;  // granted
  int load = 0;     // chunks outstanding
  uint64_t chunks_scored = 0;
  std::map<uint64_t, NodeJob> jobs;
};

struct PoolState {
  static inline const char* name = "ionflow.scorer_pool";
  std::shared_ptr<JobRegistry> registry;
  std::shared_ptr<ScorerRoster> roster;
  int licensed = 0;  // explicit cap on local + remote scorers; 0 = none for remote nodes
  std::vector<caf::actor> scorers;
  std::set<caf::actor_addr> spawned;    // scorers linked and not yet down, removed ones included
  std::map<caf::actor_addr, int> load;  // chunks outstanding per local scorer
  std::map<caf::actor_addr, RemoteNode> remote;
  int target = 1;
  uint64_t next_work = 0;
  std::map<uint64_t, PendingChunk> work;
  std::deque<uint64_t> waiting;  // work not given to a scorer yet, in order (retries first)
};

using PoolActor = caf::stateful_actor<PoolState>;

int remote_scorers(const PoolState& st) {
  int n = 0;
  for (const auto& [addr, node] : st.remote) n += node.scorers;
  return n;
}

void pool_add_scorer(PoolActor* self) {
  auto& st = self->state;
  caf::actor scorer = spawn_scorer(self->system(), st.registry);
  self->monitor(scorer);
  self->link_to(scorer);
  st.load[scorer.address()] = 0;
  st.spawned.insert(scorer.address());
  st.scorers.push_back(scorer);
}

void pool_resize(PoolActor* self, int count) {
  auto& st = self->state;
  st.target = std::max(1, count);
  if (st.licensed > 0)
    st.target = std::min(st.target, std::max(1, st.licensed - remote_scorers(st)));
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

// One chunk less outstanding at `scorer` (local or remote; nothing if it is gone).
void pool_release(PoolState& st, const caf::actor_addr& scorer) {
  if (auto it = st.load.find(scorer); it != st.load.end()) --it->second;
  if (auto it = st.remote.find(scorer); it != st.remote.end()) --it->second.load;
}

void pool_on_batch(PoolActor* self, uint64_t id, const caf::actor_addr& scorer, PsmBatch& batch) {
  auto& st = self->state;
  pool_release(st, scorer);
  if (auto node = st.remote.find(scorer); node != st.remote.end()) {
    batch.scorer_node = node->second.name;
    ++node->second.chunks_scored;
    st.roster->set({node->second.name, node->second.scorers, node->second.chunks_scored});
  }
  if (auto it = st.work.find(id); it != st.work.end()) {
    it->second.promise.deliver(std::move(batch));
    st.work.erase(it);
  }
  pool_drain(self);
}

// Queues pending chunk `it` again, or fails it after too many attempts.
void pool_retry(PoolActor* self, std::map<uint64_t, PendingChunk>::iterator it, bool gone,
                const std::string& why) {
  auto& st = self->state;
  PendingChunk& pending = it->second;
  pending.in_flight = false;
  ++(gone ? pending.unreachable : pending.failures);
  if (pending.failures >= kMaxChunkAttempts || pending.unreachable >= kMaxChunkUnreachable) {
    pending.promise.deliver(caf::make_error(
        caf::sec::runtime_error, "chunk " + std::to_string(pending.chunk.seq) + " failed " +
                                     std::to_string(pending.failures + pending.unreachable) +
                                     " times, last: " + why));
    st.work.erase(it);
  } else {
    st.waiting.push_front(it->first);
  }
}

void pool_on_error(PoolActor* self, uint64_t id, uint32_t attempt, const caf::actor_addr& scorer,
                   caf::error& err) {
  auto& st = self->state;
  pool_release(st, scorer);
  auto it = st.work.find(id);
  // Gone, or already sent again (its node was lost): this answer is stale.
  if (it != st.work.end() && it->second.attempt == attempt) {
    bool gone = err == caf::sec::request_receiver_down || err == caf::sec::request_timeout;
    pool_retry(self, it, gone, self->system().render(err));
  }
  pool_drain(self);
}

void pool_send(PoolActor* self, uint64_t id, PendingChunk& pending, const caf::actor& to) {
  const caf::actor_addr addr = to.address();
  pending.last_scorer = addr;
  pending.in_flight = true;
  const uint32_t attempt = ++pending.attempt;
  const auto sent = self->request(to, kScorerTimeout, pending.chunk);
  sent.then(
      [self, id, addr, request = sent.id()](PsmBatch& batch) {
        forget_request_timeout(self, request);
        pool_on_batch(self, id, addr, batch);
      },
      [self, id, attempt, addr, request = sent.id()](caf::error& err) {
        forget_request_timeout(self, request);
        pool_on_error(self, id, attempt, addr, err);
      });
}

// Sends job `job`'s RemoteJobSetup to `node`; its chunks go there once it answers "".
void pool_set_up_node(PoolActor* self, RemoteNode& node, uint64_t job,
                      const RemoteJobSetup& setup) {
  node.jobs[job] = NodeJob::kPending;
  const caf::actor_addr addr = node.handle.address();
  auto done = [self, addr, job](const std::string& refusal) {
    auto it = self->state.remote.find(addr);
    if (it == self->state.remote.end()) return;
    if (!self->state.registry->find(job)) {  // the job ended meanwhile: drop its index there
      it->second.jobs.erase(job);
      self->send(it->second.handle, ForgetJob{job});
      return;
    }
    it->second.jobs[job] = refusal.empty() ? NodeJob::kReady : NodeJob::kRefused;
    if (refusal.empty()) {
      spdlog::info("scorer node {}: index of job {} rebuilt, checksum agrees", it->second.name,
                   job);
    } else {
      spdlog::warn("scorer node {} refused job {}: {}", it->second.name, job, refusal);
    }
    pool_drain(self);
  };
  const auto sent = self->request(node.handle, kRemoteSetupTimeout, setup);
  sent.then(
      [self, done, request = sent.id()](std::string& refusal) {
        forget_request_timeout(self, request);
        done(refusal);
      },
      [self, done, request = sent.id()](caf::error& err) {
        forget_request_timeout(self, request);
        done("no answer: " + self->system().render(err));
      });
}

// A remote node with a free scorer that is ready for `job` (asking idle nodes to set the job
// up on the way); nullptr if none.
RemoteNode* pool_pick_remote(PoolActor* self, uint64_t job, uint32_t part) {
  auto& st = self->state;
  // Nodes rebuild a job's index once (RemoteJobSetup): only a job with one part (part 0) is
  // scored remotely (IndexPlan::kAllQueries or kWhole; messages/job_events.hpp).
  if (part != 0) return nullptr;
  std::shared_ptr<const JobScoring> scoring;
  bool looked_up = false;
  for (auto& [addr, node] : st.remote) {
    if (node.load >= node.scorers) continue;
    auto state = node.jobs.find(job);
    if (state != node.jobs.end()) {
      if (state->second == NodeJob::kReady) return &node;
      continue;
    }
    if (!looked_up) scoring = st.registry->find(job), looked_up = true;
    if (scoring && scoring->remote_setup) pool_set_up_node(self, node, job, *scoring->remote_setup);
  }
  return nullptr;
}

// Sends chunk `id` to an idle scorer; false when there is none for it now (it stays waiting).
// A retry avoids the local scorer that failed it while the pool has another. A chunk no longer
// pending counts as sent.
bool pool_try_send(PoolActor* self, uint64_t id) {
  auto& st = self->state;
  auto it = st.work.find(id);
  if (it == st.work.end()) return true;
  PendingChunk& pending = it->second;
  if (st.scorers.empty()) pool_resize(self, st.target);
  for (const caf::actor& s : st.scorers) {
    if (st.load[s.address()] != 0) continue;
    if (st.scorers.size() > 1 && s.address() == pending.last_scorer) continue;
    ++st.load[s.address()];
    pool_send(self, id, pending, s);
    return true;
  }
  if (RemoteNode* node = pool_pick_remote(self, pending.chunk.job, pending.chunk.part)) {
    ++node->load;
    pool_send(self, id, pending, node->handle);
    return true;
  }
  return false;
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

bool name_taken(const PoolState& st, const std::string& name) {
  for (const auto& [addr, node] : st.remote) {
    if (node.name == name) return true;
  }
  return false;
}

// A remote node joins (the gate checked its hello); with an explicit cap it gets at most the
// licensed cores left.
ScorerNodeWelcome pool_join(PoolActor* self, const caf::actor& handle,
                            const ScorerNodeHello& hello) {
  auto& st = self->state;
  int granted = hello.scorers;
  if (st.licensed > 0) {
    granted =
        std::min(granted, st.licensed - static_cast<int>(st.scorers.size()) - remote_scorers(st));
  }
  if (granted < 1) {
    std::string why = "all " + std::to_string(st.licensed) + " licensed cores are in use";
    spdlog::warn("scorer node {} refused: {}", hello.node_name, why);
    return {false, why, ""};
  }
  std::string name = hello.node_name;
  for (int n = 2; name_taken(st, name); ++n) name = hello.node_name + "#" + std::to_string(n);
  self->monitor(handle);
  st.remote[handle.address()] = RemoteNode{handle, name, granted, 0, 0, {}};
  st.roster->set({name, granted, 0});
  spdlog::info("scorer node {} joined with {} scorer(s){}", name, granted,
               granted < hello.scorers ? " (capped by --licensed-cores)" : "");
  pool_drain(self);
  return {true, granted < hello.scorers ? "capped at " + std::to_string(granted) + " scorers" : "",
          name};
}

// A remote node is gone: the chunks it held are queued again at once.
void pool_lose_node(PoolActor* self, const caf::actor_addr& addr, const caf::error& reason) {
  auto& st = self->state;
  auto node = st.remote.find(addr);
  if (node == st.remote.end()) return;
  int requeued = 0;
  for (auto it = st.work.begin(); it != st.work.end();) {
    auto next = std::next(it);
    if (it->second.in_flight && it->second.last_scorer == addr) {
      ++it->second.attempt;  // its pending answer, if any ever comes, is stale
      pool_retry(self, it, true, "scorer node " + node->second.name + " lost");
      ++requeued;
    }
    it = next;
  }
  spdlog::warn("scorer node {} left ({}); {} chunk(s) it held go to other scorers",
               node->second.name, self->system().render(reason), requeued);
  st.roster->remove(node->second.name);
  st.remote.erase(node);
  pool_drain(self);
}

void pool_forget(PoolActor* self, const ForgetJob& forget) {
  auto& st = self->state;
  for (const caf::actor& s : st.scorers) self->send(s, forget);
  if (forget.part != kAllParts) return;  // parts other than 0 never reach a node
  for (auto& [addr, node] : st.remote) {
    if (node.jobs.erase(forget.job) > 0) self->send(node.handle, forget);
  }
}

void pool_on_down(PoolActor* self, caf::down_msg& down) {
  auto& st = self->state;
  if (st.remote.count(down.source) > 0) return pool_lose_node(self, down.source, down.reason);
  // Forgotten now: each address kept the dead scorer's memory (1.2 KB), one per resize for as
  // long as the pool lived. A scorer's exit_msg, if its link still stood, came before this
  // down_msg: the link was made after the monitor, and CAF notifies the newest attachment first.
  st.spawned.erase(down.source);
  auto it = std::find_if(st.scorers.begin(), st.scorers.end(),
                         [&](const caf::actor& s) { return s.address() == down.source; });
  if (it == st.scorers.end()) return;  // removed on purpose
  // A dead scorer is replaced; its chunks come back through the request error handlers.
  st.load.erase(it->address());
  st.scorers.erase(it);
  pool_resize(self, st.target);
  pool_drain(self);  // the replacement is idle
}

caf::behavior pool_actor(PoolActor* self, std::shared_ptr<JobRegistry> registry,
                         std::shared_ptr<ScorerRoster> roster, int scorers, int licensed) {
  self->state.registry = std::move(registry);
  self->state.roster = std::move(roster);
  self->state.licensed = licensed;
  self->set_down_handler([self](caf::down_msg& down) { pool_on_down(self, down); });
  // Exits from linked scorers are handled as down messages; any other exit stops the pool.
  self->set_exit_handler([self](caf::exit_msg& exit) {
    if (self->state.spawned.count(exit.source) == 0) self->quit(exit.reason);
  });
  pool_resize(self, scorers);
  return {
      [self](QueryChunk& chunk) -> caf::result<PsmBatch> {
        auto& st = self->state;
        auto promise = self->make_response_promise<PsmBatch>();
        uint64_t id = st.next_work++;
        st.work.emplace(id, PendingChunk{std::move(chunk), promise, 0, 0, {}, 0, false});
        st.waiting.push_back(id);
        pool_drain(self);
        return promise;
      },
      [self](ResizePool& resize) {
        pool_resize(self, resize.scorers);
        pool_drain(self);
      },
      // The local scorers in rotation (tests, metrics).
      [self](caf::get_atom) -> std::vector<caf::actor> { return self->state.scorers; },
      [self](ForgetJob& forget) { pool_forget(self, forget); },
      [self](join_atom, caf::actor& node, ScorerNodeHello& hello) {
        return pool_join(self, node, hello);
      },
  };
}

}  // namespace

caf::actor spawn_scorer_pool(caf::actor_system& sys, std::shared_ptr<JobRegistry> registry,
                             std::shared_ptr<ScorerRoster> roster, int scorers, int licensed) {
  return sys.spawn(pool_actor, std::move(registry), std::move(roster), scorers, licensed);
}

}  // namespace ionflow
