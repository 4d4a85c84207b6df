// Fuzz target: the mzML reader's expat-only path (io/mzml_reader.hpp, tokenize_plain_spectra
// false: io/mzml_ms1_filter drops MS1 spectra, expat parses everything else). Contract checked:
// the same spectra, skip counts and error (an error on the same line, see check_same_read)
// whole or in pieces of 1..97 bytes; the ReadStats invariants; only ParseError is thrown.
#include <cstddef>
#include <cstdint>

#include "io/mzml_reader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto whole = ionflow::make_mzml_reader("fuzz.mzML", 0, false);
  auto pieces = ionflow::make_mzml_reader("fuzz.mzML", 0, false);
  ionflow::fuzz::check_same_read("mzML (expat) read whole vs in pieces",
                                 ionflow::fuzz::read_spectra(*whole, input, true),
                                 ionflow::fuzz::read_spectra(*pieces, input, false));
  return 0;
}
