#include "io/file_output_stream.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace ionflow {

namespace {

int create_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    throw std::runtime_error("cannot create " + path + ": " +
                             std::system_category().message(errno));
  }
  return fd;
}

}  // namespace

FileStreambuf::FileStreambuf(int fd, std::size_t buffer_bytes)
    : fd_(fd), buffer_(std::max<std::size_t>(buffer_bytes, 1)) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

FileStreambuf::~FileStreambuf() {
  close();
}

bool FileStreambuf::write_fully(const char* data, std::size_t size) {
  if (error_number_ != 0) return false;
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error_number_ = errno;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
    bytes_written_ += static_cast<uint64_t>(n);
  }
  return true;
}

bool FileStreambuf::drain() {
  const bool ok = write_fully(pbase(), static_cast<std::size_t>(pptr() - pbase()));
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return ok;
}

FileStreambuf::int_type FileStreambuf::overflow(int_type ch) {
  if (fd_ < 0 || !drain()) return traits_type::eof();
  if (!traits_type::eq_int_type(ch, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(ch);
    pbump(1);
  }
  return traits_type::not_eof(ch);
}

std::streamsize FileStreambuf::xsputn(const char* data, std::streamsize size) {
  if (fd_ < 0 || size <= 0) return 0;
  const auto n = static_cast<std::size_t>(size);
  if (n <= static_cast<std::size_t>(epptr() - pptr())) {
    std::memcpy(pptr(), data, n);
    pbump(static_cast<int>(n));
    return size;
  }
  if (!drain()) return 0;
  if (n >= buffer_.size()) return write_fully(data, n) ? size : 0;
  std::memcpy(pptr(), data, n);
  pbump(static_cast<int>(n));
  return size;
}

int FileStreambuf::sync() {
  return fd_ >= 0 && drain() ? 0 : -1;
}

bool FileStreambuf::close() {
  if (fd_ < 0) return error_number_ == 0;
  drain();
  if (::close(fd_) != 0 && error_number_ == 0) error_number_ = errno;
  fd_ = -1;
  setp(nullptr, nullptr);
  return error_number_ == 0;
}

FileOutputStream::FileOutputStream(const std::string& path, std::size_t buffer_bytes)
    : std::ostream(nullptr), path_(path), buffer_(create_file(path), buffer_bytes) {
  rdbuf(&buffer_);
}

void FileOutputStream::close() {
  if (!buffer_.close()) {
    setstate(std::ios::badbit);
    throw std::runtime_error(error());
  }
}

std::string FileOutputStream::error() const {
  if (buffer_.error_number() == 0) return "";
  return "cannot write " + path_ + ": " + std::system_category().message(buffer_.error_number());
}

}  // namespace ionflow
