// digest_database (peptide_index.hpp): step 1 of the index build. Decoy proteins are appended
// after the input proteins (input indices are kept): for kReversePeptide one per target with the
// target's sequence (so a decoy occurrence's start, pre and post residues are those of the target
// peptide it reverses), for kReverseProtein one per target with the reversed sequence. The
// proteins are digested in slices of about equal residues, kSlicesPerThread per thread.
#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>

#include "scoring/decoy.hpp"
#include "scoring/digest.hpp"
#include "scoring/enzyme.hpp"
#include "scoring/index_records.hpp"
#include "scoring/parallel.hpp"
#include "scoring/peptide_index.hpp"
#include "scoring/precursor_selection.hpp"
#include "scoring/protein_slices.hpp"

namespace ionflow {
using namespace index_build;
namespace {

void validate(const DatabaseParameters& db) {
  const auto& e = db.enzyme;
  if (e.min_length < 1) {
    throw std::invalid_argument("enzyme min_length must be >= 1, got " +
                                std::to_string(e.min_length));
  }
  if (e.min_length > e.max_length) {
    throw std::invalid_argument("enzyme min_length (" + std::to_string(e.min_length) +
                                ") > max_length (" + std::to_string(e.max_length) + ")");
  }
  if (e.max_length > 65535) {
    throw std::invalid_argument("enzyme max_length must be <= 65535, got " +
                                std::to_string(e.max_length));
  }
  if (e.missed_cleavages < 0) {
    throw std::invalid_argument("missed_cleavages must be >= 0, got " +
                                std::to_string(e.missed_cleavages));
  }
  if (db.peptide_min_mass_da > db.peptide_max_mass_da) {
    throw std::invalid_argument("peptide_min_mass_da > peptide_max_mass_da");
  }
}

// Appends one generated decoy per target protein (nothing for DecoyGeneration::kNone); returns,
// per input protein, the index of its decoy (0 for none).
std::vector<uint32_t> append_decoys(std::vector<Protein>& proteins, const DatabaseParameters& db) {
  const size_t input_count = proteins.size();
  std::vector<uint32_t> decoy_of(input_count, 0);
  if (db.decoy_generation == DecoyGeneration::kNone) return decoy_of;
  size_t targets = 0;
  for (const auto& p : proteins) targets += p.is_decoy ? 0 : 1;
  proteins.reserve(input_count + targets);
  const bool reverse_sequence = db.decoy_generation == DecoyGeneration::kReverseProtein;
  for (size_t i = 0; i < input_count; ++i) {
    if (proteins[i].is_decoy) continue;
    decoy_of[i] = static_cast<uint32_t>(proteins.size());
    proteins.push_back(
        decoy_protein(proteins[i], db.decoy_tag, db.decoy_tag_is_suffix, reverse_sequence));
  }
  return decoy_of;
}

// What every slice's digestion reads (shared, read-only, by the digest threads).
struct SliceDigest {
  const std::vector<Protein>& proteins;  // generated decoys appended
  const DatabaseParameters& db;
  const Enzyme& enzyme;
  const DigestOptions& options;
  const Residues& residues;
  const std::vector<uint32_t>& decoy_of;  // append_decoys
  size_t input_count;                     // proteins before the generated decoys
  bool generate;                          // decoys are generated
  bool selectable;                        // keep peptide ranges, not records
  const std::atomic<bool>* cancel;
};

// Room for a slice's output at once: growing by doubling touched about twice its final size in
// fresh pages. An over-estimate costs nothing (untouched pages are never faulted in): an
// enzymatic digest makes at most (missed + 1) peptides per site, and trypsin has a site every ~9
// residues (K, R).
void reserve_slice(const SliceDigest& d, DigestedDatabase::Impl& impl, size_t slice, size_t first,
                   size_t last) {
  if (d.options.semi_specific || d.enzyme.cleaves_every_bond()) return;
  size_t residues_in_slice = 0;
  for (size_t i = first; i < last; ++i) residues_in_slice += d.proteins[i].sequence.size();
  size_t estimate = residues_in_slice / 5 * static_cast<size_t>(d.options.missed_cleavages + 1);
  if (d.selectable) {
    impl.peptides[slice].reserve(estimate);
    return;
  }
  if (d.db.decoy_generation == DecoyGeneration::kReversePeptide) estimate *= 2;
  impl.slices[slice].reserve(estimate);
}

// Digests proteins [first, last) into slice `slice` of `impl` (records, or peptide ranges when
// selectable); returns the peptide occurrences it made (reversed peptides included).
uint64_t digest_slice(const SliceDigest& d, DigestedDatabase::Impl& impl, size_t slice,
                      size_t first, size_t last) {
  reserve_slice(d, impl, slice, first, last);
  if (d.selectable) {
    impl.slice_proteins[slice] = {first, last};
    impl.peptides_end[slice].reserve(last - first);
  }
  const bool reverse_peptides = d.db.decoy_generation == DecoyGeneration::kReversePeptide;
  std::vector<Record>& records = impl.slices[slice];
  std::vector<DigestedPeptide> digested;
  uint64_t occurrences = 0;
  for (size_t i = first; i < last; ++i) {
    check_cancel_every_1024(d.cancel, i);
    const Protein& protein = d.proteins[i];
    const bool generated = i >= d.input_count;
    const bool skipped = (protein.is_decoy && !generated && d.generate) ||  // FASTA decoys replaced
                         (generated && reverse_peptides);
    digested.clear();
    if (!skipped) digest(protein.sequence, d.enzyme, d.options, digested);
    const bool reversed_too = reverse_peptides && !protein.is_decoy;
    occurrences += digested.size() * (reversed_too ? 2 : 1);
    if (d.selectable) {
      std::vector<DigestedPeptideRange>& ranges = impl.peptides[slice];
      for (const auto& peptide : digested) ranges.push_back(range_of(peptide));
      impl.peptides_end[slice].push_back(static_cast<uint32_t>(ranges.size()));
      continue;
    }
    const auto p = static_cast<uint32_t>(i);
    for (const auto& peptide : digested) {
      const DigestedPeptideRange range = range_of(peptide);
      records.push_back(record_of(p, p, range, protein.is_decoy ? kDecoy : 0, d.residues));
      if (reversed_too) {
        records.push_back(record_of(p, d.decoy_of[i], range, kDecoy | kReversed, d.residues));
      }
    }
  }
  return occurrences;
}
}  // namespace

DigestedDatabase::DigestedDatabase(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
DigestedDatabase::DigestedDatabase(DigestedDatabase&&) noexcept = default;
DigestedDatabase& DigestedDatabase::operator=(DigestedDatabase&&) noexcept = default;
DigestedDatabase::~DigestedDatabase() = default;
uint64_t DigestedDatabase::occurrences() const {
  return impl_->occurrences;
}
size_t DigestedDatabase::proteins() const {
  return impl_->proteins.size();
}
bool DigestedDatabase::selectable() const {
  return impl_->selectable;
}

DigestedDatabase digest_database(std::vector<Protein> proteins, const SearchParameters& params,
                                 const std::atomic<bool>* cancel, PeptideIndexLimits limits,
                                 bool for_selection) {
  const DatabaseParameters& db = params.database;
  validate(db);
  const Enzyme enzyme(db.enzyme);
  auto impl = std::make_unique<DigestedDatabase::Impl>(params);
  const size_t input_count = proteins.size();
  const std::vector<uint32_t> decoy_of = append_decoys(proteins, db);
  if (proteins.size() > UINT32_MAX) throw std::invalid_argument("too many proteins");

  const int threads = std::max(1, limits.threads);
  impl->selectable = for_selection && impl->shifts.supported();
  // Digest into records, one slice of the proteins per thread (the sort that follows makes the
  // order of the slices irrelevant). A selectable database keeps 8-byte peptide ranges instead:
  // the records (24 bytes each, with a base mass and modification sites to select them by) of
  // all 1.19 M occurrences of the BSA demo database were ~48 MB of fresh pages to fault in.
  const DigestOptions options = digest_options_from(db);
  const Residues residues(proteins);
  const SliceDigest work{
      proteins,         db,       enzyme,      options,
      residues,         decoy_of, input_count, db.decoy_generation != DecoyGeneration::kNone,
      impl->selectable, cancel};
  // kSlicesPerThread slices of about equal residues per thread, handed out as threads become
  // free (parallel.hpp): the parser shares the cores while the database is digested.
  const size_t slices = threads == 1 ? 1 : static_cast<size_t>(threads) * kSlicesPerThread;
  const std::vector<size_t> slice_start = protein_slice_starts(proteins, slices);
  impl->slices.resize(slices);
  if (impl->selectable) {
    impl->slice_proteins.resize(slices);
    impl->peptides.resize(slices);
    impl->peptides_end.resize(slices);
    impl->decoy_of = decoy_of;
  }
  std::vector<uint64_t> slice_occurrences(slices, 0);
  parallel_tasks(threads, slices, [&](size_t slice) {
    slice_occurrences[slice] =
        digest_slice(work, *impl, slice, slice_start[slice], slice_start[slice + 1]);
  });
  for (uint64_t n : slice_occurrences) impl->occurrences += n;
  impl->proteins = std::move(proteins);
  return DigestedDatabase(std::move(impl));
}

}  // namespace ionflow
