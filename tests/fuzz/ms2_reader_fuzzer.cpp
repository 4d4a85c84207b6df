// Fuzz target: the MS2 text reader (io/ms2_reader.hpp: H/S/I/Z lines and peak lines).
// Contract checked: the same spectra, skip counts and error whether the bytes come whole or in
// pieces of 1..97 bytes; the ReadStats invariants; only ParseError is thrown.
#include <cstddef>
#include <cstdint>

#include "io/ms2_reader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto whole = ionflow::make_ms2_reader("fuzz.ms2", 0);
  auto pieces = ionflow::make_ms2_reader("fuzz.ms2", 0);
  ionflow::fuzz::check_equal("MS2 read whole vs in pieces",
                             ionflow::fuzz::read_spectra(*whole, input, true),
                             ionflow::fuzz::read_spectra(*pieces, input, false));
  return 0;
}
