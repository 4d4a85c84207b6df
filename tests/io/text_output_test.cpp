// TextOutput: buffers written by a second thread arrive whole and in order; a stream that fails
// mid-way is reported; the destructor writes nothing that finish() was not asked for.
#include "io/text_output.hpp"

#include <gtest/gtest.h>

#include <exception>
#include <ios>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <string>

namespace ionflow {
namespace {

// A stream buffer that accepts `capacity` bytes, then fails every write (a full disk).
class FullAfter : public std::streambuf {
 public:
  explicit FullAfter(size_t capacity) : capacity_(capacity) {}
  const std::string& text() const { return text_; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    if (text_.size() >= capacity_) return traits_type::eof();
    text_.push_back(traits_type::to_char_type(c));
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::streamsize written = 0;
    while (written < n && text_.size() < capacity_) text_.push_back(s[written++]);
    return written;
  }

 private:
  size_t capacity_;
  std::string text_;
};

TEST(TextOutput, ManySmallFlushesArriveWholeAndInOrder) {
  std::ostringstream stream;
  std::string expected;
  {
    TextOutput text(stream, 7);  // a flush (and a write on the second thread) every 7 bytes
    for (int i = 0; i < 20000; ++i) {
      text.put_int(i - 10000);
      text.put('\t');
      text.put_fixed(i * 0.25, 2);
      text.put('\n');
      expected += std::to_string(i - 10000) + "\t";
      std::ostringstream fixed;
      fixed.precision(2);
      fixed << std::fixed << i * 0.25;
      expected += fixed.str() + "\n";
    }
    text.finish();
  }
  EXPECT_EQ(stream.str().size(), expected.size());
  EXPECT_EQ(stream.str(), expected);
}

TEST(TextOutput, AStreamThatFillsUpMidWayThrows) {
  FullAfter full(100);
  std::ostream stream(&full);
  TextOutput text(stream, 64);
  EXPECT_THROW(
      {
        for (int i = 0; i < 1000; ++i) text.put("0123456789");
        text.finish();
      },
      std::runtime_error);
  EXPECT_EQ(full.text().size(), 100u);
  EXPECT_EQ(full.text().substr(0, 10), "0123456789");
}

TEST(TextOutput, AStreamThatThrowsHasItsExceptionRethrownNotTheProcessEnded) {
  // As ZstdOutputStream does (exceptions(badbit)): the write on the second thread throws; the
  // caller gets that error from a later put or finish().
  FullAfter full(100);
  std::ostream stream(&full);
  stream.exceptions(std::ios::badbit);
  TextOutput text(stream, 64);
  EXPECT_THROW(
      {
        for (int i = 0; i < 1000; ++i) text.put("0123456789");
        text.finish();
      },
      std::exception);
  EXPECT_EQ(full.text().size(), 100u);
  EXPECT_THROW(text.finish(), std::runtime_error);  // and stays failed
}

TEST(TextOutput, TheDestructorWritesNothingMore) {
  std::ostringstream stream;
  {
    TextOutput text(stream, 16);
    text.put("0123456789abcdef");  // reaches 16 bytes: handed to the writing thread
    text.put("unfinished");        // never finished: dropped
  }
  EXPECT_EQ(stream.str(), "0123456789abcdef");
}

}  // namespace
}  // namespace ionflow
