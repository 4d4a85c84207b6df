// Protein: one entry of the protein database (FASTA), held in RAM for the whole job.
//
// A plain value type. The sequence holds upper-case one-letter residue codes only (the FASTA
// reader upper-cases and drops a trailing '*'). Thread-safe to read from many threads once built.
#pragma once

#include <string>

namespace ionflow {

struct Protein {
  std::string accession;    // "P02769" for "sp|P02769|ALBU_BOVIN ...", else the first header token
  std::string description;  // the rest of the header line after the first token
  std::string sequence;     // residues, upper case, e.g. "MKWVTFISLLLLFSSAYS..."
  bool is_decoy = false;    // true when read from the FASTA with the decoy tag, or generated
};

}  // namespace ionflow
