// Base64: decoding (streaming) and encoding of the RFC 4648 section 4 alphabet ("A-Z a-z 0-9 + /",
// '=' padding), as used for mzML <binary> elements (mzML 1.1 spec, section "binaryDataArray").
//
// Base64Decoder decodes text that arrives in pieces of any size (expat hands character data over
// in chunks that may split a 4-character group anywhere), with one table lookup per character
// and no allocation beyond growing the caller's output string. ASCII whitespace (space, tab,
// CR, LF) anywhere in the text is skipped. Padding is required: the characters other than
// whitespace must number a multiple of 4, as in XML Schema's xs:base64Binary (XML Schema Part 2,
// section 3.2.16), the type of mzML's <binary>. Text cut or padded wrongly is then "bad base64"
// rather than decoding to a few bytes more or fewer (reported as an array length mismatch, which
// pointed a new user at arrayLength). All 20,014 <binary> values of the 30 OpenMS example mzML
// files are padded. After a '=' only '=' and whitespace may follow.
//
// Errors are reported by return value (false), never thrown. Not thread-safe; one decoder per
// stream, reusable after reset().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ionflow {

class Base64Decoder {
 public:
  // Begins a new value.
  void reset() {
    quad_ = 0;
    pending_ = 0;
    padding_ = 0;
    failed_ = false;
  }

  // Decodes `text`, appending the bytes to `out` (the partial last group is kept for the next
  // call). Returns false, and stays failed until reset(), on a character outside the alphabet
  // or a non-'=' character after padding.
  bool feed(std::string_view text, std::string& out);

  // Ends the value. Returns false if the value was invalid: a failed feed(), a final group of
  // fewer than 4 characters (a lone character, or 2-3 without their '=' padding), or padding
  // that does not fit.
  bool finish(std::string& out);

 private:
  bool feed_slow(const char* p, const char* end, char*& w);
  uint32_t quad_ = 0;  // bits of the current group, 6 per character
  int pending_ = 0;    // characters in the current group (0-3)
  int padding_ = 0;    // '=' characters seen
  bool failed_ = false;
};

// Decodes a complete base64 value; true on success (`out` is replaced).
bool base64_decode(std::string_view text, std::string& out);

// Encodes `bytes` with '=' padding and no line breaks (used by tests and writers).
std::string base64_encode(std::string_view bytes);

}  // namespace ionflow
