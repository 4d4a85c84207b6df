// The remote scorer node's actor (actors/scorer_node_runtime.hpp): says hello to the
// coordinator's gate, then takes RemoteJobSetup (rebuild the job's index through
// ScorerNodeOptions::build_job, reply "" or the refusal), QueryChunk (given to an idle local
// scorer, FIFO; the PsmBatch goes back to the coordinator's pool) and ForgetJob. It watches the
// gate: when the coordinator goes away, the node leaves. Detached: build_job is a long
// computation.
#include <spdlog/spdlog.h>
#include <caf/all.hpp>
#include <caf/io/all.hpp>

#include <algorithm>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "actors/pipeline.hpp"
#include "actors/request_timeout.hpp"
#include "actors/scorer_node_runtime.hpp"
#include "messages/registration.hpp"
#include "messages/scorer_node_inspect.hpp"

namespace ionflow {
namespace {

constexpr std::chrono::seconds kHelloTimeout{30};

struct NodeState {
  static inline const char* name = "ionflow.scorer_node";
  ScorerNodeOptions options;
  caf::actor gate;
  std::shared_ptr<int> exit_code;
  std::shared_ptr<JobRegistry> registry = std::make_shared<JobRegistry>();
  std::vector<caf::actor> scorers;
  std::set<caf::actor_addr> spawned;  // every scorer linked, dead ones included
  std::deque<caf::actor> idle;
  std::deque<std::pair<QueryChunk, caf::typed_response_promise<PsmBatch>>> waiting;
};

using NodeActor = caf::stateful_actor<NodeState>;

void node_pump(NodeActor* self) {
  auto& st = self->state;
  while (!st.idle.empty() && !st.waiting.empty()) {
    caf::actor scorer = st.idle.front();
    st.idle.pop_front();
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
    auto waiting = std::move(st.waiting.front());
    st.waiting.pop_front();
    auto& chunk = waiting.first;
    auto promise = std::move(waiting.second);
    auto back = [self, scorer] {
      auto& s = self->state;
      if (std::find(s.scorers.begin(), s.scorers.end(), scorer) != s.scorers.end()) {
        s.idle.push_back(scorer);
      }
      node_pump(self);
    };
    const auto sent = self->request(scorer, kScorerTimeout, std::move(chunk));
    sent.then(
        [self, promise, back, request = sent.id()](PsmBatch& batch) mutable {
          forget_request_timeout(self, request);
          promise.deliver(std::move(batch));
          back();
        },
        [self, promise, back, request = sent.id()](caf::error& err) mutable {
          forget_request_timeout(self, request);
          promise.deliver(std::move(err));
          back();
        });
  }
}

void node_add_scorer(NodeActor* self) {
  auto& st = self->state;
  caf::actor scorer = spawn_scorer(self->system(), st.registry);
  self->monitor(scorer);
  self->link_to(scorer);
  st.spawned.insert(scorer.address());
  st.scorers.push_back(scorer);
  st.idle.push_back(scorer);
}

void node_hello(NodeActor* self) {
  auto& st = self->state;
  ScorerNodeHello hello;
  hello.software_version = IONFLOW_VERSION;
  hello.node_name = st.options.name;
  hello.scorers = st.options.scorers;
  hello.token = st.options.token;
  const std::string where = st.options.host + ":" + std::to_string(st.options.port);
  self->request(st.gate, kHelloTimeout, hello)
      .then(
          [self, where](ScorerNodeWelcome& welcome) {
            auto& st = self->state;
            if (!welcome.accepted) {
              spdlog::error("refused by the coordinator {}: {}", where, welcome.reason);
              *st.exit_code = 1;
              self->quit(caf::exit_reason::user_shutdown);
              return;
            }
            spdlog::info("joined the coordinator {} as {} with {} scorer(s){}", where,
                         welcome.coordinator, st.options.scorers,
                         welcome.reason.empty() ? "" : " (" + welcome.reason + ")");
            self->monitor(st.gate);
          },
          [self, where](caf::error& err) {
            spdlog::error("the coordinator {} did not answer the hello: {}", where,
                          self->system().render(err));
            *self->state.exit_code = 3;
            self->quit(caf::exit_reason::user_shutdown);
          });
}

std::string node_set_up(NodeActor* self, const RemoteJobSetup& setup) {
  auto& st = self->state;
  try {
    std::shared_ptr<const JobScoring> scoring = st.options.build_job(setup);
    spdlog::info("job {}: index rebuilt ({} peptides), checksum {} agrees", setup.job,
                 scoring->index->size(), setup.index_checksum.substr(0, 16));
    st.registry->add(setup.job, std::move(scoring));
    return "";
  } catch (const std::exception& e) {
    spdlog::error("job {}: refusing its chunks: {}", setup.job, e.what());
    return e.what();
  }
}

void node_on_down(NodeActor* self, caf::down_msg& down) {
  auto& st = self->state;
  if (down.source == st.gate.address()) {
    spdlog::info("the coordinator went away ({}); leaving", self->system().render(down.reason));
    self->quit(caf::exit_reason::user_shutdown);
    return;
  }
  auto it = std::find_if(st.scorers.begin(), st.scorers.end(),
                         [&](const caf::actor& s) { return s.address() == down.source; });
  if (it == st.scorers.end()) return;
  st.scorers.erase(it);
  node_add_scorer(self);  // its chunk came back as an error to the coordinator, which retries
  node_pump(self);
}

caf::behavior node_actor(NodeActor* self, ScorerNodeOptions options, caf::actor gate,
                         std::shared_ptr<int> exit_code) {
  auto& st = self->state;
  st.options = std::move(options);
  st.gate = std::move(gate);
  st.exit_code = std::move(exit_code);
  for (int i = 0; i < std::max(1, st.options.scorers); ++i) node_add_scorer(self);
  self->set_down_handler([self](caf::down_msg& down) { node_on_down(self, down); });
  // Exits of linked scorers are handled as down messages; any other exit stops the node (and,
  // through the links, its scorers).
  self->set_exit_handler([self](caf::exit_msg& exit) {
    if (self->state.spawned.count(exit.source) == 0) self->quit(exit.reason);
  });
  self->send(self, connect_atom::value);
  return {
      [self](connect_atom) { node_hello(self); },
      [self](RemoteJobSetup& setup) -> std::string { return node_set_up(self, setup); },
      [self](QueryChunk& chunk) -> caf::result<PsmBatch> {
        auto promise = self->make_response_promise<PsmBatch>();
        self->state.waiting.emplace_back(std::move(chunk), promise);
        node_pump(self);
        return promise;
      },
      [self](ForgetJob& forget) {
        if (forget.part == kAllParts) {
          self->state.registry->remove(forget.job);
        } else {
          self->state.registry->remove(forget.job, forget.part);
        }
        for (const caf::actor& s : self->state.scorers) self->send(s, forget);
      },
  };
}

}  // namespace

int run_scorer_node(const ScorerNodeOptions& options) {
  caf::actor_system_config cfg;
  register_message_types(cfg);
  register_scorer_node_types(cfg);
  cfg.load<caf::io::middleman>();
  cfg.set("scheduler.max-threads", 2);
  cfg.set("scheduler.policy", caf::atom("sharing"));
  caf::actor_system sys{cfg};
  auto gate = sys.middleman().remote_actor(options.host, options.port);
  if (!gate) {
    spdlog::error("cannot connect to the coordinator {}:{}: {}", options.host, options.port,
                  sys.render(gate.error()));
    return 3;
  }
  auto exit_code = std::make_shared<int>(0);
  caf::actor node = sys.spawn<caf::detached>(node_actor, options, *gate, exit_code);
  caf::scoped_actor self{sys};
  self->monitor(node);
  bool running = true;
  while (running) {
    self->receive([&](caf::down_msg&) { running = false; },
                  caf::after(std::chrono::milliseconds(200)) >>
                      [&] {
                        if (options.stop && options.stop->load()) {
                          self->send_exit(node, caf::exit_reason::user_shutdown);
                        }
                      });
  }
  return *exit_code;
}

}  // namespace ionflow
