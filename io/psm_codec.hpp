// PSM codec: a compact binary form of Psm (scoring/psm.hpp) for the writer's spill file
// (io/psm_spill.hpp), in the style of io/query_codec.
//
// Layout of one record (integers little-endian, floating point as IEEE-754 bit patterns, strings
// as u32 length + bytes): u32 payload_bytes, then the payload: every Psm field in declaration
// order; modifications and evidence as u32 count + that many entries (each entry's fields in
// declaration order, bool as u8).
// The round trip is exact (bit-identical doubles, every field). Files written by this codec are
// temporary and read back by the same build; the format is not a stable interchange format.
//
// Thread-safety: free functions without shared state. Errors: decode_psm throws
// std::runtime_error on an inconsistent record (a field that runs past the record's length, or
// bytes left over after the last field).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "scoring/psm.hpp"

namespace ionflow {

// Appends the record of `psm` (length prefix included) to `out`.
void encode_psm(const Psm& psm, std::string& out);

// Decodes one record starting at `in[0]` into `out` (every field overwritten). Returns the number
// of bytes consumed, or 0 if `in` does not yet hold a complete record (more input needed).
size_t decode_psm(std::string_view in, Psm& out);

}  // namespace ionflow
