// FileImage (file_image.hpp): fstat for the size, one populated anonymous mapping one byte
// larger (so that reaching the end is seen without a second mapping), read(2) until the end;
// a file that grew is read on into a mapping twice as large (mremap).
#include "io/file_image.hpp"

#include "io/file_descriptor.hpp"
#include "io/input_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace ionflow {
namespace {

[[noreturn]] void fail(const std::string& path, const char* what, int error) {
  throw std::runtime_error(path + ": " + what + ": " + std::strerror(error));
}

}  // namespace

FileImage::~FileImage() {
  release();
}

FileImage::FileImage(FileImage&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

FileImage& FileImage::operator=(FileImage&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

void FileImage::release() {
  if (data_ != nullptr) ::munmap(data_, capacity_);
  data_ = nullptr;
  size_ = capacity_ = 0;
}

FileImage FileImage::read(const std::string& path, const ReadLimits& limits) {
  // Directories, FIFOs, sockets and devices are refused here, without blocking.
  const FileDescriptor fd(InputFile::open(path).release());
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) fail(path, "cannot read", errno);
  const auto file_bytes = static_cast<uint64_t>(st.st_size > 0 ? st.st_size : 0);
  if (limits.refuse_zero_head) {
    char head[4096];
    const ssize_t n = ::pread(fd.get(), head, sizeof(head), 0);
    if (n > 0) refuse_zero_head(path, std::string_view(head, static_cast<size_t>(n)), "");
  }
  if (limits.max_bytes > 0 && file_bytes > limits.max_bytes) {
    throw std::runtime_error(path + ": " + std::to_string(file_bytes) + " bytes, more than the " +
                             std::to_string(limits.max_bytes) + " bytes it may take in memory (" +
                             limits.max_bytes_source + ")");
  }
  ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
  FileImage image;
  // One byte more than the size: a read that fills the mapping means the file grew.
  const size_t initial = static_cast<size_t>(file_bytes) + 1;
  void* p = ::mmap(nullptr, initial, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (p == MAP_FAILED) fail(path, "cannot map memory to read it into", errno);
  image.data_ = static_cast<char*>(p);
  image.capacity_ = initial;
  for (;;) {
    if (image.size_ == image.capacity_) {
      const size_t grown = image.capacity_ * 2;
      void* q = ::mremap(image.data_, image.capacity_, grown, MREMAP_MAYMOVE);
      if (q == MAP_FAILED) fail(path, "cannot map memory to read it into", errno);
      image.data_ = static_cast<char*>(q);
      image.capacity_ = grown;
    }
    const ssize_t n = ::read(fd.get(), image.data_ + image.size_, image.capacity_ - image.size_);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(path, "read error", errno);
    }
    if (n == 0) break;
    image.size_ += static_cast<size_t>(n);
  }
  return image;
}

}  // namespace ionflow
