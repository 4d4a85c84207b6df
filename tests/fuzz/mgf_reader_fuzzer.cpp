// Fuzz target: the MGF reader (io/mgf_reader.hpp). Contract checked: the same spectra, skip
// counts and error whether the bytes come whole or in pieces of 1..97 bytes; the ReadStats
// invariants; only ParseError is thrown.
#include <cstddef>
#include <cstdint>

#include "io/mgf_reader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto whole = ionflow::make_mgf_reader("fuzz.mgf", 0);
  auto pieces = ionflow::make_mgf_reader("fuzz.mgf", 0);
  ionflow::fuzz::check_equal("MGF read whole vs in pieces",
                             ionflow::fuzz::read_spectra(*whole, input, true),
                             ionflow::fuzz::read_spectra(*pieces, input, false));
  return 0;
}
