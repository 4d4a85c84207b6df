// Builds the PeptideIndex (peptide_index.hpp): digest (digest.hpp), decoys (decoy.hpp),
// merge identical sequences (I and L equal; targets win), place modifications
// (modified_forms.hpp), filter by mass and sort.
//
// Memory: digestion produces 24-byte records that point into the protein sequences. The index
// is column-wise (peptide_index.hpp): a first pass over the groups sizes every column exactly,
// a second fills them (residues once per sequence, shared by its forms); the mass sort then
// permutes only masses and 24-byte PeptideRecords.
//
// Threads (PeptideIndexLimits::threads): digestion runs on slices of the proteins, the sequence
// sort on buckets, the group passes on slices of the sorted records cut at group boundaries
// (each slice writes its own part of the exactly-sized columns), the mass permutation on
// slices; every step's output is independent of the slicing, so the index is byte-identical
// for any thread count. BSA demo index (1.47 M forms, perf/bench_digest): 1338 ms on one
// thread before this layout, 580 ms on one thread and ~360 ms on two after it.
//
// Files: index_records.hpp (the records), digest_database.cpp (step 1), index_sort.hpp (the
// sorts); here the PeptideIndex itself, the record expansion of a selection, the group pass and
// the assembly.
#include "scoring/peptide_index.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

#include "scoring/index_records.hpp"
#include "scoring/index_sort.hpp"
#include "scoring/mass.hpp"
#include "scoring/modified_forms.hpp"
#include "scoring/parallel.hpp"
#include "scoring/precursor_selection.hpp"

namespace ionflow {
using namespace index_build;
namespace {

// mass::peptide_mass (same additions in the same order, so the same double) for a sequence of
// residues of defined mass only (digest.hpp skips peptides with any other), kept out
// of line: inlined into the group loop GCC kept the running sum in memory, a store-to-load
// round trip per residue that cost ~15% of the whole build.
[[gnu::noinline]] double defined_peptide_mass(std::string_view sequence) {
  double m = mass::kWater;
  for (char c : sequence) m += mass::detail::kResidueTable[c - 'A'];
  return m;
}

}  // namespace

std::pair<size_t, size_t> PeptideIndex::mass_range(double lo_da, double hi_da) const {
  const auto first = std::lower_bound(masses_.begin(), masses_.end(), lo_da);
  const auto last = std::upper_bound(first, masses_.end(), hi_da);
  return {static_cast<size_t>(first - masses_.begin()),
          static_cast<size_t>(last - masses_.begin())};
}

void PeptideIndex::append(const Peptide& peptide) {
  if (!masses_.empty() && peptide.neutral_mass_da < masses_.back()) {
    throw std::invalid_argument("PeptideIndex::append: peptide " + std::string(peptide.sequence) +
                                " breaks the ascending mass order");
  }
  if (peptide.sequence.size() > UINT16_MAX || peptide.modifications.size() > UINT16_MAX) {
    throw std::invalid_argument("PeptideIndex::append: peptide longer than 65535 residues");
  }
  if (residues_.size() + peptide.sequence.size() > UINT32_MAX ||
      placed_.size() + peptide.modifications.size() > UINT32_MAX ||
      occurrences_.size() + peptide.occurrences.size() > UINT32_MAX) {
    throw std::invalid_argument("PeptideIndex::append: a peptide buffer would pass 2^32 entries");
  }
  PeptideRecord r;
  r.residues = static_cast<uint32_t>(residues_.size());
  r.length = static_cast<uint16_t>(peptide.sequence.size());
  r.modifications = static_cast<uint32_t>(placed_.size());
  r.modification_count = static_cast<uint16_t>(peptide.modifications.size());
  r.occurrences = static_cast<uint32_t>(occurrences_.size());
  r.occurrence_count = static_cast<uint32_t>(peptide.occurrences.size());
  r.missed_cleavages = peptide.missed_cleavages;
  r.enzymatic_termini = peptide.enzymatic_termini;
  r.decoy = peptide.decoy ? 1 : 0;
  null_pool_.push_back(static_cast<uint32_t>(records_.size()));
  residues_.append(peptide.sequence);
  placed_.insert(placed_.end(), peptide.modifications.begin(), peptide.modifications.end());
  occurrences_.insert(occurrences_.end(), peptide.occurrences.begin(), peptide.occurrences.end());
  masses_.push_back(peptide.neutral_mass_da);
  records_.push_back(r);
}

size_t PeptideIndex::peptide_bytes() const {
  return masses_.capacity() * sizeof(double) + records_.capacity() * sizeof(PeptideRecord) +
         residues_.capacity() + placed_.capacity() * sizeof(PlacedModification) +
         occurrences_.capacity() * sizeof(PeptideOccurrence);
}

void PeptideIndex::assign_columns(std::vector<double> masses, std::vector<PeptideRecord> records,
                                  std::string residues, std::vector<PlacedModification> placed,
                                  std::vector<PeptideOccurrence> occurrences) {
  if (masses.size() != records.size()) {
    throw std::invalid_argument("peptide index: " + std::to_string(masses.size()) + " masses for " +
                                std::to_string(records.size()) + " peptides");
  }
  for (size_t i = 0; i < records.size(); ++i) {
    const PeptideRecord& r = records[i];
    auto fail = [&](const std::string& what) {
      throw std::invalid_argument("peptide index: peptide " + std::to_string(i) + " " + what);
    };
    if (i > 0 && !(masses[i - 1] <= masses[i])) fail("breaks the ascending mass order");
    if (uint64_t{r.residues} + r.length > residues.size()) fail("has residues outside the buffer");
    if (uint64_t{r.modifications} + r.modification_count > placed.size()) {
      fail("has modifications outside the buffer");
    }
    if (uint64_t{r.occurrences} + r.occurrence_count > occurrences.size()) {
      fail("has occurrences outside the buffer");
    }
    if (r.decoy > 1 || r.enzymatic_termini > 2 || (r.flags & ~kOutsideNullPool) != 0) {
      fail("has invalid flags");
    }
    for (uint32_t m = 0; m < r.modification_count; ++m) {
      const PlacedModification& pm = placed[r.modifications + m];
      if (pm.modification >= modifications.size() || pm.position < -1 || pm.position > r.length) {
        fail("names a modification or position outside its range");
      }
    }
    for (uint32_t o = 0; o < r.occurrence_count; ++o) {
      const PeptideOccurrence& occ = occurrences[r.occurrences + o];
      if (occ.protein >= proteins.size() ||
          uint64_t{occ.start} + r.length > proteins[occ.protein].sequence.size()) {
        fail("has an occurrence outside its protein");
      }
    }
  }
  adopt_built_columns(std::move(masses), std::move(records), std::move(residues), std::move(placed),
                      std::move(occurrences));
}

void PeptideIndex::adopt_built_columns(std::vector<double> masses,
                                       std::vector<PeptideRecord> records, std::string residues,
                                       std::vector<PlacedModification> placed,
                                       std::vector<PeptideOccurrence> occurrences) {
  masses_ = std::move(masses);
  records_ = std::move(records);
  residues_ = std::move(residues);
  placed_ = std::move(placed);
  occurrences_ = std::move(occurrences);
  null_pool_.clear();
  for (size_t i = 0; i < records_.size(); ++i) {
    if ((records_[i].flags & kOutsideNullPool) == 0) null_pool_.push_back(static_cast<uint32_t>(i));
  }
  null_pool_.shrink_to_fit();
}

uint32_t null_pool_stride(uint64_t occurrences) {
  uint32_t stride = 1;
  while (stride < (uint32_t{1} << 30) && occurrences / kNullPoolMinOccurrences >= 2 * stride) {
    stride *= 2;
  }
  return stride;
}

std::shared_ptr<const PeptideIndex> build_peptide_index(std::vector<Protein> proteins,
                                                        const SearchParameters& params,
                                                        const std::atomic<bool>* cancel,
                                                        PeptideIndexLimits limits) {
  return build_peptide_index(digest_database(std::move(proteins), params, cancel, limits, false),
                             nullptr, cancel, limits);
}

namespace {

// The null pool (peptide_index.hpp): decided by key8 and length, so by the sequence (I = L).
struct NullPool {
  uint32_t stride = 1;
  bool contains(const Record& r) const {
    uint64_t h = r.key8 ^ (uint64_t{r.length} * 0x9e3779b97f4a7c15ull);
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;  // splitmix64's finalizer
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    h ^= h >> 31;
    return (h & (stride - 1)) == 0;
  }
};

// A selectable digest: makes the records of the peptide ranges into `slices` (one vector per
// digest slice), keeping (with a selection) only those whose sequence has a form the selection
// contains or is in the null pool. Both tests depend only on the sequence (I = L), so a
// sequence's records are kept or dropped together. The ranges stay (see free_ranges).
void make_selected_records(const DigestedDatabase::Impl& im, const PrecursorSelection* selection,
                           const Residues& residues, const NullPool& null_pool, int threads,
                           const std::atomic<bool>* cancel,
                           std::vector<std::vector<Record>>& slices) {
  slices.resize(im.peptides.size());
  const FormMassShifts& shifts = im.shifts;
  const bool reverse_peptides =
      im.params.database.decoy_generation == DecoyGeneration::kReversePeptide;
  parallel_tasks(threads, im.peptides.size(), [&](size_t s) {
    std::vector<double> mass_prefix;
    std::vector<uint64_t> eligible_prefix;
    std::vector<Record>& records = slices[s];
    const std::vector<DigestedPeptideRange>& ranges = im.peptides[s];
    const auto [first_protein, last_protein] = im.slice_proteins[s];
    size_t k = 0;
    for (size_t i = first_protein; i < last_protein; ++i) {
      check_cancel_every_1024(cancel, i);
      const size_t k_end = im.peptides_end[s][i - first_protein];
      if (k == k_end) continue;
      const Protein& protein = im.proteins[i];
      shifts.prefix_sums(protein.sequence, mass_prefix, eligible_prefix);
      const auto p = static_cast<uint32_t>(i);
      const bool reversed_too = reverse_peptides && !protein.is_decoy;
      for (; k < k_end; ++k) {
        const DigestedPeptideRange& range = ranges[k];
        const size_t end = size_t{range.start} + range.length;
        const uint64_t sites = eligible_prefix[end] - eligible_prefix[range.start];
        const double m = shifts.water_da() + (mass_prefix[end] - mass_prefix[range.start]);
        const bool selected = selection == nullptr || shifts.any_shift(sites, [&](double shift) {
          return selection->contains(m + shift);
        });
        const Record r = record_of(p, p, range, protein.is_decoy ? kDecoy : 0, residues);
        if (selected || null_pool.contains(r)) records.push_back(r);
        if (reversed_too) {  // the same base mass and sites, reversed residues
          const Record rr = record_of(p, im.decoy_of[i], range, kDecoy | kReversed, residues);
          if (selected || null_pool.contains(rr)) records.push_back(rr);
        }
      }
    }
  });
}

void free_ranges(DigestedDatabase::Impl& im) {
  std::vector<std::vector<DigestedPeptideRange>>().swap(im.peptides);
  std::vector<std::vector<uint32_t>>().swap(im.peptides_end);
}

// Step 2: all records in one vector, by sequence (I = L), targets first, then protein and
// start — a total order on distinct occurrences, so the result does not depend on the thread
// count. Consumes the slices.
std::vector<Record> sort_occurrences(std::vector<std::vector<Record>>& slices,
                                     const Residues& residues, int threads,
                                     const std::atomic<bool>* cancel) {
  return sort_records(
      slices, threads,
      [&](const Record& a, const Record& b) {
        const int c = residues.compare(a, b);
        if (c != 0) return c < 0;
        const int da = a.flags & kDecoy, dbf = b.flags & kDecoy;
        if (da != dbf) return da < dbf;
        if (a.protein != b.protein) return a.protein < b.protein;
        return a.start < b.start;
      },
      cancel);
}

// One modified form of a group's sequence.
struct GroupForm {
  uint32_t first;  // into Group::placed
  uint32_t count;
  double mass_da;
  uint8_t classes;  // bit c set: occurrences of terminus class c carry this form
};

// Per-thread scratch for one group.
struct Group {
  std::vector<GroupForm> forms;
  std::vector<PlacedModification> placed;
  ModifiedForms modified;
  std::unordered_multimap<uint64_t, size_t> form_by_hash;  // placements hash -> forms index
  std::string sequence;
};

// Sizes of the index columns (or, per slice, its offsets into them).
struct ColumnSizes {
  size_t peptides = 0, residues = 0, placed = 0, occurrences = 0;
};

// The index columns in build (sequence) order.
struct Columns {
  std::vector<double> masses;
  std::vector<PeptideRecord> peptides;
  std::string residues;
  std::vector<PlacedModification> placed;
  std::vector<PeptideOccurrence> occurrences;
};

// Step 3 over the sorted records: one group per sequence (I = L), forms per protein-terminus
// class, merged by placements. The records are cut into kSlicesPerThread slices per thread at
// group boundaries, handed out as threads become free (forms per record vary along the
// sequence order); each slice is run twice: first to count its peptides (so that every column
// is allocated once, at its exact size: the columns dominate memory), then to fill its part.
class GroupPass {
 public:
  GroupPass(const std::vector<Record>& records, const Residues& residues,
            const ModificationPlacer& placer, const DatabaseParameters& db, int threads,
            const std::atomic<bool>* cancel)
      : records_(records),
        residues_(residues),
        placer_(placer),
        db_(db),
        threads_(threads),
        cancel_(cancel),
        by_terminus_(placer.has_protein_terminal()) {
    const size_t slices = threads == 1 ? 1 : static_cast<size_t>(threads) * kSlicesPerThread;
    cut_.assign(slices + 1, records.size());
    cut_[0] = 0;
    for (size_t s = 1; s < cut_.size() - 1; ++s) {
      size_t at = std::max(cut_[s - 1], records.size() * s / slices);
      while (at > 0 && at < records.size() && residues.compare(records[at - 1], records[at]) == 0) {
        ++at;
      }
      cut_[s] = at;
    }
  }

  size_t slices() const { return cut_.size() - 1; }
  void check_form_bound(uint64_t max_peptide_forms) const;
  std::vector<ColumnSizes> slice_offsets() const;
  void fill(const std::vector<ColumnSizes>& offsets, const NullPool& null_pool,
            Columns& columns) const;

 private:
  int class_of(const Record& r) const {
    if (!by_terminus_) return 0;
    return ((r.flags & kProteinN) ? 1 : 0) | ((r.flags & kProteinC) ? 2 : 0);
  }
  void collect_forms(Group& g, size_t begin, size_t end) const;

  // Calls fn(begin, kept_end) per group of records [first, last); [begin, kept_end) are the
  // kept records: targets sort first, so a target in the group drops its decoys (target wins).
  template <typename Fn>
  void for_each_group(size_t first, size_t last, Fn&& fn) const {
    const std::vector<Record>& records = records_;
    size_t begin = first;
    size_t groups = 0;
    while (begin < last) {
      check_cancel_every_1024(cancel_, groups++);
      // The residues are random accesses into the proteins: ask for those a few groups ahead.
      if (begin + 12 < last) __builtin_prefetch(residues_.data(records[begin + 12]));
      size_t end = begin + 1;
      while (end < last && residues_.compare(records[begin], records[end]) == 0) ++end;
      const bool decoy = (records[begin].flags & kDecoy) != 0;
      size_t kept_end = begin;
      while (kept_end < end && ((records[kept_end].flags & kDecoy) != 0) == decoy) ++kept_end;
      fn(begin, kept_end);
      begin = end;
    }
  }
  template <typename Fn>
  void for_each_slice(Fn&& fn) const {
    parallel_tasks(threads_, slices(), [&](size_t s) { fn(s, cut_[s], cut_[s + 1]); });
  }
  // Occurrences of `form` among records [begin, kept_end) (sorted by protein, start), each
  // (protein, start) once.
  template <typename Fn>
  void for_each_occurrence(size_t begin, size_t kept_end, const GroupForm& form, Fn&& fn) const {
    const Record* last = nullptr;
    for (size_t r = begin; r < kept_end; ++r) {
      const Record& rec = records_[r];
      if (!(form.classes & (1u << class_of(rec)))) continue;
      if (last != nullptr && last->protein == rec.protein && last->start == rec.start) continue;
      last = &rec;
      fn(rec);
    }
  }

  const std::vector<Record>& records_;
  const Residues& residues_;
  const ModificationPlacer& placer_;
  const DatabaseParameters& db_;
  const int threads_;
  const std::atomic<bool>* const cancel_;
  const bool by_terminus_;
  std::vector<size_t> cut_;  // slice s: records [cut_[s], cut_[s + 1]), cut at group starts
};

// Fills g.forms for records [begin, end) (all of one decoy status).
void GroupPass::collect_forms(Group& g, size_t begin, size_t end) const {
  g.forms.clear();
  g.placed.clear();
  const Record& first = records_[begin];
  residues_.copy(first, g.sequence);
  const double base_mass = defined_peptide_mass(g.sequence);
  unsigned present = 0;
  for (size_t r = begin; r < end; ++r) present |= 1u << class_of(records_[r]);
  const int present_count = __builtin_popcount(present);
  int classes_seen = 0;
  if (present_count > 1) g.form_by_hash.clear();
  for (int cls = 0; cls < 4; ++cls) {
    if (!(present & (1u << cls))) continue;
    if (classes_seen > 0) check_cancel_every_1024(cancel_, 0);
    placer_.place(g.sequence, (cls & 1) != 0, (cls & 2) != 0, g.modified);
    for (const auto& form : g.modified.forms) {
      const double mass = base_mass + form.mass_delta_da;
      if (mass < db_.peptide_min_mass_da || mass > db_.peptide_max_mass_da) continue;
      const PlacedModification* placed = g.modified.placed.data() + form.first;
      // Forms of one class are distinct; only another class can repeat one. Look it up
      // by the hash of its placements (a linear search was quadratic in the forms).
      uint64_t hash = 1469598103934665603ull;
      for (uint32_t k = 0; k < form.count; ++k) {
        hash = (hash ^ static_cast<uint16_t>(placed[k].position)) * 1099511628211ull;
        hash = (hash ^ placed[k].modification) * 1099511628211ull;
      }
      GroupForm* match = nullptr;
      if (classes_seen > 0) {
        auto [lo, hi] = g.form_by_hash.equal_range(hash);
        for (auto it = lo; it != hi && match == nullptr; ++it) {
          GroupForm& candidate = g.forms[it->second];
          if (candidate.count == form.count &&
              std::equal(placed, placed + form.count, g.placed.begin() + candidate.first,
                         [](const PlacedModification& x, const PlacedModification& y) {
                           return x.position == y.position && x.modification == y.modification;
                         })) {
            match = &candidate;
          }
        }
      }
      if (match == nullptr) {
        if (present_count > 1) g.form_by_hash.emplace(hash, g.forms.size());
        g.forms.push_back({static_cast<uint32_t>(g.placed.size()), form.count, mass, 0});
        g.placed.insert(g.placed.end(), placed, placed + form.count);
        match = &g.forms.back();
      }
      match->classes = static_cast<uint8_t>(match->classes | (1u << cls));
    }
    ++classes_seen;
  }
}

// Guard: an upper bound on the forms, from the sequences alone (nothing placed yet). The
// threads share the running total and all stop once it passes the limit.
void GroupPass::check_form_bound(uint64_t max_peptide_forms) const {
  std::atomic<uint64_t> bound{0};
  std::atomic<uint64_t> sequences{0};
  std::atomic<bool> exceeded{false};
  for_each_slice([&](size_t, size_t first, size_t last) {
    std::string sequence;
    uint64_t local_bound = 0, local_sequences = 0;
    auto publish = [&] {
      bound += local_bound;
      sequences += local_sequences;
      local_bound = local_sequences = 0;
      if (bound.load() > max_peptide_forms) exceeded = true;
    };
    for_each_group(first, last, [&](size_t begin, size_t) {
      if (exceeded.load(std::memory_order_relaxed)) return;
      const Record& r = records_[begin];
      residues_.copy(r, sequence);
      local_bound += placer_.form_count_bound(sequence);
      ++local_sequences;
      if (local_bound > 65536 || local_bound > max_peptide_forms) publish();
    });
    publish();
  });
  if (!exceeded) return;
  std::string names;
  for (const auto& m : db_.variable_modifications) names += (names.empty() ? "" : ", ") + m.name;
  throw std::invalid_argument(
      "the peptide index would hold more than " + std::to_string(max_peptide_forms) +
      " peptide forms (already " + std::to_string(bound.load()) + " after " +
      std::to_string(sequences.load()) + " of the sequences; max_variable_mods " +
      std::to_string(db_.max_variable_modifications) + " with " +
      std::to_string(db_.variable_modifications.size()) + " variable modifications: " + names +
      "); lower database.max_variable_mods or remove variable modifications");
}

// First pass: the exact column sizes per slice, as running sums: element s is the offsets of
// slice s, the last element the totals. Throws std::length_error past 2^32 entries.
std::vector<ColumnSizes> GroupPass::slice_offsets() const {
  std::vector<ColumnSizes> sizes(slices() + 1);  // sizes[s + 1]: slice s
  for_each_slice([&](size_t s, size_t first, size_t last) {
    Group g;
    ColumnSizes& z = sizes[s + 1];
    for_each_group(first, last, [&](size_t begin, size_t kept_end) {
      collect_forms(g, begin, kept_end);
      if (g.forms.empty()) return;
      z.peptides += g.forms.size();
      z.residues += records_[begin].length;
      for (const auto& form : g.forms) {
        z.placed += form.count;
        for_each_occurrence(begin, kept_end, form, [&](const Record&) { ++z.occurrences; });
      }
    });
  });
  for (size_t s = 1; s < sizes.size(); ++s) {  // running sums: sizes[s] = offsets of slice s
    sizes[s].peptides += sizes[s - 1].peptides;
    sizes[s].residues += sizes[s - 1].residues;
    sizes[s].placed += sizes[s - 1].placed;
    sizes[s].occurrences += sizes[s - 1].occurrences;
  }
  const ColumnSizes total = sizes.back();
  if (total.peptides > UINT32_MAX || total.residues > UINT32_MAX || total.placed > UINT32_MAX ||
      total.occurrences > UINT32_MAX) {
    throw std::length_error(
        "peptide index: more than 2^32 peptides, residues, modifications or occurrences");
  }
  return sizes;
}

// Second pass: each slice writes its part of `columns` (sized to offsets.back()).
void GroupPass::fill(const std::vector<ColumnSizes>& offsets, const NullPool& null_pool,
                     Columns& columns) const {
  for_each_slice([&](size_t s, size_t first, size_t last) {
    Group g;
    ColumnSizes at = offsets[s];
    for_each_group(first, last, [&](size_t begin, size_t kept_end) {
      collect_forms(g, begin, kept_end);
      if (g.forms.empty()) return;
      uint8_t missed = 255, termini = 0;
      for (size_t r = begin; r < kept_end; ++r) {
        missed = std::min<uint8_t>(missed, records_[r].missed & 63);
        termini = std::max<uint8_t>(termini, records_[r].missed >> 6);
      }
      // The forms of one sequence share its residues.
      const auto residues_offset = static_cast<uint32_t>(at.residues);
      std::memcpy(columns.residues.data() + at.residues, g.sequence.data(), g.sequence.size());
      at.residues += g.sequence.size();
      for (const auto& form : g.forms) {
        PeptideRecord peptide;
        peptide.residues = residues_offset;
        peptide.length = static_cast<uint16_t>(g.sequence.size());
        peptide.modifications = static_cast<uint32_t>(at.placed);
        peptide.modification_count = static_cast<uint16_t>(form.count);
        std::copy(g.placed.begin() + form.first, g.placed.begin() + form.first + form.count,
                  columns.placed.begin() + static_cast<std::ptrdiff_t>(at.placed));
        at.placed += form.count;
        peptide.occurrences = static_cast<uint32_t>(at.occurrences);
        for_each_occurrence(begin, kept_end, form, [&](const Record& rec) {
          columns.occurrences[at.occurrences++] = {rec.protein, rec.start};
        });
        peptide.occurrence_count = static_cast<uint32_t>(at.occurrences - peptide.occurrences);
        peptide.decoy = (records_[begin].flags & kDecoy) != 0 ? 1 : 0;
        peptide.flags = null_pool.contains(records_[begin]) ? 0 : kOutsideNullPool;
        peptide.missed_cleavages = missed;
        peptide.enzymatic_termini = termini;
        columns.masses[at.peptides] = form.mass_da;
        columns.peptides[at.peptides] = peptide;
        ++at.peptides;
      }
    });
  });
}

// Step 4: sorts by neutral mass, ties in build order (deterministic; BuildCancelled between the
// sort's passes once `cancel` is set). Only masses and records move: the shared buffers stay in
// build (sequence) order.
void sort_by_mass(Columns& columns, int threads, const std::atomic<bool>* cancel) {
  const std::vector<uint32_t> order = mass_order(columns.masses, threads, cancel);
  std::vector<double> sorted_masses(columns.masses.size());
  std::vector<PeptideRecord> sorted(columns.peptides.size());
  parallel_slices(threads, order.size(), [&](size_t, size_t first, size_t last) {
    for (size_t i = first; i < last; ++i) {
      sorted_masses[i] = columns.masses[order[i]];
      sorted[i] = columns.peptides[order[i]];
    }
  });
  columns.masses = std::move(sorted_masses);
  columns.peptides = std::move(sorted);
}

// Steps 2-4 on the records of `slices` (consumed), whose residues `residues` borrows from the
// digest's proteins: the index without its proteins (the caller gives it the digest's list).
std::shared_ptr<PeptideIndex> build_from_records(std::vector<std::vector<Record>>& slices,
                                                 const Residues& residues,
                                                 const DatabaseParameters& db,
                                                 const NullPool& null_pool,
                                                 const std::atomic<bool>* cancel,
                                                 PeptideIndexLimits limits) {
  const ModificationPlacer placer(db.fixed_modifications, db.variable_modifications,
                                  db.max_variable_modifications);
  auto index = std::make_shared<PeptideIndex>();
  index->modifications = placer.modifications();
  const int threads = std::max(1, limits.threads);
  std::vector<Record> records = sort_occurrences(slices, residues, threads, cancel);
  Columns columns;
  {
    const GroupPass groups(records, residues, placer, db, threads, cancel);
    groups.check_form_bound(limits.max_peptide_forms);
    const std::vector<ColumnSizes> offsets = groups.slice_offsets();
    const ColumnSizes& total = offsets.back();
    columns.masses.resize(total.peptides);
    columns.peptides.resize(total.peptides);
    columns.residues.assign(total.residues, '\0');
    columns.placed.resize(total.placed);
    columns.occurrences.resize(total.occurrences);
    groups.fill(offsets, null_pool, columns);
  }
  records.clear();
  records.shrink_to_fit();

  sort_by_mass(columns, threads, cancel);
  index->adopt_built_columns(std::move(columns.masses), std::move(columns.peptides),
                             std::move(columns.residues), std::move(columns.placed),
                             std::move(columns.occurrences));
  return index;
}

}  // namespace

std::shared_ptr<const PeptideIndex> build_peptide_index(DigestedDatabase digested,
                                                        const PrecursorSelection* selection,
                                                        const std::atomic<bool>* cancel,
                                                        PeptideIndexLimits limits) {
  DigestedDatabase::Impl& im = *digested.impl_;
  const Residues residues(im.proteins.all());
  const NullPool null_pool{null_pool_stride(im.occurrences)};
  if (im.selectable) {
    make_selected_records(im, selection, residues, null_pool, std::max(1, limits.threads), cancel,
                          im.slices);
    free_ranges(im);
  }
  std::shared_ptr<PeptideIndex> index =
      build_from_records(im.slices, residues, im.params.database, null_pool, cancel, limits);
  index->proteins = std::move(im.proteins);
  return index;
}

std::shared_ptr<const PeptideIndex> build_selected_peptide_index(
    const DigestedDatabase& digested, const PrecursorSelection& selection,
    const std::atomic<bool>* cancel, PeptideIndexLimits limits) {
  const DigestedDatabase::Impl& im = *digested.impl_;
  if (!im.selectable) {
    throw std::invalid_argument("build_selected_peptide_index: the digest is not selectable");
  }
  const Residues residues(im.proteins.all());
  const NullPool null_pool{null_pool_stride(im.occurrences)};
  std::vector<std::vector<Record>> slices;
  make_selected_records(im, &selection, residues, null_pool, std::max(1, limits.threads), cancel,
                        slices);
  std::shared_ptr<PeptideIndex> index =
      build_from_records(slices, residues, im.params.database, null_pool, cancel, limits);
  index->proteins = im.proteins;
  return index;
}

}  // namespace ionflow
