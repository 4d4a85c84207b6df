// Fuzz target: base64 decoding (io/base64.hpp). Contract checked: the streaming decoder fed in
// pieces of 1..97 bytes agrees with base64_decode() on the whole text (success and bytes); a
// decoded value encodes and decodes back to the same bytes; the output is 3 bytes per 4
// characters minus padding.
#include <cstddef>
#include <cstdint>

#include "io/base64.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string whole;
  const bool whole_ok = ionflow::base64_decode(text, whole);

  ionflow::Base64Decoder decoder;
  decoder.reset();
  std::string pieces;
  bool pieces_ok = true;
  ionflow::fuzz::Pieces split(text);
  while (!split.done()) pieces_ok = decoder.feed(split.next(), pieces) && pieces_ok;
  pieces_ok = decoder.finish(pieces) && pieces_ok;

  if (whole_ok != pieces_ok) ionflow::fuzz::fail("base64 accepted only whole or only in pieces");
  if (!whole_ok) return 0;
  if (whole != pieces) ionflow::fuzz::fail("base64 bytes differ whole vs in pieces");
  size_t characters = 0, padding = 0;
  for (char c : text) {
    if (c == '=') ++padding;
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') ++characters;
  }
  if (whole.size() != characters / 4 * 3 - padding) {
    ionflow::fuzz::fail("decoded " + std::to_string(whole.size()) + " bytes from " +
                        std::to_string(characters) + " characters with " + std::to_string(padding) +
                        " '='");
  }
  std::string again;
  if (!ionflow::base64_decode(ionflow::base64_encode(whole), again) || again != whole) {
    ionflow::fuzz::fail("encode then decode does not give the bytes back");
  }
  return 0;
}
