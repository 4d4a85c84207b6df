// StringInterner (string_interner.hpp).
#include "scoring/string_interner.hpp"

#include <stdexcept>

namespace ionflow {

uint64_t StringInterner::hash(std::string_view s) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a 64 offset basis and prime
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

void StringInterner::grow() {
  std::vector<uint32_t> slots(slots_.empty() ? 1024 : slots_.size() * 2, 0);
  const size_t mask = slots.size() - 1;
  for (uint32_t id = 0; id < size(); ++id) {
    size_t at = hash((*this)[id]) & mask;
    while (slots[at] != 0) at = (at + 1) & mask;
    slots[at] = id + 1;
  }
  slots_.swap(slots);
}

uint32_t StringInterner::intern(std::string_view s) {
  if (2 * (static_cast<size_t>(size()) + 1) > slots_.size()) grow();
  const size_t mask = slots_.size() - 1;
  size_t at = hash(s) & mask;
  for (; slots_[at] != 0; at = (at + 1) & mask) {
    if ((*this)[slots_[at] - 1] == s) return slots_[at] - 1;
  }
  if (size() == UINT32_MAX - 1) throw std::length_error("more than 2^32 - 2 distinct strings");
  const uint32_t id = size();
  chars_.append(s);
  offsets_.push_back(chars_.size());
  slots_[at] = id + 1;
  return id;
}

uint64_t StringInterner::memory_bytes() const {
  return chars_.capacity() + offsets_.capacity() * sizeof(uint64_t) +
         slots_.capacity() * sizeof(uint32_t);
}

}  // namespace ionflow
