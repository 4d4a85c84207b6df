// Request timeouts in CAF 0.17.6's actor clock, for actors that live long and send many requests
// (internal to ionflow_actors; CAF translation units only).
//
// CAF 0.17.6 keeps the timeout of every request(...) in the actor system's clock until it fires,
// also after the answer has come (later CAF cancels it then): an event holding a strong pointer
// to the requester, a schedule entry and a lookup entry, ~145 bytes. A stage actor of one job
// loses them when it terminates (the clock drops a terminated actor's timeouts), but the shared
// scorer pool lives as long as the service and sends one request per chunk with kScorerTimeout
// (2 h): `ionflow serve` kept every chunk's 145 bytes for two hours, 5.5 KB/s of heap growth in
// the soak (heaptrack), some 40 MB before the first ones expired.
//
// forget_request_timeout(self, id) removes the timeout of `self`'s request whose answer has the
// message id `id` (response_handle::id()). Call it first thing in both handlers of the request
// (the error handler too: an answer that is an error, not the timeout, leaves it in place). Safe
// to call for a timeout that has fired or is gone. Thread-safety: call it on `self`'s own
// thread of execution (a handler); the clock queues the cancellation for its own thread.
#pragma once

#include <caf/actor_clock.hpp>
#include <caf/local_actor.hpp>
#include <caf/message_id.hpp>

namespace ionflow {

inline void forget_request_timeout(caf::local_actor* self, caf::message_id id) {
  self->clock().cancel_request_timeout(self, id);
}

}  // namespace ionflow
