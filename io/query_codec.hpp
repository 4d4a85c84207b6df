// Query codec: a compact binary form of Query for the sorter's spilled runs (io/sorted_runs).
//
// Layout of one record (all integers little-endian, floating point as IEEE-754 bit patterns):
//   u32 payload_bytes, then payload: u32 file_index, u64 spectrum_index, i64 scan,
//   f64 rt_seconds, f64 precursor_mz, i32 charge, u8 charge_from_file, u8 charges_tried
//   (at most kMaxPrecursorCharge), f64 neutral_mass,
//   u32 native_id length + bytes, u32 peak count + count * (f32 mz, f32 intensity).
// The round trip is exact (bit-identical doubles and floats). Files written by this codec are
// temporary and read back by the same build; the format is not a stable interchange format.
//
// Thread-safety: free functions without shared state. Errors: decode_query throws
// std::runtime_error on a truncated or inconsistent record.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "scoring/query.hpp"

namespace ionflow {

// Appends the record of `query` (length prefix included) to `out`.
void encode_query(const Query& query, std::string& out);

// Decodes one record starting at `in[0]`. Returns the number of bytes consumed, or 0 if `in`
// does not yet hold a complete record (more input needed). Throws std::runtime_error when the
// record is inconsistent (a length that runs past its own payload).
size_t decode_query(std::string_view in, Query& out);

// Approximate heap + inline bytes a Query occupies in RAM (for memory budgets).
size_t query_memory_bytes(const Query& query);

}  // namespace ionflow
