// mzML reader (HUPO-PSI mzML 1.1, with or without the indexedmzML wrapper), streaming with expat
// from byte blocks. See spectrum_reader.hpp for the block contract.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "io/spectrum_reader.hpp"

namespace ionflow {

std::unique_ptr<SpectrumReader> make_mzml_reader(std::string file_name, uint32_t file_index);

}  // namespace ionflow
