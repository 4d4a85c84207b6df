#include "io/index_checksum.hpp"

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string_view>
#include <vector>

#include "io/sha256.hpp"

namespace ionflow {
namespace {

template <class T>
void add_column(Sha256& sha, const std::vector<T>& column) {
  const uint64_t n = column.size();
  sha.update(std::string_view(reinterpret_cast<const char*>(&n), sizeof n));
  sha.update(std::string_view(reinterpret_cast<const char*>(column.data()), n * sizeof(T)));
}

void add_string(Sha256& sha, const std::string& s) {
  const uint64_t n = s.size();
  sha.update(std::string_view(reinterpret_cast<const char*>(&n), sizeof n));
  sha.update(s);
}

template <class T>
void add_value(Sha256& sha, T value) {
  sha.update(std::string_view(reinterpret_cast<const char*>(&value), sizeof value));
}

}  // namespace

std::string peptide_index_checksum(const PeptideIndex& index) {
  Sha256 sha;
  add_column(sha, index.masses());
  add_column(sha, index.records());
  add_string(sha, index.residues());
  add_column(sha, index.placed_modifications());
  add_column(sha, index.occurrences());
  add_value(sha, static_cast<uint64_t>(index.proteins.size()));
  for (const Protein& p : index.proteins) {
    add_string(sha, p.accession);
    add_string(sha, p.sequence);
    add_value(sha, static_cast<uint8_t>(p.is_decoy));
  }
  add_value(sha, static_cast<uint64_t>(index.modifications.size()));
  for (const Modification& m : index.modifications) {
    add_string(sha, m.name);
    add_value(sha, static_cast<int64_t>(m.unimod_accession));
    add_value(sha, m.mass_delta_da);
    add_value(sha, static_cast<int64_t>(m.position));
    add_string(sha, m.residues);
    add_value(sha, static_cast<uint8_t>(m.fixed));
  }
  return sha.hex_digest();
}

std::shared_ptr<const RemoteJobSetup> remote_job_setup(uint64_t job, const JobSpec& spec,
                                                       const std::string& fasta_sha256,
                                                       const PeptideIndex& index,
                                                       const std::vector<double>* query_masses_da,
                                                       std::string* why) {
  if (spec.effective_parameters_json.empty()) {
    *why = "the job has no effective parameters to send";
    return nullptr;
  }
  auto setup = std::make_shared<RemoteJobSetup>();
  std::ifstream in(spec.fasta_path, std::ios::binary);
  setup->fasta_bytes.assign(std::istreambuf_iterator<char>(in), {});
  setup->fasta_sha256 = sha256_hex(setup->fasta_bytes);
  if (!in.is_open() || setup->fasta_sha256 != fasta_sha256) {
    *why = spec.fasta_path + " changed since its index was built (SHA-256 " +
           setup->fasta_sha256.substr(0, 16) + ", was " + fasta_sha256.substr(0, 16) + ")";
    return nullptr;
  }
  setup->job = job;
  setup->effective_parameters_json = spec.effective_parameters_json;
  setup->index_checksum = peptide_index_checksum(index);
  if (query_masses_da) setup->query_neutral_masses_da = *query_masses_da;
  return setup;
}

}  // namespace ionflow
