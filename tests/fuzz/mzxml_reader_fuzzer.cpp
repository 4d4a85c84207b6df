// Fuzz target: the mzXML reader (io/mzxml_reader.hpp, expat). Contract checked: the same
// spectra, skip counts and error (an error on the same line, see check_same_read) whole or in
// pieces of 1..97 bytes; the ReadStats invariants; only ParseError is thrown.
#include <cstddef>
#include <cstdint>

#include "io/mzxml_reader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto whole = ionflow::make_mzxml_reader("fuzz.mzXML", 0);
  auto pieces = ionflow::make_mzxml_reader("fuzz.mzXML", 0);
  ionflow::fuzz::check_same_read("mzXML read whole vs in pieces",
                                 ionflow::fuzz::read_spectra(*whole, input, true),
                                 ionflow::fuzz::read_spectra(*pieces, input, false));
  return 0;
}
