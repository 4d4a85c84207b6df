// Builds the PeptideIndex (peptide_index.hpp): digest (digest.hpp), decoys (decoy.hpp),
// merge identical sequences (I and L equal; targets win), place modifications
// (modified_forms.hpp), filter by mass and sort.
//
// Memory: digestion produces 24-byte records that point into the protein sequences; strings are
// built only once per unique peptide form. Decoy proteins are appended after the input proteins
// (input indices are kept): for kReversePeptide one per target with the target's sequence (so
// a decoy occurrence's start, pre and post residues are those of the target peptide it reverses),
// for kReverseProtein one per target with the reversed sequence.
#include "scoring/peptide_index.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

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
  auto first = std::lower_bound(peptides.begin(), peptides.end(), lo_da,
                                [](const Peptide& p, double m) { return p.neutral_mass_da < m; });
  auto last = std::upper_bound(first, peptides.end(), hi_da,
                               [](double m, const Peptide& p) { return m < p.neutral_mass_da; });
  return {static_cast<size_t>(first - peptides.begin()),
          static_cast<size_t>(last - peptides.begin())};
}

std::shared_ptr<const PeptideIndex> build_peptide_index(std::vector<Protein> proteins,
                                                        const SearchParameters& params) {
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

  // 3. One group per sequence: forms per protein-terminus class, merged by placements.
  std::vector<Peptide> peptides;
  ModifiedForms forms;
  std::vector<PeptideOccurrence> occurrences;
  struct Pending {
    size_t peptide;  // index into peptides
    std::vector<PeptideOccurrence> occurrences;
  };
  std::vector<Pending> pending;
  const bool by_terminus = placer.has_protein_terminal();
  size_t group_begin = 0;
  while (group_begin < records.size()) {
    size_t group_end = group_begin + 1;
    while (group_end < records.size() &&
           residues.compare(records[group_begin], records[group_end]) == 0) {
      ++group_end;
    }
    // Targets sort first: a target in the group drops its decoys (target wins).
    const bool decoy = (records[group_begin].flags & kDecoy) != 0;
    size_t kept_end = group_begin;
    uint8_t missed = 255, termini = 0;
    while (kept_end < group_end && ((records[kept_end].flags & kDecoy) != 0) == decoy) {
      missed = std::min<uint8_t>(missed, records[kept_end].missed & 63);
      termini = std::max<uint8_t>(termini, records[kept_end].missed >> 6);
      ++kept_end;
    }
    const std::string sequence = residues.sequence(records[group_begin]);
    const double base_mass = mass::peptide_mass(sequence);
    pending.clear();
    for (int terminus_class = 0; terminus_class < (by_terminus ? 4 : 1); ++terminus_class) {
      occurrences.clear();
      for (size_t r = group_begin; r < kept_end; ++r) {
        const Record& rec = records[r];
        const int cls = ((rec.flags & kProteinN) ? 1 : 0) | ((rec.flags & kProteinC) ? 2 : 0);
        if (by_terminus && cls != terminus_class) continue;
        if (!occurrences.empty() && occurrences.back().protein == rec.protein &&
            occurrences.back().start == rec.start) {
          continue;
        }
        occurrences.push_back({rec.protein, rec.start});
      }
      if (occurrences.empty()) continue;
      placer.place(sequence, (terminus_class & 1) != 0, (terminus_class & 2) != 0, forms);
      for (const auto& form : forms.forms) {
        const double mass = base_mass + form.mass_delta_da;
        if (mass < db.peptide_min_mass_da || mass > db.peptide_max_mass_da) continue;
        const PlacedModification* placed = forms.placed.data() + form.first;
        Pending* match = nullptr;
        for (auto& candidate : pending) {
          const auto& mods = peptides[candidate.peptide].modifications;
          if (mods.size() == form.count &&
              std::equal(mods.begin(), mods.end(), placed,
                         [](const PlacedModification& x, const PlacedModification& y) {
                           return x.position == y.position && x.modification == y.modification;
                         })) {
            match = &candidate;
            break;
          }
        }
        if (match == nullptr) {
          Peptide peptide;
          peptide.sequence = sequence;
          peptide.modifications.assign(placed, placed + form.count);
          peptide.neutral_mass_da = mass;
          peptide.decoy = decoy;
          peptide.missed_cleavages = missed;
          peptide.enzymatic_termini = termini;
          peptides.push_back(std::move(peptide));
          pending.push_back({peptides.size() - 1, {}});
          match = &pending.back();
        }
        match->occurrences.insert(match->occurrences.end(), occurrences.begin(), occurrences.end());
      }
    }
    for (auto& done : pending) {
      auto& occ = done.occurrences;
      if (by_terminus) {
        std::sort(occ.begin(), occ.end(), [](const auto& x, const auto& y) {
          return x.protein != y.protein ? x.protein < y.protein : x.start < y.start;
        });
      }
      peptides[done.peptide].occurrences.assign(occ.begin(), occ.end());  // exact capacity
    }
    group_begin = group_end;
  }
  records.clear();
  records.shrink_to_fit();

  // 4. Sort by neutral mass (ties in build order, so the result is deterministic).
  std::vector<std::pair<double, uint32_t>> order(peptides.size());
  for (size_t i = 0; i < peptides.size(); ++i) {
    order[i] = {peptides[i].neutral_mass_da, static_cast<uint32_t>(i)};
  }
  std::sort(order.begin(), order.end());
  index->peptides.reserve(peptides.size());
  for (const auto& [mass, i] : order) index->peptides.push_back(std::move(peptides[i]));
  index->proteins = std::move(proteins);
  return index;
}

}  // namespace ionflow
