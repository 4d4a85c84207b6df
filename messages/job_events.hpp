// Job-level messages between the pipeline stages, the writer and the job's coordinator.
//   StageReport  a stage's statistics and counts at its end (reader with the merged parser
//                reports, sorter, splitter with the scorers' busy time) -> writer, which merges
//                them into the JobSummary. `from` is the sender (messages/stage.hpp).
//   IndexReady   database -> sorter, the reply to IndexOpen and IndexRequest: the index of
//                `part` is registered (JobRegistry, actors/job_context.hpp); chunks of it may be
//                dispatched. `plan` says how the job's index is made (IndexPlan). The database's
//                statistics go to the writer in its StageReport.
//   ChunksDone   splitter -> writer: every chunk was scored and sent; `chunks` is their number.
//   JobFailure   any stage -> coordinator: the job must end; `message` names the file and byte
//                offset or line where known. The coordinator stops the job and throws JobError.
//   The writer's final message to the coordinator is the JobSummary (messages/job.hpp).
// Plain value types; CAF inspectors in messages/registration.hpp.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "messages/job.hpp"
#include "messages/stage.hpp"

namespace ionflow {

struct StageReport {
  uint64_t job = 0;
  Stage from = Stage::kReader;
  std::map<std::string, StageStats> stages;  // stage name -> stats
  uint64_t spectra_read = 0;
  uint64_t spectra_searched = 0;
  uint64_t queries = 0;
  std::map<std::string, uint64_t> spectra_skipped;           // reason -> count
  std::map<std::string, std::string> spectra_skipped_first;  // see JobSummary
  std::map<std::string, std::string> input_sha256;           // path -> hex checksum
  // path -> hex SHA-256 of a compressed spectra file's decompressed bytes (parsers, in jobs of
  // several spectra files; ParseTally::decompressed_sha256).
  std::map<std::string, std::string> decompressed_sha256;
  uint64_t peptides_in_index = 0;
  std::string index_cache;                              // see JobSummary::index_cache
  std::string fragment_index;                           // see JobSummary::fragment_index
  std::string index_scope;                              // see JobSummary::index_scope
  std::vector<std::string> warnings;                    // see JobSummary::warnings
  std::map<std::string, ScorerNodeStats> scorer_nodes;  // splitter: see JobSummary
};

// How a job's queries meet its peptide index.
enum class IndexPlan : uint8_t {
  kWhole,       // one index of the whole database (part 0), built as the job starts
  kPerRun,      // narrow windows: each sorted run of queries gets the index of its windows
  kAllQueries,  // narrow windows with remote scorer nodes (each rebuilds the index once): one
                // index (part 0) of every query's windows, after the last query
};

struct IndexReady {
  uint64_t job = 0;
  uint32_t part = 0;
  IndexPlan plan = IndexPlan::kWhole;
};

struct ChunksDone {
  uint64_t job = 0;
  uint64_t chunks = 0;
};

struct JobFailure {
  uint64_t job = 0;
  std::string message;  // "BSA1.mzML: byte 18234: ..."
};

// Adds `from`'s statistics and counts into `into` (sums; checksums and stages merged; activity
// intervals widened to cover both).
void merge_stage_report(StageReport& into, const StageReport& from);

// Widens `s`'s activity interval to cover [start_seconds, end_seconds] (job-relative seconds)
// and adds that stretch to its busy intervals (StageStats::busy_intervals).
void note_active(StageStats& s, double start_seconds, double end_seconds);

// Seconds during which both stages' activity intervals overlap (0 if either never ran). An
// interval is from a stage's first to its last work, so idle gaps inside it count as active.
double overlap_seconds(const StageStats& a, const StageStats& b);

}  // namespace ionflow
