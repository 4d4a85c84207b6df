// The gate: the one actor a coordinator (`ionflow serve|search --scorer-listen`) publishes
// through CAF's middleman. A remote scorer node's actor sends it a ScorerNodeHello; the gate
// refuses it (another protocol version, a wrong or missing token: the check the runtime was
// given, service/scorer_handshake.hpp) with the reason, logged here and by the node, or passes
// the node's handle (the hello's sender) to the pool, which answers the ScorerNodeWelcome.
// Anything else a peer sends is answered unexpected_message by CAF and changes nothing.
#include <spdlog/spdlog.h>
#include <caf/all.hpp>

#include <string>

#include "actors/pipeline.hpp"
#include "messages/scorer_node_inspect.hpp"

namespace ionflow {
namespace {

caf::behavior gate_actor(caf::event_based_actor* self, caf::actor pool,
                         std::function<std::string(const ScorerNodeHello&)> check) {
  return {
      [self, pool, check](ScorerNodeHello& hello) -> caf::result<caf::message> {
        const std::string refusal = check ? check(hello) : "";
        auto node = caf::actor_cast<caf::actor>(self->current_sender());
        if (!refusal.empty() || !node) {
          const std::string why = refusal.empty() ? "no sender to answer" : refusal;
          spdlog::warn("scorer node {} refused: {}", hello.node_name, why);
          return caf::make_message(ScorerNodeWelcome{false, why, ""});
        }
        return self->delegate(pool, join_atom::value, node, std::move(hello));
      },
  };
}

}  // namespace

caf::actor spawn_scorer_gate(caf::actor_system& sys, caf::actor pool,
                             std::function<std::string(const ScorerNodeHello&)> check) {
  return sys.spawn(gate_actor, std::move(pool), std::move(check));
}

}  // namespace ionflow
