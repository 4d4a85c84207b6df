// Result writers: write a job's final PSMs (after FDR) in one sequential pass to an output
// stream, one function per format. The writer actor owns the files (temporary name, renamed when
// complete) and wraps the stream with zstd when asked (io/zstd_stream.hpp); these functions only
// format.
//
// Contract: `psms` are ordered by file_index, spectrum_index, rank (finalize_psms() order); other
// orders are sorted (stably) into it first. Output is deterministic: the same PSMs and context
// (with creation_time set) give the same bytes. Every function throws std::runtime_error if the
// stream fails; the stream then holds a partial document. Reentrant: calls share no state.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "scoring/psm.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow {

struct ResultContext {
  const SearchParameters* params = nullptr;
  std::vector<std::string> spectra_paths;  // indexed by Psm::file_index
  std::string fasta_path;
  std::string software_version;
  std::string protein_delimiter = "\t";  // pin only (Percolator expects tab)

  // Added by the writers (formats helper); all optional.
  std::string creation_time;       // ISO 8601 UTC ("2026-11-30T08:00:00Z"); "" = now. Tests set
                                   // it so the XML outputs are byte-for-byte reproducible.
  std::string output_path;         // the final output file, echoed in pepXML summary_xml
  double pass_threshold_q = 0.01;  // mzIdentML passThreshold: spectrum_q <= this
};

// Column lists, units and number formats of each format: io/tsv_writer.cpp, io/pin_writer.cpp,
// io/mzidentml_writer.cpp, io/pepxml_writer.cpp (file headers). `context.params` may be null
// (defaults of SearchParameters are then echoed).

// Sage-compatible results.tsv (column list in the README).
void write_tsv(std::ostream& out, const std::vector<Psm>& psms, const ResultContext& context);
// mzIdentML 1.1.0.
void write_mzidentml(std::ostream& out, const std::vector<Psm>& psms, const ResultContext& context);
// pepXML (schema v1.22).
void write_pepxml(std::ostream& out, const std::vector<Psm>& psms, const ResultContext& context);
// Percolator input (.pin), tab separated.
void write_pin(std::ostream& out, const std::vector<Psm>& psms, const ResultContext& context);

}  // namespace ionflow
