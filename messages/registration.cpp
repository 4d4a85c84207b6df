#include "messages/registration.hpp"

#include <caf/actor_system_config.hpp>
#include <caf/all.hpp>

namespace ionflow {

void register_message_types(caf::actor_system_config& cfg) {
  cfg.add_message_type<Query>("ionflow::Query");
  cfg.add_message_type<Psm>("ionflow::Psm");
  cfg.add_message_type<SearchParameters>("ionflow::SearchParameters");
  cfg.add_message_type<JobSpec>("ionflow::JobSpec");
  cfg.add_message_type<StageStats>("ionflow::StageStats");
  cfg.add_message_type<JobSummary>("ionflow::JobSummary");
  cfg.add_message_type<ByteBlock>("ionflow::ByteBlock");
  cfg.add_message_type<BlockAck>("ionflow::BlockAck");
  cfg.add_message_type<QueryBatch>("ionflow::QueryBatch");
  cfg.add_message_type<InputDone>("ionflow::InputDone");
  cfg.add_message_type<IndexOpen>("ionflow::IndexOpen");
  cfg.add_message_type<IndexRequest>("ionflow::IndexRequest");
  cfg.add_message_type<NextChunk>("ionflow::NextChunk");
  cfg.add_message_type<QueryChunk>("ionflow::QueryChunk");
  cfg.add_message_type<PsmBatch>("ionflow::PsmBatch");
  cfg.add_message_type<StageReport>("ionflow::StageReport");
  cfg.add_message_type<IndexReady>("ionflow::IndexReady");
  cfg.add_message_type<ChunksDone>("ionflow::ChunksDone");
  cfg.add_message_type<JobFailure>("ionflow::JobFailure");
  cfg.add_message_type<ResizePool>("ionflow::ResizePool");
  cfg.add_message_type<ForgetJob>("ionflow::ForgetJob");
}

}  // namespace ionflow
