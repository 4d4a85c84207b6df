#include "io/query_codec.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace ionflow {
namespace {

Query sample_query() {
  Query q;
  q.file_index = 3;
  q.spectrum_index = 123456789012ull;
  q.native_id = "controllerType=0 controllerNumber=1 scan=4711";
  q.scan = 4711;
  q.rt_seconds = 1234.5678;
  q.precursor_mz = 582.319458;  // LVNELTEFAK 2+
  q.charge = 2;
  q.charge_from_file = false;
  q.charges_tried = 2;  // tried at 2+ and 3+
  q.neutral_mass = 1162.6241;
  q.peaks = {{175.118958f, 0.25f}, {304.161560f, 1.0f}, {1048.540527f, 0.125f}};
  return q;
}

void expect_equal(const Query& a, const Query& b) {
  EXPECT_EQ(a.file_index, b.file_index);
  EXPECT_EQ(a.spectrum_index, b.spectrum_index);
  EXPECT_EQ(a.native_id, b.native_id);
  EXPECT_EQ(a.scan, b.scan);
  EXPECT_EQ(a.rt_seconds, b.rt_seconds);  // bit-exact
  EXPECT_EQ(a.precursor_mz, b.precursor_mz);
  EXPECT_EQ(a.charge, b.charge);
  EXPECT_EQ(a.charge_from_file, b.charge_from_file);
  EXPECT_EQ(a.charges_tried, b.charges_tried);
  EXPECT_EQ(a.neutral_mass, b.neutral_mass);
  ASSERT_EQ(a.peaks.size(), b.peaks.size());
  for (size_t i = 0; i < a.peaks.size(); ++i) {
    EXPECT_EQ(a.peaks[i].mz, b.peaks[i].mz);
    EXPECT_EQ(a.peaks[i].intensity, b.peaks[i].intensity);
  }
}

TEST(QueryCodec, RoundTripIsExact) {
  Query q = sample_query();
  std::string bytes;
  encode_query(q, bytes);
  // 4 length + 4+8+8+8+8+4+1+1+8 fixed + 4+45 id + 4+3*8 peaks.
  EXPECT_EQ(bytes.size(), 4u + 50u + 49u + 28u);
  Query back;
  EXPECT_EQ(decode_query(bytes, back), bytes.size());
  expect_equal(q, back);
}

TEST(QueryCodec, ConcatenatedRecordsAndPartialInput) {
  Query a = sample_query();
  Query b = sample_query();
  b.native_id.clear();
  b.peaks.clear();
  b.charge = 3;
  std::string bytes;
  encode_query(a, bytes);
  size_t first = bytes.size();
  encode_query(b, bytes);
  Query out;
  // Every strict prefix of the first record is "need more input".
  for (size_t n = 0; n < first; ++n) EXPECT_EQ(decode_query(bytes.substr(0, n), out), 0u);
  EXPECT_EQ(decode_query(bytes, out), first);
  expect_equal(a, out);
  EXPECT_EQ(decode_query(std::string_view(bytes).substr(first), out), bytes.size() - first);
  expect_equal(b, out);
}

TEST(QueryCodec, InconsistentPeakCountThrows) {
  std::string bytes;
  encode_query(sample_query(), bytes);
  bytes[bytes.size() - 3 * 8 - 4] = 7;  // peak count 3 -> 7 without the peaks
  Query out;
  EXPECT_THROW(decode_query(bytes, out), std::runtime_error);
}

}  // namespace
}  // namespace ionflow
