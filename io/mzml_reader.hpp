// mzML reader (HUPO-PSI mzML 1.1, with or without the indexedmzML wrapper), streaming from byte
// blocks: expat for the document, an own tokenizer for plain spectra. See spectrum_reader.hpp
// for the block contract.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "io/spectrum_reader.hpp"

namespace ionflow {

// `tokenize_plain_spectra`: spectra in the plain XML subset (xml_element_scan.hpp) are tokenized
// by the reader itself, the rest by expat; both give the same spectra, skip reasons and errors.
// false reads everything with expat (tests compare the two paths with it).
std::unique_ptr<SpectrumReader> make_mzml_reader(std::string file_name, uint32_t file_index,
                                                 bool tokenize_plain_spectra = true);

}  // namespace ionflow
