// JobPsms: the PSMs of one job on their way from the scorers to the result files, without ever
// holding all of them in RAM (plain C++, no actor code; the job's writer actor owns one).
//
// Flow: add() spills each scored chunk at once (io/psm_spill.hpp: sorted zstd runs in one
// unlinked temp file; RAM holds one run buffer, 16 MiB of encoded PSMs, plus the run bounds).
// When every chunk is in (and the caller has released the peptide index), finalize() reads the
// spill once into PsmFacts (scoring/psm_facts.hpp, ~140 B per PSM), runs finalize_psm_facts
// (best per spectrum, rescoring, q-values; the same results as finalize_psms on a vector) and
// counts the PSMs, peptides, proteins and protein groups at 1% FDR. source() then serves the final
// PSMs to the result writers: each pass is a k-way merge of the spill in (file_index,
// spectrum_index) order that drops the PSMs finalizing dropped, orders each spectrum's PSMs by rank
// and fills rank, score and q-values from the facts. Output bytes equal those of the in-RAM path.
//
// Files: the spill lives in JobSpec::temp_directory ("" = output_directory) and disappears with
// this object (also on failure or cancel; it is unlinked at creation). Errors: std::runtime_error
// naming the spill path (cannot create it, disk full, corrupt data). Thread-safety: none; one
// actor.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/job_results.hpp"
#include "io/psm_spill.hpp"
#include "io/result_writer.hpp"
#include "messages/job.hpp"
#include "scoring/psm_facts.hpp"
#include "scoring/search.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow {

class JobPsms {
 public:
  // The spill file is created in `temp_directory` ("" = "."). Throws std::runtime_error.
  explicit JobPsms(const std::string& temp_directory,
                   uint64_t run_bytes = PsmSpill::kDefaultRunBytes);
  ~JobPsms();
  JobPsms(const JobPsms&) = delete;
  JobPsms& operator=(const JobPsms&) = delete;

  // The spill directory of a job: temp_directory, else output_directory, else ".".
  static std::string spill_directory(const JobSpec& spec);

  // Spills the PSMs of chunk `seq` (scorer order). REQUIRES: finalize() not called.
  void add(uint64_t seq, const std::vector<Psm>& psms);
  uint64_t psms_added() const { return spill_.size(); }

  // Finalizes (see above). REQUIRES: every chunk added; called once.
  void finalize(const SearchParameters& params);

  // REQUIRES: finalize() called. The final PSMs in the writers' order.
  const PsmSource& source() const;
  uint64_t final_psms() const { return facts_.facts.size(); }
  const FdrCounts& counts() const { return counts_; }
  // What finalize() learned (precursor calibration, rescoring). REQUIRES: finalize() called.
  const FinalizeReport& report() const { return report_; }
  const PsmSpill& spill() const { return spill_; }

 private:
  class Source;

  PsmSpill spill_;
  PsmFacts facts_;
  std::vector<uint32_t> fact_of_arrival_;  // index into facts_.facts, or kDropped
  FdrCounts counts_;
  FinalizeReport report_;
  std::unique_ptr<Source> source_;
};

}  // namespace ionflow
