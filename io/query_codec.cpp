#include "io/query_codec.hpp"

#include <cstdint>
#include <stdexcept>

#include "io/record_codec.hpp"

namespace ionflow {

using record_codec::put;
using record_codec::RecordCursor;

void encode_query(const Query& q, std::string& out) {
  size_t start = out.size();
  put<uint32_t>(out, 0);  // payload length, patched below
  put<uint32_t>(out, q.file_index);
  put<uint64_t>(out, q.spectrum_index);
  put<int64_t>(out, q.scan);
  put<double>(out, q.rt_seconds);
  put<double>(out, q.precursor_mz);
  put<int32_t>(out, q.charge);
  put<uint8_t>(out, q.charge_from_file ? 1 : 0);
  put<uint8_t>(out, static_cast<uint8_t>(q.charges_tried));
  put<double>(out, q.neutral_mass);
  put<uint32_t>(out, static_cast<uint32_t>(q.native_id.size()));
  out.append(q.native_id);
  put<uint32_t>(out, static_cast<uint32_t>(q.peaks.size()));
  for (const Peak& p : q.peaks) {
    put<float>(out, p.mz);
    put<float>(out, p.intensity);
  }
  uint32_t payload = static_cast<uint32_t>(out.size() - start - sizeof(uint32_t));
  std::memcpy(out.data() + start, &payload, sizeof(payload));
}

size_t decode_query(std::string_view in, Query& q) {
  if (in.size() < sizeof(uint32_t)) return 0;
  uint32_t payload;
  std::memcpy(&payload, in.data(), sizeof(payload));
  if (in.size() - sizeof(uint32_t) < payload) return 0;
  RecordCursor c(in.substr(sizeof(uint32_t), payload), "query");
  q.file_index = c.get<uint32_t>();
  q.spectrum_index = c.get<uint64_t>();
  q.scan = c.get<int64_t>();
  q.rt_seconds = c.get<double>();
  q.precursor_mz = c.get<double>();
  q.charge = c.get<int32_t>();
  q.charge_from_file = c.get<uint8_t>() != 0;
  q.charges_tried = c.get<uint8_t>();
  q.neutral_mass = c.get<double>();
  uint32_t id_length = c.get<uint32_t>();
  q.native_id.assign(c.bytes(id_length));
  uint32_t peaks = c.get<uint32_t>();
  if (static_cast<uint64_t>(peaks) * 8 != payload - c.position()) {
    throw std::runtime_error("query record: peak count " + std::to_string(peaks) +
                             " does not match the record length");
  }
  q.peaks.resize(peaks);
  for (Peak& p : q.peaks) {
    p.mz = c.get<float>();
    p.intensity = c.get<float>();
  }
  return sizeof(uint32_t) + payload;
}

size_t query_memory_bytes(const Query& q) {
  size_t bytes = sizeof(Query) + q.peaks.capacity() * sizeof(Peak);
  // std::string keeps up to 15 characters inline (SSO in libstdc++).
  if (q.native_id.capacity() > 15) bytes += q.native_id.capacity() + 1;
  return bytes;
}

}  // namespace ionflow
