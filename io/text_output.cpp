#include "io/text_output.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace ionflow {

namespace {

// Drops the sign of a formatted number that is all zeros ("-0.000" -> "0.000").
std::string_view strip_negative_zero(char* begin, char* end) {
  if (begin != end && *begin == '-') {
    bool all_zero = true;
    for (char* p = begin + 1; p != end; ++p) {
      if (*p != '0' && *p != '.') {
        all_zero = false;
        break;
      }
    }
    if (all_zero) ++begin;
  }
  return {begin, static_cast<std::size_t>(end - begin)};
}

bool put_non_finite(TextOutput& out, double value) {
  if (std::isnan(value)) {
    out.put("nan");
    return true;
  }
  if (std::isinf(value)) {
    out.put(value < 0 ? "-inf" : "inf");
    return true;
  }
  return false;
}

}  // namespace

TextOutput::TextOutput(std::ostream& out, std::size_t flush_bytes)
    : out_(out), flush_bytes_(flush_bytes == 0 ? 1 : flush_bytes) {
  buffer_.reserve(flush_bytes_ + 4096);
}

void TextOutput::put_int(int64_t value) {
  char text[24];
  auto result = std::to_chars(text, text + sizeof text, value);
  put(std::string_view(text, static_cast<std::size_t>(result.ptr - text)));
}

void TextOutput::put_uint(uint64_t value) {
  char text[24];
  auto result = std::to_chars(text, text + sizeof text, value);
  put(std::string_view(text, static_cast<std::size_t>(result.ptr - text)));
}

void TextOutput::put_fixed(double value, int decimals) {
  if (put_non_finite(*this, value)) return;
  // 309 digits before the point at most for a double, plus the decimals.
  char text[400];
  auto result = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed,
                              decimals < 0 ? 0 : (decimals > 60 ? 60 : decimals));
  put(strip_negative_zero(text, result.ptr));
}

void TextOutput::put_scientific(double value, int decimals) {
  if (put_non_finite(*this, value)) return;
  char text[96];
  auto result = std::to_chars(text, text + sizeof text, value, std::chars_format::scientific,
                              decimals < 0 ? 0 : (decimals > 60 ? 60 : decimals));
  put(std::string_view(text, static_cast<std::size_t>(result.ptr - text)));
}

void TextOutput::put_shortest(double value) {
  if (put_non_finite(*this, value)) return;
  char text[64];
  auto result = std::to_chars(text, text + sizeof text, value);
  put(std::string_view(text, static_cast<std::size_t>(result.ptr - text)));
}

TextOutput::~TextOutput() {
  if (writer_.joinable()) writer_.join();
}

void TextOutput::wait_for_write() {
  if (writer_.joinable()) writer_.join();
  if (write_error_) {
    // A stream that throws (ZstdOutputStream: exceptions(badbit)) threw on the writing thread:
    // its exception, here, once; the output stays failed.
    write_failed_ = true;
    std::rethrow_exception(std::exchange(write_error_, nullptr));
  }
  if (write_failed_ || !out_) {
    throw std::runtime_error("result writer: writing to the output stream failed");
  }
}

void TextOutput::write_pending() noexcept {
  try {
    out_.write(writing_.data(), static_cast<std::streamsize>(writing_.size()));
    write_failed_ = !out_;
  } catch (...) {
    write_error_ = std::current_exception();
  }
}

void TextOutput::flush_buffer() {
  wait_for_write();
  if (buffer_.empty()) return;
  writing_.swap(buffer_);
  buffer_.clear();
  buffer_.reserve(flush_bytes_ + 4096);
  try {
    writer_ = std::thread([this] { write_pending(); });
  } catch (const std::system_error&) {
    write_pending();  // no thread to be had: written here, in order all the same
  }
}

void TextOutput::finish() {
  flush_buffer();
  wait_for_write();
  out_.flush();
  if (!out_) throw std::runtime_error("result writer: flushing the output stream failed");
}

}  // namespace ionflow
