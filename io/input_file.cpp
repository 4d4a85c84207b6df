#include "io/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace ionflow {

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return nullptr;
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

}  // namespace

InputFile InputFile::open(const std::string& path) {
  InputFile file;
  file.fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (file.fd_ < 0) {
    if (errno == EISDIR) throw std::runtime_error(path + ": is a directory, not a file");
    throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(file.fd_, &st) != 0) {
    throw std::runtime_error(path + ": cannot read: " + std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) throw std::runtime_error(path + ": is a directory, not a file");
  if (!S_ISREG(st.st_mode)) {
    throw std::runtime_error(path + ": is " + kind_of(st.st_mode) +
                             ", not a regular file: ionflow reads files it can size and re-read");
  }
  const int flags = ::fcntl(file.fd_, F_GETFL);
  if (flags >= 0) ::fcntl(file.fd_, F_SETFL, flags & ~O_NONBLOCK);
  file.size_bytes_ = static_cast<uint64_t>(st.st_size);
  return file;
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

InputFile::InputFile(InputFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), size_bytes_(other.size_bytes_) {}

InputFile& InputFile::operator=(InputFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    size_bytes_ = other.size_bytes_;
  }
  return *this;
}

int InputFile::release() {
  return std::exchange(fd_, -1);
}

void refuse_zero_head(const std::string& path, std::string_view head, const std::string& what) {
  if (head.empty()) return;
  if (std::any_of(head.begin(), head.end(), [](char c) { return c != '\0'; })) return;
  throw std::runtime_error(path + ": the first " + std::to_string(head.size()) +
                           " bytes are all zero" + (what.empty() ? "" : ": not " + what) +
                           " (a sparse, preallocated or damaged file?)");
}

}  // namespace ionflow
