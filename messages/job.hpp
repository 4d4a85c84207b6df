// JobSpec: one search job as the pipeline runs it — inputs, search parameters and pipeline
// settings, fully resolved (defaults filled, modification names resolved against Unimod).
// JobSummary: what the job did, reported at its end and stored in results.json.
//
// Made by service/job_message from the JSON job message (the same JSON for `ionflow search` and
// `ionflow serve`). Plain value types with no CAF dependency; their CAF inspectors live in
// messages/registration.hpp so they can cross machines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "scoring/search_parameters.hpp"

namespace ionflow {

// The id of the one job `ionflow search` runs. Its messages and log lines leave the id out.
inline constexpr const char* kLocalJobId = "local";

struct JobSpec {
  std::string id;                          // job id (kLocalJobId for `ionflow search`)
  std::vector<std::string> spectra_paths;  // mzML / MGF, optionally gzip or zstd compressed
  std::string fasta_path;
  std::string output_directory = ".";
  SearchParameters search;

  // Pipeline settings.
  int licensed_cores = 0;      // cap on scorers; 0 = the cores this process may use
  int scorers = 0;             // 0 = min(licensed_cores, usable cores)
  int parsers = 1;             // 1..4
  uint32_t chunk_size = 1000;  // max queries per chunk (Mascot's SplitNumberOfQueries); the
                               // last chunks are smaller (scoring/chunk_plan.hpp)
  uint32_t block_size_bytes = 1u << 20;               // reader block size
  uint32_t max_blocks_in_flight = 8;                  // reader backpressure bound
  uint32_t max_chunks_in_flight = 0;                  // 0 = 2 * scorers
  uint64_t sorter_memory_budget_bytes = 64ull << 20;  // spill sorted runs beyond this (perf/README)
  std::string temp_directory;                         // sorter and writer spills; "" = output_dir
  // Open searches: memory for the scorers' fragment-ion index (job key fragment_index_memory_mb).
  // A larger index is cut into slices built on demand within it (scoring/fragment_slices.hpp).
  uint64_t fragment_index_budget_bytes = 2ull << 30;
  // Memory budget of the peptide index build (`--max-memory` of ionflow search / serve, not a
  // job key): a job whose estimate (scoring/index_memory.hpp) exceeds it fails before the
  // build. 0 = no budget.
  uint64_t max_memory_bytes = 0;
  std::string index_cache_directory;  // peptide-index cache (io/index_cache.hpp); "" = none.
                                      // Used only by jobs that index the whole database.
  // Index every peptide even when the windows are narrow (not a job key: for tests and
  // benchmarks; a narrow search otherwise indexes only what its queries reach).
  bool whole_index = false;
  // The sorter cuts a run for a waiting splitter from this many held queries (not a job key: for
  // tests; actors/sorter.cpp). Below it a job is one run, scored once every query is read.
  uint32_t min_run_queries = 4096;
  std::vector<std::string> output_formats = {"tsv"};  // tsv, mzid, pepxml, pin
  bool zstd = false;                                  // compress result files with zstd
  int priority = 0;                                   // service scheduling, higher first

  std::string effective_parameters_json;  // every key resolved, echoed into results.json
  // The date the result files carry (pepXML `date`, mzIdentML `creationDate`): the job's
  // submission, ISO 8601 UTC, so that a job restarted by `ionflow serve` rewrites them byte for
  // byte; "" = when they are written (`ionflow search`).
  std::string creation_time;
};

// One stretch of a stage's work, seconds since the job started.
struct ActiveInterval {
  double start_seconds = 0.0;
  double end_seconds = 0.0;
};

// Most busy intervals a StageStats keeps: beyond it, neighbours closer than a growing gap merge
// (note_active), so a job page's timeline stays a few kB for any job length.
inline constexpr size_t kMaxActiveIntervals = 200;

struct StageStats {
  double busy_seconds = 0.0;
  uint64_t items = 0;  // blocks, spectra, queries, chunks or PSMs, per stage
  uint64_t bytes = 0;
  // When the stage was at work, in seconds since the job started: from the start of its first
  // piece of work to the end of its last (< 0: it never ran). With busy_seconds this shows
  // which stages ran side by side (note_active, overlap_seconds in job_events.hpp).
  double first_active_seconds = -1.0;
  double last_active_seconds = -1.0;
  // When the stage was busy within that span: its pieces of work, sorted, overlapping ones
  // merged, at most kMaxActiveIntervals (then gaps shorter than span / kMaxActiveIntervals are
  // closed). The union of several actors' work (parsers, scorers).
  std::vector<ActiveInterval> busy_intervals;
};

// What the scorers of one node did for a job: "local" is this process's own pool, any other
// name a remote scorer node (`ionflow scorer-node --name`, default HOST:PID).
struct ScorerNodeStats {
  uint64_t chunks = 0;
  uint64_t queries = 0;
  double busy_seconds = 0.0;  // the node's scorers' summed time on the job's chunks
};

struct JobSummary {
  uint64_t spectra_read = 0;  // every spectrum seen in the inputs, any MS level
  std::map<std::string, uint64_t> spectra_skipped;  // reason -> count
  // reason -> where its first spectrum is: "<file>: line 120", "<file>: spectrum scan=12" (as the
  // reader names it), or, for a reason of preparation, "<file>: spectrum t1 (line 7)" / "<file>:
  // spectrum scan=12 (byte 4711)" (its id and where it starts; PeakListParser)
  std::map<std::string, std::string> spectra_skipped_first;
  uint64_t spectra_searched = 0;  // spectra with at least one query scored
  uint64_t queries = 0;
  uint64_t psms = 0;          // PSMs written (all ranks, targets and decoys)
  uint64_t psms_at_1pct = 0;  // target rank-1 PSMs with spectrum_q <= 0.01
  uint64_t peptides_at_1pct = 0;
  // Target accessions of the PSMs at 1% protein FDR: each accession a shared peptide maps to.
  uint64_t proteins_at_1pct = 0;
  // Target protein groups at 1% FDR (parsimony, scoring/protein_groups.hpp): what Sage,
  // Percolator, Mascot and MaxQuant report as proteins (scoring/fdr.hpp FdrCounts).
  uint64_t protein_groups_at_1pct = 0;
  uint64_t peptides_in_index = 0;
  std::string index_cache;  // "" (no cache), "hit <file>", or "miss (<reason>), saved <file>"
  // "" (narrow windows: none built), or for an open search what the scorers' fragment-ion
  // prefilter used, e.g. "37398159 entries (285 MB), built in 1.30 s", or why it was skipped.
  std::string fragment_index;
  // "" (the whole database is indexed), or for a narrow-window search what its index holds: the
  // peptides its queries' precursor windows reach and the null sample (actors/search_runtime.cpp).
  std::string index_scope;
  // How the job's PSMs were finalized (scoring/precursor_calibration.hpp and rescoring.hpp
  // describe()): "applied: ..." or "not applied: <why>".
  std::string precursor_calibration;
  std::string rescoring;
  double wall_seconds = 0.0;
  uint64_t peak_rss_bytes = 0;
  std::map<std::string, StageStats> stages;             // "reader", "parser", "sorter", ...
  std::map<std::string, ScorerNodeStats> scorer_nodes;  // node name -> its share of the chunks
  std::map<std::string, std::string> input_sha256;      // path -> checksum
  std::vector<std::string> output_files;
  // What the user should know although the job succeeded, e.g. an input file with no
  // searchable spectrum: "BSA1.mzML: 0 of 612 spectra searchable (612 MS level 1)".
  std::vector<std::string> warnings;
};

}  // namespace ionflow
