// ProteinList: the proteins of one job's database (generated decoys included), held once and
// shared by every copy of the list.
//
// A job that selects its index per sorted run builds several PeptideIndexes from one digest
// (peptide_index.hpp); each index names its peptides' proteins by position in this list. Copying
// a ProteinList copies one shared pointer, not the proteins: the digest and all its run indexes
// hold the same list (on the human-size scale database, 40,000 proteins, ~28 MB per copy).
// Immutable after construction, so any number of threads may read one list and its copies.
// References and iterators into a list stay valid while any copy of it is alive.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

#include "scoring/protein.hpp"

namespace ionflow {

class ProteinList {
 public:
  using const_iterator = std::vector<Protein>::const_iterator;

  ProteinList() = default;  // empty
  // Takes `proteins` (implicit, so that `index.proteins = std::move(vector)` reads as before).
  ProteinList(std::vector<Protein> proteins)  // NOLINT(google-explicit-constructor)
      : list_(std::make_shared<const std::vector<Protein>>(std::move(proteins))) {}
  ProteinList(std::initializer_list<Protein> proteins)
      : ProteinList(std::vector<Protein>(proteins)) {}

  size_t size() const { return all().size(); }
  bool empty() const { return all().empty(); }
  // REQUIRES: i < size() (front, back: !empty()).
  const Protein& operator[](size_t i) const { return all()[i]; }
  const Protein& front() const { return all().front(); }
  const Protein& back() const { return all().back(); }
  const_iterator begin() const { return all().begin(); }
  const_iterator end() const { return all().end(); }

  // The proteins as a vector, for functions that take one (valid as references above).
  const std::vector<Protein>& all() const { return list_ ? *list_ : empty_list(); }
  // True if `other` is a copy of this list: the same proteins in memory, not equal ones (two
  // default-constructed lists share too).
  bool shares(const ProteinList& other) const { return list_ == other.list_; }

 private:
  static const std::vector<Protein>& empty_list() {
    static const std::vector<Protein> none;
    return none;
  }
  std::shared_ptr<const std::vector<Protein>> list_;
};

}  // namespace ionflow
