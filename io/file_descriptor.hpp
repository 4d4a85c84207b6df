// FileDescriptor: owns one POSIX file descriptor and closes it when destroyed.
//
// Contract: holds -1 (nothing) or a descriptor the caller opened; get() returns it; close()
// closes it now and returns false (errno set) when close(2) reports an error — some file
// systems (NFS) report a failed write, a full disk, only there; after it the object holds -1.
// Not copyable or movable (one owner, one scope).
// Thread-compatible.
#pragma once

#include <unistd.h>

namespace ionflow {

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;

  int get() const { return fd_; }
  bool close() {
    const int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0;
  }

 private:
  int fd_;
};

}  // namespace ionflow
