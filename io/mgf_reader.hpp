// MGF (Mascot generic format) reader, line-oriented, from byte blocks. See spectrum_reader.hpp
// for the block contract.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "io/spectrum_reader.hpp"

namespace ionflow {

std::unique_ptr<SpectrumReader> make_mgf_reader(std::string file_name, uint32_t file_index);

}  // namespace ionflow
