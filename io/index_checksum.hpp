// The checksum of a PeptideIndex (scoring/peptide_index.hpp), which a remote scorer node
// (`ionflow scorer-node`) compares with its coordinator's before it scores any chunk of a job:
// both sides built the index from the same FASTA bytes and parameters, and every PSM refers to
// the index only through what it copies out of it, so equal checksums mean equal PSMs.
//
// Contract: SHA-256 (io/sha256.hpp), lower-case hex (64 characters), over, in this order: the
// peptide columns as they lie in memory (neutral masses as IEEE doubles, the 24-byte records,
// the residues, the placed modifications, the occurrences; none has padding, see the
// static_asserts in scoring/), then each protein (accession, sequence, decoy flag) and each
// modification (name, accession, mass, position, residues, fixed), every string preceded by its
// length. Both sides run the same build (the scorer protocol version, messages/scorer_node.hpp),
// so byte order and layout agree. Thread-safety: reads the index only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "messages/job.hpp"
#include "messages/scorer_node.hpp"
#include "scoring/peptide_index.hpp"

namespace ionflow {

std::string peptide_index_checksum(const PeptideIndex& index);

// What a remote scorer node needs to rebuild job `job`'s `index`: the job's effective
// parameters, the FASTA's bytes (read again from spec.fasta_path) with their SHA-256, the index
// checksum and, for a narrow-window index, the queries' neutral masses (Da) it was selected by
// (nullptr = the whole database). nullptr when the job cannot be scored remotely: no effective
// parameters (a hand-built JobSpec), or the FASTA's bytes no longer have `fasta_sha256` (the
// file changed since the index was built); `why` then says which.
std::shared_ptr<const RemoteJobSetup> remote_job_setup(uint64_t job, const JobSpec& spec,
                                                       const std::string& fasta_sha256,
                                                       const PeptideIndex& index,
                                                       const std::vector<double>* query_masses_da,
                                                       std::string* why);

}  // namespace ionflow
