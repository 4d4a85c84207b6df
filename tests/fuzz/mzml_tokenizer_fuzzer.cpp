// Fuzz target: the mzML reader's own path (io/mzml_reader.hpp with tokenize_plain_spectra, so
// io/mzml_ms1_filter and io/xml_element_scan take the plain spectra and expat the rest).
// Contract checked: the same spectra, skip counts and error (an error on the same line, see
// check_same_read) whole or in pieces of 1..97 bytes, and the same as the expat-only path
// (mzml_reader.hpp: "both give the same spectra, skip reasons and errors"); the ReadStats
// invariants; only ParseError is thrown.
#include <cstddef>
#include <cstdint>

#include "io/mzml_reader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto whole = ionflow::make_mzml_reader("fuzz.mzML", 0, true);
  auto pieces = ionflow::make_mzml_reader("fuzz.mzML", 0, true);
  auto expat = ionflow::make_mzml_reader("fuzz.mzML", 0, false);
  const std::string own = ionflow::fuzz::read_spectra(*whole, input, true);
  ionflow::fuzz::check_same_read("mzML (own tokenizer) read whole vs in pieces", own,
                                 ionflow::fuzz::read_spectra(*pieces, input, false));
  ionflow::fuzz::check_same_read("mzML own tokenizer vs expat only", own,
                                 ionflow::fuzz::read_spectra(*expat, input, true));
  return 0;
}
