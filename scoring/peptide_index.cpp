// Builds the PeptideIndex (peptide_index.hpp): digest (digest.hpp), decoys (decoy.hpp),
// merge identical sequences (I and L equal; targets win), place modifications
// (modified_forms.hpp), filter by mass and sort.
//
// Memory: digestion produces 24-byte records that point into the protein sequences. The index
// is column-wise (peptide_index.hpp): a first pass over the groups sizes every column exactly,
// a second fills them (residues once per sequence, shared by its forms); the mass sort then
// permutes only masses and 24-byte PeptideRecords.
//
// Decoy proteins are appended after the input proteins (input indices are kept): for
// kReversePeptide one per target with the target's sequence (so a decoy occurrence's start, pre
// and post residues are those of the target peptide it reverses), for kReverseProtein one per
// target with the reversed sequence.
#include "scoring/peptide_index.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

#include "scoring/decoy.hpp"
#include "scoring/digest.hpp"
#include "scoring/enzyme.hpp"
#include "scoring/mass.hpp"
#include "scoring/modified_forms.hpp"

namespace ionflow {
namespace {

enum RecordFlags : uint8_t {
  kDecoy = 1,
  kReversed = 2,  // sequence = reverse_peptide(source substring)
  kProteinN = 4,
  kProteinC = 8,
};

struct Record {
  uint64_t key8 = 0;     // first 8 residues (I as L), big-endian, zero padded: integer order =
                         // lexicographic order
  uint32_t source = 0;   // protein whose sequence holds the residues
  uint32_t protein = 0;  // protein of the occurrence (decoy protein for reversed peptides)
  uint32_t start = 0;
  uint16_t length = 0;
  uint8_t flags = 0;
  uint8_t missed = 0;  // low 6 bits missed cleavages (capped), high 2 bits enzymatic termini
};
static_assert(sizeof(Record) == 24);

char normalize(char c) {
  return c == 'I' ? 'L' : c;
}

class Residues {
 public:
  explicit Residues(const std::vector<Protein>& proteins) : proteins_(proteins) {}
  // Residue i of the record's peptide, as in the protein (I and L distinct).
  char at(const Record& r, uint32_t i) const {
    const char* s = proteins_[r.source].sequence.data() + r.start;
    if ((r.flags & kReversed) && i + 1 < r.length) return s[r.length - 2 - i];
    return s[i];
  }
  uint64_t key8(const Record& r) const {
    uint64_t key = 0;
    for (uint32_t i = 0; i < 8; ++i) {
      const char c = i < r.length ? normalize(at(r, i)) : '\0';
      key = (key << 8) | static_cast<unsigned char>(c);
    }
    return key;
  }
  // Three-way comparison of the normalized sequences.
  int compare(const Record& a, const Record& b) const {
    if (a.key8 != b.key8) return a.key8 < b.key8 ? -1 : 1;
    const uint32_t common = std::min(a.length, b.length);
    for (uint32_t i = 8; i < common; ++i) {
      const char ca = normalize(at(a, i));
      const char cb = normalize(at(b, i));
      if (ca != cb) return ca < cb ? -1 : 1;
    }
    if (a.length != b.length) return a.length < b.length ? -1 : 1;
    return 0;
  }
  std::string sequence(const Record& r) const {
    std::string s(r.length, '\0');
    for (uint32_t i = 0; i < r.length; ++i) s[i] = at(r, i);
    return s;
  }

 private:
  const std::vector<Protein>& proteins_;
};

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
    if (r.decoy > 1 || r.enzymatic_termini > 2) fail("has invalid flags");
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
  masses_ = std::move(masses);
  records_ = std::move(records);
  residues_ = std::move(residues);
  placed_ = std::move(placed);
  occurrences_ = std::move(occurrences);
}

std::shared_ptr<const PeptideIndex> build_peptide_index(std::vector<Protein> proteins,
                                                        const SearchParameters& params,
                                                        const std::atomic<bool>* cancel,
                                                        PeptideIndexLimits limits) {
  auto check_cancel = [cancel](size_t step) {
    if (cancel != nullptr && (step & 1023) == 0 && cancel->load(std::memory_order_relaxed)) {
      throw BuildCancelled();
    }
  };
  const DatabaseParameters& db = params.database;
  validate(db);
  const Enzyme enzyme(db.enzyme);
  const ModificationPlacer placer(db.fixed_modifications, db.variable_modifications,
                                  db.max_variable_modifications);
  auto index = std::make_shared<PeptideIndex>();
  index->modifications = placer.modifications();

  // Decoy proteins go after the input proteins.
  const size_t input_count = proteins.size();
  const bool generate = db.decoy_generation != DecoyGeneration::kNone;
  std::vector<uint32_t> decoy_of(input_count, 0);
  if (generate) {
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
  }
  if (proteins.size() > UINT32_MAX) throw std::invalid_argument("too many proteins");

  // 1. Digest into records.
  const DigestOptions options = digest_options_from(db);
  const Residues residues(proteins);
  std::vector<Record> records;
  std::vector<DigestedPeptide> digested;
  auto add = [&](uint32_t source, uint32_t protein, const DigestedPeptide& d, uint8_t flags) {
    Record r;
    r.source = source;
    r.protein = protein;
    r.start = d.start;
    r.length = d.length;
    r.flags = static_cast<uint8_t>(flags | (d.protein_n_term ? kProteinN : 0) |
                                   (d.protein_c_term ? kProteinC : 0));
    r.missed =
        static_cast<uint8_t>(std::min<int>(d.missed_cleavages, 63) | (d.enzymatic_termini << 6));
    r.key8 = residues.key8(r);
    records.push_back(r);
  };
  for (size_t i = 0; i < proteins.size(); ++i) {
    check_cancel(i);
    const Protein& protein = proteins[i];
    const bool generated = i >= input_count;
    if (protein.is_decoy && !generated && generate) continue;  // FASTA decoys replaced
    if (generated && db.decoy_generation == DecoyGeneration::kReversePeptide) continue;
    digested.clear();
    digest(protein.sequence, enzyme, options, digested);
    const auto p = static_cast<uint32_t>(i);
    for (const auto& d : digested) {
      add(p, p, d, protein.is_decoy ? kDecoy : 0);
      if (db.decoy_generation == DecoyGeneration::kReversePeptide && !protein.is_decoy) {
        add(p, decoy_of[i], d, kDecoy | kReversed);
      }
    }
  }

  // 2. Sort: sequence (I = L), targets first, then protein and start.
  std::sort(records.begin(), records.end(), [&](const Record& a, const Record& b) {
    const int c = residues.compare(a, b);
    if (c != 0) return c < 0;
    const int da = a.flags & kDecoy, dbf = b.flags & kDecoy;
    if (da != dbf) return da < dbf;
    if (a.protein != b.protein) return a.protein < b.protein;
    return a.start < b.start;
  });

  // 3. One group per sequence (I = L): forms per protein-terminus class, merged by
  // placements. Run twice: first to count the peptides (so that the peptide vector is
  // allocated once, at its exact size: it dominates memory), then to fill them.
  const bool by_terminus = placer.has_protein_terminal();
  struct GroupForm {
    uint32_t first;  // into group_placed
    uint32_t count;
    double mass_da;
    uint8_t classes;  // bit c set: occurrences of terminus class c carry this form
  };
  std::vector<GroupForm> group_forms;
  std::vector<PlacedModification> group_placed;
  ModifiedForms forms;
  std::unordered_multimap<uint64_t, size_t> form_by_hash;  // placements hash -> group_forms index
  std::string sequence;
  auto class_of = [&](const Record& r) {
    if (!by_terminus) return 0;
    return ((r.flags & kProteinN) ? 1 : 0) | ((r.flags & kProteinC) ? 2 : 0);
  };
  // Fills group_forms for records [begin, end) (all of one decoy status); returns base mass.
  auto collect_forms = [&](size_t begin, size_t end) {
    group_forms.clear();
    group_placed.clear();
    const Record& first = records[begin];
    sequence.resize(first.length);
    for (uint32_t i = 0; i < first.length; ++i) sequence[i] = residues.at(first, i);
    const double base_mass = mass::peptide_mass(sequence);
    unsigned present = 0;
    for (size_t r = begin; r < end; ++r) present |= 1u << class_of(records[r]);
    const int present_count = __builtin_popcount(present);
    int classes_seen = 0;
    if (present_count > 1) form_by_hash.clear();
    for (int cls = 0; cls < 4; ++cls) {
      if (!(present & (1u << cls))) continue;
      if (classes_seen > 0) check_cancel(0);
      placer.place(sequence, (cls & 1) != 0, (cls & 2) != 0, forms);
      for (const auto& form : forms.forms) {
        const double mass = base_mass + form.mass_delta_da;
        if (mass < db.peptide_min_mass_da || mass > db.peptide_max_mass_da) continue;
        const PlacedModification* placed = forms.placed.data() + form.first;
        // Forms of one class are distinct; only another class can repeat one. Look it up
        // by the hash of its placements (a linear search was quadratic in the forms).
        uint64_t hash = 1469598103934665603ull;
        for (uint32_t k = 0; k < form.count; ++k) {
          hash = (hash ^ static_cast<uint16_t>(placed[k].position)) * 1099511628211ull;
          hash = (hash ^ placed[k].modification) * 1099511628211ull;
        }
        GroupForm* match = nullptr;
        if (classes_seen > 0) {
          auto [lo, hi] = form_by_hash.equal_range(hash);
          for (auto it = lo; it != hi && match == nullptr; ++it) {
            GroupForm& candidate = group_forms[it->second];
            if (candidate.count == form.count &&
                std::equal(placed, placed + form.count, group_placed.begin() + candidate.first,
                           [](const PlacedModification& x, const PlacedModification& y) {
                             return x.position == y.position && x.modification == y.modification;
                           })) {
              match = &candidate;
            }
          }
        }
        if (match == nullptr) {
          if (present_count > 1) form_by_hash.emplace(hash, group_forms.size());
          group_forms.push_back({static_cast<uint32_t>(group_placed.size()), form.count, mass, 0});
          group_placed.insert(group_placed.end(), placed, placed + form.count);
          match = &group_forms.back();
        }
        match->classes = static_cast<uint8_t>(match->classes | (1u << cls));
      }
      ++classes_seen;
    }
  };
  // Calls fn(begin, kept_end, group_end) per group; [begin, kept_end) are the kept records:
  // targets sort first, so a target in the group drops its decoys (target wins).
  auto for_each_group = [&](auto&& fn) {
    size_t begin = 0;
    size_t groups = 0;
    while (begin < records.size()) {
      check_cancel(groups++);
      size_t end = begin + 1;
      while (end < records.size() && residues.compare(records[begin], records[end]) == 0) ++end;
      const bool decoy = (records[begin].flags & kDecoy) != 0;
      size_t kept_end = begin;
      while (kept_end < end && ((records[kept_end].flags & kDecoy) != 0) == decoy) ++kept_end;
      fn(begin, kept_end);
      begin = end;
    }
  };

  // Occurrences of `form` among records [begin, kept_end) (sorted by protein, start), each
  // (protein, start) once.
  auto for_each_occurrence = [&](size_t begin, size_t kept_end, const GroupForm& form, auto&& fn) {
    const Record* last = nullptr;
    for (size_t r = begin; r < kept_end; ++r) {
      const Record& rec = records[r];
      if (!(form.classes & (1u << class_of(rec)))) continue;
      if (last != nullptr && last->protein == rec.protein && last->start == rec.start) continue;
      last = &rec;
      fn(rec);
    }
  };

  // Guard: an upper bound on the forms, from the sequences alone (nothing placed yet).
  {
    uint64_t bound = 0;
    size_t sequences = 0;
    for_each_group([&](size_t begin, size_t) {
      ++sequences;
      const Record& first = records[begin];
      sequence.resize(first.length);
      for (uint32_t i = 0; i < first.length; ++i) sequence[i] = residues.at(first, i);
      bound += placer.form_count_bound(sequence);
      if (bound > limits.max_peptide_forms) {
        std::string names;
        for (const auto& m : db.variable_modifications) {
          names += (names.empty() ? "" : ", ") + m.name;
        }
        throw std::invalid_argument(
            "the peptide index would hold more than " + std::to_string(limits.max_peptide_forms) +
            " peptide forms (already " + std::to_string(bound) + " after " +
            std::to_string(sequences) + " of the sequences; max_variable_mods " +
            std::to_string(db.max_variable_modifications) + " with " +
            std::to_string(db.variable_modifications.size()) + " variable modifications: " + names +
            "); lower database.max_variable_mods or remove variable modifications");
      }
    });
  }

  // First pass: exact column sizes, so that each column is allocated once.
  size_t total = 0, total_residues = 0, total_placed = 0, total_occurrences = 0;
  for_each_group([&](size_t begin, size_t kept_end) {
    collect_forms(begin, kept_end);
    if (group_forms.empty()) return;
    total += group_forms.size();
    total_residues += records[begin].length;
    for (const auto& form : group_forms) {
      total_placed += form.count;
      for_each_occurrence(begin, kept_end, form, [&](const Record&) { ++total_occurrences; });
    }
  });
  if (total_residues > UINT32_MAX || total_placed > UINT32_MAX || total_occurrences > UINT32_MAX) {
    throw std::length_error("peptide index: more than 2^32 residues, modifications or occurrences");
  }
  std::vector<double> masses;
  std::vector<PeptideRecord> peptides;
  std::string all_residues;
  std::vector<PlacedModification> all_placed;
  std::vector<PeptideOccurrence> all_occurrences;
  masses.reserve(total);
  peptides.reserve(total);
  all_residues.reserve(total_residues);
  all_placed.reserve(total_placed);
  all_occurrences.reserve(total_occurrences);
  for_each_group([&](size_t begin, size_t kept_end) {
    collect_forms(begin, kept_end);
    if (group_forms.empty()) return;
    uint8_t missed = 255, termini = 0;
    for (size_t r = begin; r < kept_end; ++r) {
      missed = std::min<uint8_t>(missed, records[r].missed & 63);
      termini = std::max<uint8_t>(termini, records[r].missed >> 6);
    }
    // The forms of one sequence share its residues.
    const auto residues_offset = static_cast<uint32_t>(all_residues.size());
    all_residues += sequence;
    for (const auto& form : group_forms) {
      PeptideRecord peptide;
      peptide.residues = residues_offset;
      peptide.length = static_cast<uint16_t>(sequence.size());
      peptide.modifications = static_cast<uint32_t>(all_placed.size());
      peptide.modification_count = static_cast<uint16_t>(form.count);
      all_placed.insert(all_placed.end(), group_placed.begin() + form.first,
                        group_placed.begin() + form.first + form.count);
      peptide.occurrences = static_cast<uint32_t>(all_occurrences.size());
      for_each_occurrence(begin, kept_end, form, [&](const Record& rec) {
        all_occurrences.push_back({rec.protein, rec.start});
      });
      peptide.occurrence_count =
          static_cast<uint32_t>(all_occurrences.size() - peptide.occurrences);
      peptide.decoy = (records[begin].flags & kDecoy) != 0 ? 1 : 0;
      peptide.missed_cleavages = missed;
      peptide.enzymatic_termini = termini;
      masses.push_back(form.mass_da);
      peptides.push_back(peptide);
    }
  });
  records.clear();
  records.shrink_to_fit();

  // 4. Sort by neutral mass, ties in build order (deterministic). Only masses and records move:
  // the shared buffers stay in build (sequence) order.
  {
    std::vector<std::pair<double, uint32_t>> order(masses.size());
    for (size_t i = 0; i < masses.size(); ++i) order[i] = {masses[i], static_cast<uint32_t>(i)};
    std::sort(order.begin(), order.end());
    std::vector<PeptideRecord> sorted(peptides.size());
    for (size_t i = 0; i < order.size(); ++i) {
      masses[i] = order[i].first;
      sorted[i] = peptides[order[i].second];
    }
    peptides = std::move(sorted);
  }
  index->proteins = std::move(proteins);
  index->assign_columns(std::move(masses), std::move(peptides), std::move(all_residues),
                        std::move(all_placed), std::move(all_occurrences));
  return index;
}

}  // namespace ionflow
