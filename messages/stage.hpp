// Stage: the stages of a job's pipeline (actors/pipeline.hpp), as messages name them: who sent a
// StageReport, where a JobFailure arose. stage_name() is the name used in JobSummary::stages and
// results.json ("database", "reader", ...). Plain value type; serialized as its underlying
// integer (messages/registration.hpp).
#pragma once

#include <cstdint>
#include <string>

namespace ionflow {

enum class Stage : uint8_t { kDatabase, kReader, kParser, kSorter, kSplitter, kScorer, kWriter };

// "database", "reader", "parser", "sorter", "splitter", "scorer", "writer".
inline const char* stage_name(Stage stage) {
  switch (stage) {
    case Stage::kDatabase:
      return "database";
    case Stage::kReader:
      return "reader";
    case Stage::kParser:
      return "parser";
    case Stage::kSorter:
      return "sorter";
    case Stage::kSplitter:
      return "splitter";
    case Stage::kScorer:
      return "scorer";
    case Stage::kWriter:
      return "writer";
  }
  return "unknown";
}

inline std::string to_string(Stage stage) {
  return stage_name(stage);
}

}  // namespace ionflow
