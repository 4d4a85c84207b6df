// Internal to the peptide-index build (peptide_index.cpp, digest_database.cpp, index_sort.hpp,
// index_memory.cpp): the 24-byte record of one digested peptide occurrence, the residue access
// through it, the 8-byte peptide range a selectable digest keeps, and DigestedDatabase::Impl. Not a
// public API.
//
// A Record points into its protein's sequence (Residues) instead of holding residues; key8 holds
// the first eight (I as L) so that most comparisons read no residue. Thread-safety: plain values;
// Residues is read-only after construction and borrows the proteins (they must outlive it).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "scoring/digest.hpp"
#include "scoring/modified_forms.hpp"
#include "scoring/peptide_index.hpp"
#include "scoring/precursor_selection.hpp"

namespace ionflow {
namespace index_build {

// Work units per build thread for the digest, the record expansion and the group passes
// (parallel_tasks): enough that threads finish together, few enough that per-slice buffers
// (sort_records keeps 128 KiB of bucket offsets per digest slice) stay small.
constexpr size_t kSlicesPerThread = 4;

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

inline char normalize(char c) {
  return c == 'I' ? 'L' : c;
}

class Residues {
 public:
  explicit Residues(const std::vector<Protein>& proteins) {
    sequences_.reserve(proteins.size());
    for (const auto& p : proteins) sequences_.push_back(p.sequence.data());
  }
  // First residue of the record's range in its source protein (for prefetching).
  const char* data(const Record& r) const { return sequences_[r.source] + r.start; }
  // Residue i of the record's peptide, as in the protein (I and L distinct).
  char at(const Record& r, uint32_t i) const {
    const char* s = data(r);
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
  // Copies the record's residues into `out` (resized).
  void copy(const Record& r, std::string& out) const {
    out.resize(r.length);
    const char* s = data(r);
    if (r.flags & kReversed) {
      for (uint32_t i = 0; i < r.length; ++i) out[i] = at(r, i);
    } else {
      std::memcpy(out.data(), s, r.length);
    }
  }

 private:
  std::vector<const char*> sequences_;  // per protein: its residues (one indirection, not two)
};

// Throws BuildCancelled once `cancel` (may be null) is set.
inline void check_cancel(const std::atomic<bool>* cancel) {
  if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) throw BuildCancelled();
}

// check_cancel, reading the flag every 1024th step only.
inline void check_cancel_every_1024(const std::atomic<bool>* cancel, size_t step) {
  if ((step & 1023) == 0) check_cancel(cancel);
}

// A peptide of the digest kept for a selection (8 bytes): its records are made once the
// selection is known, and only for the peptides it keeps.
struct DigestedPeptideRange {
  uint32_t start = 0;
  uint16_t length = 0;
  uint8_t missed = 0;  // as Record::missed
  uint8_t flags = 0;   // kProteinN, kProteinC
};
static_assert(sizeof(DigestedPeptideRange) == 8);

inline DigestedPeptideRange range_of(const DigestedPeptide& d) {
  DigestedPeptideRange range;
  range.start = d.start;
  range.length = d.length;
  range.missed =
      static_cast<uint8_t>(std::min<int>(d.missed_cleavages, 63) | (d.enzymatic_termini << 6));
  range.flags =
      static_cast<uint8_t>((d.protein_n_term ? kProteinN : 0) | (d.protein_c_term ? kProteinC : 0));
  return range;
}

// The record of `range` of protein `source`, occurring in `protein` with the extra `flags`
// (kDecoy, kReversed).
inline Record record_of(uint32_t source, uint32_t protein, const DigestedPeptideRange& range,
                        uint8_t flags, const Residues& residues) {
  Record r;
  r.source = source;
  r.protein = protein;
  r.start = range.start;
  r.length = range.length;
  r.flags = static_cast<uint8_t>(range.flags | flags);
  r.missed = range.missed;
  r.key8 = residues.key8(r);
  return r;
}

}  // namespace index_build

struct DigestedDatabase::Impl {
  SearchParameters params;
  ProteinList proteins;  // generated decoys appended; shared with the indexes built from it
  std::vector<std::vector<index_build::Record>> slices;  // one per digest slice (not selectable)
  uint64_t occurrences = 0;
  FormMassShifts shifts;
  // Selectable (shifts supported): per digest slice, its proteins [first, last), their
  // peptides in protein order, and after each protein the end of its peptides in `peptides`.
  bool selectable = false;
  std::vector<std::pair<size_t, size_t>> slice_proteins;
  std::vector<std::vector<index_build::DigestedPeptideRange>> peptides;
  std::vector<std::vector<uint32_t>> peptides_end;
  std::vector<uint32_t> decoy_of;  // per input protein: its generated decoy (reversed peptides)

  explicit Impl(const SearchParameters& p) : params(p), shifts(p.database) {}
};

}  // namespace ionflow
