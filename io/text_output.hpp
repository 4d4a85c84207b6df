// TextOutput: an append-only text buffer in front of an std::ostream, with deterministic,
// locale-independent number formatting (std::to_chars). The result writers build each record
// with it and hand the stream large chunks, so writing is one sequential pass with few calls into
// the stream.
//
// Contract: text is buffered until the buffer reaches `flush_bytes` or finish() is called; the
// destructor does NOT flush (a writer that threw must not leave half a record behind silently).
// A full buffer is handed to a second thread that writes it to the stream while the caller
// formats the next one (the kernel's copy into the page cache was a quarter of the writer's
// time after the last chunk on the 684k-query scale set); writes stay in order, one at a time.
// finish() writes the rest, flushes the stream and throws std::runtime_error if the stream is
// bad. A write that fails mid-way throws std::runtime_error from the next put that flushes or
// from finish(); a stream that throws on failure (exceptions(badbit)) has its exception rethrown
// there instead. The stream must not be used by anything else while a TextOutput writes to it.
// Not thread-safe; one TextOutput per stream. Not copyable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>

namespace ionflow {

class TextOutput {
 public:
  explicit TextOutput(std::ostream& out, std::size_t flush_bytes = std::size_t{1} << 20);
  TextOutput(const TextOutput&) = delete;
  TextOutput& operator=(const TextOutput&) = delete;

  void put(char c) {
    buffer_.push_back(c);
    if (buffer_.size() >= flush_bytes_) flush_buffer();
  }
  void put(std::string_view text) {
    buffer_.append(text);
    if (buffer_.size() >= flush_bytes_) flush_buffer();
  }
  void put_int(int64_t value);
  void put_uint(uint64_t value);
  // Fixed notation with `decimals` digits after the point ("1162.62344"). A result that rounds
  // to zero is written without a sign ("0.0000", never "-0.0000"). NaN -> "nan", infinities ->
  // "inf" / "-inf".
  void put_fixed(double value, int decimals);
  // Scientific notation with `decimals` digits after the point ("1.234e-05").
  void put_scientific(double value, int decimals);
  // The shortest text that reads back as the same double ("0.01", "1162.6234366").
  void put_shortest(double value);

  // Writes everything buffered and flushes the stream. Throws std::runtime_error if the stream
  // is (or becomes) bad. May be called more than once.
  void finish();

  ~TextOutput();  // waits for a write in flight; writes nothing more

 private:
  void flush_buffer();
  void wait_for_write();          // joins the write in flight; throws if it failed
  void write_pending() noexcept;  // writes writing_; records a failure or the stream's exception

  std::ostream& out_;
  std::string buffer_;
  std::string writing_;  // the buffer being written by writer_
  std::thread writer_;
  bool write_failed_ = false;       // set by writer_, read after the join
  std::exception_ptr write_error_;  // what the stream threw on writer_, read after the join
  std::size_t flush_bytes_;
};

}  // namespace ionflow
