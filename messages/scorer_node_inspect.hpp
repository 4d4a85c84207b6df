// CAF 0.17 inspectors of the scorer-node messages (messages/scorer_node.hpp) and their
// registration, in the form of messages/registration.hpp. Include only in CAF translation units.
// register_scorer_node_types() must run before the actor_system is constructed, on both sides
// (the registered names are what the middleman compares).
#pragma once

#include <caf/actor_system_config.hpp>
#include <caf/meta/type_name.hpp>

#include "messages/scorer_node.hpp"

namespace ionflow {

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, ScorerNodeHello& x) {
  return f(caf::meta::type_name("ionflow::ScorerNodeHello"), x.protocol_version, x.software_version,
           x.node_name, x.scorers, x.token);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, ScorerNodeWelcome& x) {
  return f(caf::meta::type_name("ionflow::ScorerNodeWelcome"), x.accepted, x.reason, x.coordinator);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, RemoteJobSetup& x) {
  return f(caf::meta::type_name("ionflow::RemoteJobSetup"), x.job, x.effective_parameters_json,
           x.fasta_sha256, x.fasta_bytes, x.index_checksum, x.query_neutral_masses_da);
}

inline void register_scorer_node_types(caf::actor_system_config& cfg) {
  cfg.add_message_type<ScorerNodeHello>("ionflow::ScorerNodeHello");
  cfg.add_message_type<ScorerNodeWelcome>("ionflow::ScorerNodeWelcome");
  cfg.add_message_type<RemoteJobSetup>("ionflow::RemoteJobSetup");
}

}  // namespace ionflow
