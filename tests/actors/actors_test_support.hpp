// Shared by the actors suite's tests: the E. coli example job (openms-doc), whole-file reads and
// scratch directories. Header-only; each test file keeps its own anonymous-namespace helpers.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "actors/search_runtime.hpp"

namespace ionflow::actors_test {

namespace fs = std::filesystem;

inline const std::string kEcoliMzml =
    std::string(IONFLOW_EXAMPLES_DIR) + "/ID/Ecoli_MS2_small.mzML";
inline const std::string kEcoliFasta = std::string(IONFLOW_EXAMPLES_DIR) +
                                       "/TOPPAS/data/Identification/"
                                       "target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta";

// The E. coli run against its target-decoy FASTA (decoys from the FASTA, prefix "rev_"), every
// other setting at its default; results go to `output`.
inline JobSpec ecoli_job(const std::string& name, const fs::path& output) {
  JobSpec job;
  job.id = name;
  job.spectra_paths = {kEcoliMzml};
  job.fasta_path = kEcoliFasta;
  job.output_directory = output.string();
  job.search.database.decoy_tag = "rev_";
  job.search.database.decoy_generation = DecoyGeneration::kNone;
  return job;
}

// The whole file ("" if it cannot be read).
inline std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// <temp>/ionflow-<suite>-<pid>-<name>: unique per process and test.
inline fs::path scratch_directory(const std::string& suite, const std::string& name) {
  return fs::temp_directory_path() /
         ("ionflow-" + suite + "-" + std::to_string(::getpid()) + "-" + name);
}

}  // namespace ionflow::actors_test
