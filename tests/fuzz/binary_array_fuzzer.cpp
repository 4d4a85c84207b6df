// Fuzz target: mzML binary arrays (io/binary_array.hpp). The first byte picks the encoding
// (precision, zlib, numpress), the next two the expected value count; the rest are the array's
// bytes (as after base64). Contract checked: decode() never throws; on success the output has
// exactly the expected count, for double and float output alike, and the float output is the
// double output rounded to float (but for 64-bit integers).
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "io/binary_array.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  ionflow::BinaryArrayEncoding encoding;
  static const int kPrecisions[] = {0, 1000521, 1000523, 1000519, 1000522};
  static const int kCompressions[] = {1000576, 1000574, 1002312, 1002313,
                                      1002314, 1002746, 1002747, 1002748};
  const uint8_t pick = data[0];
  if (kPrecisions[pick % 5] != 0) encoding.apply_cv_term(kPrecisions[pick % 5]);
  encoding.apply_cv_term(kCompressions[(pick / 5) % 8]);
  if (pick >= 200) encoding.apply_cv_term(1000574);  // zlib given twice or with numpress
  const size_t expected = size_t(data[1]) | size_t(data[2]) << 8;
  const std::string_view bytes(reinterpret_cast<const char*>(data + 3), size - 3);

  ionflow::BinaryArrayDecoder decoder;
  std::vector<double> doubles;
  std::vector<float> floats;
  const char* double_error = decoder.decode(encoding, bytes, expected, doubles);
  const char* float_error = decoder.decode(encoding, bytes, expected, floats);
  if ((double_error == nullptr) != (float_error == nullptr)) {
    ionflow::fuzz::fail("double and float decoding disagree on success");
  }
  if (double_error != nullptr) return 0;
  if (doubles.size() != expected || floats.size() != expected) {
    ionflow::fuzz::fail("decoded " + std::to_string(doubles.size()) + " values, expected " +
                        std::to_string(expected));
  }
  // A 64-bit integer converts to float directly, not through double (which may round twice).
  const bool int64 = encoding.precision == ionflow::BinaryPrecision::kInt64 &&
                     encoding.numpress == ionflow::Numpress::kNone;
  for (size_t i = 0; i < expected && !int64; ++i) {
    const float rounded = static_cast<float>(doubles[i]);
    if (!(rounded == floats[i]) && !(std::isnan(rounded) && std::isnan(floats[i]))) {
      ionflow::fuzz::fail("float value " + std::to_string(i) + " is not the double rounded");
    }
  }
  return 0;
}
