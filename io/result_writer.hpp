// Result writers: write a job's final PSMs (after FDR) to an output stream, one function per
// format. The writer actor owns the files (temporary name, renamed when complete) and wraps the
// stream with zstd when asked (io/zstd_stream.hpp); these functions only format.
//
// The PSMs come from a PsmSource: a sequence in the writers' order (file_index, spectrum_index,
// rank; finalize_psms() order) that a writer may read several times (pin and pepXML read it
// twice, mzIdentML twice: first its peptide and protein lists, then the identifications). The
// job's writer actor passes a source backed by its spill file (io/psm_spill.hpp), so no writer
// needs all PSMs in RAM; VectorPsmSource serves a std::vector<Psm> (the vector overloads below,
// tests). A writer keeps per-PSM state only where its format needs it (mzIdentML: the unique
// peptides, proteins and peptide evidences, and the protein hypotheses' item references).
//
// Contract: the vector overloads sort other orders (stably) into the writers' order first.
// Output is deterministic: the same PSMs and context (with creation_time set) give the same
// bytes. Every function throws std::runtime_error if the stream fails (the stream then holds a
// partial document), and passes on what the source throws. Reentrant: calls share no state.
#pragma once

#include <cstddef>
#include <functional>
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

// A job's final PSMs in the writers' order, readable any number of times.
class PsmSource {
 public:
  virtual ~PsmSource() = default;
  // Calls visit(psm) for every PSM in order (file_index, spectrum_index, rank). The reference is
  // valid during the call only.
  virtual void for_each(const std::function<void(const Psm&)>& visit) const = 0;
};

// A PsmSource over a vector (not owned; must outlive the source), stably sorted into the
// writers' order when it is not already in it.
class VectorPsmSource : public PsmSource {
 public:
  explicit VectorPsmSource(const std::vector<Psm>& psms);
  void for_each(const std::function<void(const Psm&)>& visit) const override;

 private:
  const std::vector<Psm>& psms_;
  std::vector<std::size_t> order_;
};

// Column lists, units and number formats of each format: io/tsv_writer.cpp, io/pin_writer.cpp,
// io/mzidentml_writer.cpp, io/pepxml_writer.cpp (file headers). `context.params` may be null
// (defaults of SearchParameters are then echoed).

// Sage-compatible results.tsv (column list in the README).
void write_tsv(std::ostream& out, const PsmSource& psms, const ResultContext& context);
// mzIdentML 1.1.0.
void write_mzidentml(std::ostream& out, const PsmSource& psms, const ResultContext& context);
// mzIdentML 1.2.0 (what PRIDE asks for): the same document in the 1.2 namespace with the CV terms
// 1.2 makes mandatory (peptide-level scoring, leading protein, group threshold, protein count).
void write_mzidentml_1_2(std::ostream& out, const PsmSource& psms, const ResultContext& context);
// pepXML (schema v1.22).
void write_pepxml(std::ostream& out, const PsmSource& psms, const ResultContext& context);
// Percolator input (.pin), tab separated.
void write_pin(std::ostream& out, const PsmSource& psms, const ResultContext& context);

// The same for PSMs in a vector (wrappers over VectorPsmSource).
void write_tsv(std::ostream& out, const std::vector<Psm>& psms, const ResultContext& context);
void write_mzidentml(std::ostream& out, const std::vector<Psm>& psms, const ResultContext& context);
void write_mzidentml_1_2(std::ostream& out, const std::vector<Psm>& psms,
                         const ResultContext& context);
void write_pepxml(std::ostream& out, const std::vector<Psm>& psms, const ResultContext& context);
void write_pin(std::ostream& out, const std::vector<Psm>& psms, const ResultContext& context);

}  // namespace ionflow
