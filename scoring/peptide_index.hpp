// PeptideIndex: every unique peptide form of the database, sorted by neutral mass, with the
// proteins each occurs in. Built once per job from the proteins held in RAM; then read-only and
// safe to share between threads (scorers hold a const reference or shared_ptr<const>). The
// mutators (append, assign_columns) are for building only and need exclusive access.
//
// Layout (column-wise, no per-peptide heap allocation): one array of neutral masses (ascending,
// what mass_range and the scorer's null-peptide walk read), one 24-byte PeptideRecord per
// peptide, and three shared buffers the records point into: residues (the forms of one sequence
// share them), placed modifications and occurrences. peptide(i) returns a Peptide view
// (peptide.hpp) into the columns. Measured with Carbamidomethyl C fixed and Oxidation M
// variable (heap bytes after minus before the build, proteins excluded): 54.5 bytes per peptide
// on the human-size scale_db_20000_seed1.fasta (4.50 M peptides, 246 MB) and 53.6 on the E. coli
// target-decoy FASTA, against 168 and 171 with one std::string and two std::vectors per peptide.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scoring/modification.hpp"
#include "scoring/peptide.hpp"
#include "scoring/protein_list.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow {

// One peptide's offsets into the shared buffers of its PeptideIndex, and its flags.
struct PeptideRecord {
  uint32_t residues = 0;       // offset into PeptideIndex::residues()
  uint32_t modifications = 0;  // offset into PeptideIndex::placed_modifications()
  uint32_t occurrences = 0;    // offset into PeptideIndex::occurrences()
  uint32_t occurrence_count = 0;
  uint16_t length = 0;  // residues
  uint16_t modification_count = 0;
  uint8_t missed_cleavages = 0;
  uint8_t enzymatic_termini = 2;
  uint8_t decoy = 0;  // 0 or 1
  uint8_t flags = 0;  // kOutsideNullPool, or 0
};

// PeptideRecord::flags: the peptide is not one of the null sample's peptides (the scorer's null
// distribution of a narrow-window search draws only on peptides without it; see
// null_pool_stride). Hand-built indexes leave it clear: every peptide is in the null pool.
inline constexpr uint8_t kOutsideNullPool = 1;
static_assert(sizeof(PeptideRecord) == 24);

class PeptideIndex {
 public:
  ProteinList proteins;  // targets and decoys; shared by copies (protein_list.hpp)
  std::vector<Modification> modifications;  // fixed then variable, as PlacedModification indexes

  size_t size() const { return masses_.size(); }
  bool empty() const { return masses_.empty(); }

  // View of peptide i (REQUIRES: i < size()); valid while this index is alive and unmodified.
  Peptide peptide(size_t i) const {
    const PeptideRecord& r = records_[i];
    return Peptide{std::string_view(residues_.data() + r.residues, r.length),
                   {placed_.data() + r.modifications, r.modification_count},
                   {occurrences_.data() + r.occurrences, r.occurrence_count},
                   masses_[i],
                   r.decoy != 0,
                   r.missed_cleavages,
                   r.enzymatic_termini};
  }
  // Neutral mass (Da) and residue count of peptide i, without building a view.
  double neutral_mass_da(size_t i) const { return masses_[i]; }
  size_t length(size_t i) const { return records_[i].length; }

  // Half-open index range [first, last) of peptides with neutral mass in [lo_da, hi_da].
  std::pair<size_t, size_t> mass_range(double lo_da, double hi_da) const;

  // Appends a copy of `peptide` (its residues, modifications and occurrences are copied; the
  // view need not point into this index). For hand-built indexes: build_peptide_index and the
  // index cache fill the columns directly. Throws std::invalid_argument when its mass is below
  // the last peptide's (the order must stay ascending), its sequence is longer than 65535
  // residues, or a buffer would pass 2^32 entries.
  void append(const Peptide& peptide);

  // Bytes held by the peptide columns (capacity), without proteins and modifications.
  size_t peptide_bytes() const;

  // The columns, for serialization (io/index_cache.cpp).
  const std::vector<double>& masses() const { return masses_; }
  const std::vector<PeptideRecord>& records() const { return records_; }
  const std::string& residues() const { return residues_; }
  const std::vector<PlacedModification>& placed_modifications() const { return placed_; }
  const std::vector<PeptideOccurrence>& occurrences() const { return occurrences_; }
  // Ids of the peptides in the null pool (without kOutsideNullPool), ascending (so in mass
  // order); derived from the records, not stored.
  const std::vector<uint32_t>& null_pool() const { return null_pool_; }

  // Replaces the peptide columns. Validates them against each other and against `proteins` and
  // `modifications` (set those first): sizes match, masses ascending, every offset range inside
  // its buffer, modification ids and positions in range, occurrences inside their protein.
  // Throws std::invalid_argument naming the first bad peptide; the index is unchanged then.
  void assign_columns(std::vector<double> masses, std::vector<PeptideRecord> records,
                      std::string residues, std::vector<PlacedModification> placed,
                      std::vector<PeptideOccurrence> occurrences);
  // As assign_columns without the checks, for build_peptide_index, whose columns are valid by
  // construction (the checks were ~9% of its time). REQUIRES what assign_columns checks.
  void adopt_built_columns(std::vector<double> masses, std::vector<PeptideRecord> records,
                           std::string residues, std::vector<PlacedModification> placed,
                           std::vector<PeptideOccurrence> occurrences);

 private:
  std::vector<double> masses_;  // ascending, one per peptide
  std::vector<PeptideRecord> records_;
  std::string residues_;
  std::vector<PlacedModification> placed_;
  std::vector<PeptideOccurrence> occurrences_;
  std::vector<uint32_t> null_pool_;
};

// Thrown by build_peptide_index when its cancel flag is set; the build stops within a few
// thousand proteins or peptide groups (well under a second on one core).
class BuildCancelled : public std::runtime_error {
 public:
  BuildCancelled() : std::runtime_error("peptide index build cancelled") {}
};

// Limits and resources of one build. The default of 100 million peptide forms is about 5.5 GB
// of index (54.5 bytes per peptide, measured above) plus the build's temporary records.
// `threads` (>= 1) threads digest, sort and place modifications; the index is the same for
// every thread count (tests/scoring/peptide_index_parallel_test.cpp).
struct PeptideIndexLimits {
  uint64_t max_peptide_forms = 100'000'000;
  int threads = 1;
};

// Digests `proteins` with params.database (enzyme, missed cleavages, lengths, mass bounds,
// N-terminal Met clipping), places fixed and variable modifications, adds decoys as configured,
// merges identical peptide forms (I and L equal) and sorts by neutral mass.
// Before placing any modification it adds up, per unique sequence, an upper bound on its forms
// (ModificationPlacer::form_count_bound, mass bounds ignored); if the sum passes
// limits.max_peptide_forms it throws std::invalid_argument naming the bound, max_variable_mods
// and the variable modifications, so that a combinatorial job fails in seconds instead of
// running out of memory. `cancel` (may be null) is read every few thousand proteins or peptide
// groups; once it is true the build throws BuildCancelled.
// Throws std::invalid_argument for impossible parameters (unknown enzyme, min > max), and
// std::length_error when a peptide buffer would pass 2^32 entries.
// The null pool: build_peptide_index marks every peptide outside it kOutsideNullPool. A sequence
// is in the pool when a hash of its first eight residues (I as L) and its length is 0 modulo
// null_pool_stride(occurrences) — a deterministic 1-in-stride sample of the sequences, the same in
// a full and in a selected build — where `occurrences` counts the digested peptide occurrences
// (DigestedDatabase::occurrences()). The stride is the largest power of two with at least
// kNullPoolMinOccurrences occurrences per pool slot, at least 1: databases of fewer than 2 x 16,384
// occurrences keep every peptide in the pool (the BSA example database, 1.19 M occurrences, has
// stride 64; the human-size scale database, 3.40 M, 128).
inline constexpr uint64_t kNullPoolMinOccurrences = 16384;
uint32_t null_pool_stride(uint64_t occurrences);

class PrecursorSelection;  // precursor_selection.hpp

// The database digested, before any query is known: the proteins (with generated decoys) and
// one record per peptide occurrence (24 bytes), or, digested for a selection, one 8-byte range
// per digested peptide whose records build_peptide_index makes once the selection is known.
// Made by digest_database, consumed by build_peptide_index; move-only.
class DigestedDatabase {
 public:
  struct Impl;
  explicit DigestedDatabase(std::unique_ptr<Impl> impl);
  DigestedDatabase(DigestedDatabase&&) noexcept;
  DigestedDatabase& operator=(DigestedDatabase&&) noexcept;
  ~DigestedDatabase();

  // Digested peptide occurrences (targets and decoys, before merging identical sequences).
  uint64_t occurrences() const;
  // Proteins, generated decoys included.
  size_t proteins() const;
  // True if build_peptide_index can take a PrecursorSelection: digested for_selection, with
  // modifications FormMassShifts::supported(); a selection is ignored otherwise.
  bool selectable() const;

 private:
  friend std::shared_ptr<const PeptideIndex> build_peptide_index(DigestedDatabase,
                                                                 const PrecursorSelection*,
                                                                 const std::atomic<bool>*,
                                                                 PeptideIndexLimits);
  friend std::shared_ptr<const PeptideIndex> build_selected_peptide_index(const DigestedDatabase&,
                                                                          const PrecursorSelection&,
                                                                          const std::atomic<bool>*,
                                                                          PeptideIndexLimits);
  std::unique_ptr<Impl> impl_;
};

// Step 1 of build_peptide_index: digests `proteins` (adding decoys as configured) on
// limits.threads threads. It does not depend on any query, so a job runs it while its spectra
// are read. `for_selection`: keep 8-byte peptide ranges for a PrecursorSelection (their base
// masses and modification sites are computed when it is known); false for a whole index. Throws as
// build_peptide_index; BuildCancelled when `cancel` is set.
DigestedDatabase digest_database(std::vector<Protein> proteins, const SearchParameters& params,
                                 const std::atomic<bool>* cancel = nullptr,
                                 PeptideIndexLimits limits = {}, bool for_selection = true);

// The rest of the build (merging, modifications, mass order) on the digested peptides — all of
// them, or with `selection` (may be null; ignored unless digested.selectable()) only the
// sequences that have a form inside the selection (precursor_selection.hpp) or are in the null
// pool. A selected index holds, for every mass the selection contains, exactly the peptides the
// full index holds there, in the same order; it is much smaller when the windows are narrow.
// Throws as below.
std::shared_ptr<const PeptideIndex> build_peptide_index(DigestedDatabase digested,
                                                        const PrecursorSelection* selection,
                                                        const std::atomic<bool>* cancel = nullptr,
                                                        PeptideIndexLimits limits = {});

// The same selected build without consuming `digested`, which stays usable for the next
// selection: a job that selects per sorted run of its queries (actors/sorter.cpp) builds one
// index per run from one digest. Every index shares the digest's ProteinList (no copy). Equal to
// build_peptide_index(a copy of digested, &selection). Throws std::invalid_argument when
// !digested.selectable(), else as below.
std::shared_ptr<const PeptideIndex> build_selected_peptide_index(
    const DigestedDatabase& digested, const PrecursorSelection& selection,
    const std::atomic<bool>* cancel = nullptr, PeptideIndexLimits limits = {});

// digest_database then build_peptide_index without a selection: every peptide of the database.
std::shared_ptr<const PeptideIndex> build_peptide_index(std::vector<Protein> proteins,
                                                        const SearchParameters& params,
                                                        const std::atomic<bool>* cancel = nullptr,
                                                        PeptideIndexLimits limits = {});

}  // namespace ionflow
