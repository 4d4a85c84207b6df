// StringInterner: a dense id (0, 1, 2, ... in first-seen order) for each distinct string, the
// strings stored once, back to back, in one character buffer. For the ProForma strings and
// accessions of a job's PSMs (psm_facts.hpp): an unordered_map<std::string, uint32_t> costs a
// node, a key object, often a heap block and a bucket per distinct string (~100 bytes by its
// layout), this ~20 bytes plus the characters. With 128-byte facts it took the 684k-query scale
// run's finalization peak from 226 to 220 MiB.
//
// Open addressing with linear probing on a power-of-two table of ids (load at most 1/2), hashed
// with 64-bit FNV-1a. Views returned by operator[] stay valid until the next intern() (the
// buffer may grow). Not thread-safe. Throws std::length_error past 2^32 − 1 strings.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ionflow {

class StringInterner {
 public:
  // The id of `s`, adding it if new.
  uint32_t intern(std::string_view s);
  // The string of `id` (REQUIRES: id < size()).
  std::string_view operator[](uint32_t id) const {
    return std::string_view(chars_.data() + offsets_[id], offsets_[id + 1] - offsets_[id]);
  }
  uint32_t size() const { return static_cast<uint32_t>(offsets_.size() - 1); }
  // Bytes held (capacities), for PsmFacts::memory_bytes.
  uint64_t memory_bytes() const;

 private:
  static uint64_t hash(std::string_view s);
  void grow();

  std::string chars_;
  std::vector<uint64_t> offsets_{0};  // string id spans [offsets_[id], offsets_[id + 1])
  std::vector<uint32_t> slots_;       // id + 1, or 0 for an empty slot
};

}  // namespace ionflow
