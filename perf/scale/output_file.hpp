// OutputFile: a buffered binary file writer that counts bytes (for mzML index offsets) and can
// feed what it writes to a SHA-1 (for the indexed mzML fileChecksum). Numbers are formatted with
// std::to_chars: locale-free, shortest or fixed, deterministic.
//
// Throws std::runtime_error naming the path when the file cannot be opened or written. Not
// thread-safe; one writer per file. Header-only.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include "perf/scale/sha1.hpp"

namespace ionflow::scale {

class OutputFile {
 public:
  explicit OutputFile(std::string path) : path_(std::move(path)) {
    file_ = std::fopen(path_.c_str(), "wb");
    if (file_ == nullptr) throw std::runtime_error(path_ + ": cannot open for writing");
    buffer_.reserve(kFlushBytes + 4096);
  }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile() {
    if (file_ != nullptr) std::fclose(file_);
  }

  // Every byte written from now on also goes to `sha1` (nullptr to stop).
  void hash_into(Sha1* sha1) {
    flush_hash();
    sha1_ = sha1;
  }

  // Bytes written so far (the offset of the next byte).
  uint64_t offset() const { return flushed_ + buffer_.size(); }

  void put(std::string_view text) {
    buffer_.append(text);
    if (buffer_.size() >= kFlushBytes) flush();
  }
  void put(char c) { buffer_.push_back(c); }

  void put_uint(uint64_t v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof(tmp), v);
    buffer_.append(tmp, r.ptr);
  }

  // Fixed notation with `decimals` digits after the point.
  void put_fixed(double v, int decimals) {
    char tmp[64];
    auto r = std::to_chars(tmp, tmp + sizeof(tmp), v, std::chars_format::fixed, decimals);
    buffer_.append(tmp, r.ptr);
  }

  // General notation with `digits` significant digits.
  void put_general(double v, int digits) {
    char tmp[64];
    auto r = std::to_chars(tmp, tmp + sizeof(tmp), v, std::chars_format::general, digits);
    buffer_.append(tmp, r.ptr);
  }

  void flush() {
    flush_hash();
    if (!buffer_.empty() &&
        std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
      throw std::runtime_error(path_ + ": write failed");
    }
    flushed_ += buffer_.size();
    buffer_.clear();
    hashed_ = 0;
  }

  // Flushes and closes; throws if the data did not reach the file.
  void close() {
    flush();
    if (std::fclose(file_) != 0) {
      file_ = nullptr;
      throw std::runtime_error(path_ + ": close failed");
    }
    file_ = nullptr;
  }

 private:
  static constexpr std::size_t kFlushBytes = 1 << 20;

  void flush_hash() {
    if (sha1_ != nullptr) sha1_->update(std::string_view(buffer_).substr(hashed_));
    hashed_ = buffer_.size();
  }

  std::string path_;
  std::FILE* file_ = nullptr;
  std::string buffer_;
  uint64_t flushed_ = 0;
  std::size_t hashed_ = 0;  // bytes of buffer_ already given to the hash (or skipped)
  Sha1* sha1_ = nullptr;
};

}  // namespace ionflow::scale
