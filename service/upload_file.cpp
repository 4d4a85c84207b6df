#include "service/upload_file.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ionflow {
namespace {

// Closes a file descriptor when it goes out of scope.
struct FileDescriptor {
  int fd = -1;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

UploadPieceResult failed(UploadPieceResult::Status status, int error_number) {
  UploadPieceResult r;
  r.status = status;
  switch (error_number) {  // open(2)'s answers for what lies at the path
    case ELOOP:
      r.error = "a symbolic link (not followed)";
      break;
    case ENXIO:
      r.error = "a FIFO or socket, not a regular file";
      break;
    default:
      r.error = std::strerror(error_number);
  }
  return r;
}

}  // namespace

UploadPieceResult write_upload_piece(const std::string& path, uint64_t offset,
                                     std::string_view body) {
  FileDescriptor file;
  file.fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  if (file.fd < 0) return failed(UploadPieceResult::kOpenFailed, errno);
  struct stat st {};
  if (::fstat(file.fd, &st) != 0) return failed(UploadPieceResult::kOpenFailed, errno);
  UploadPieceResult r;
  if (!S_ISREG(st.st_mode)) {
    r.status = UploadPieceResult::kNotRegular;
    return r;
  }
  const auto have = static_cast<uint64_t>(st.st_size);
  if (offset != 0 && offset != have) {
    r.status = UploadPieceResult::kWrongOffset;
    r.bytes = have;
    return r;
  }
  if (offset == 0 && ::ftruncate(file.fd, 0) != 0) {
    return failed(UploadPieceResult::kWriteFailed, errno);
  }
  size_t written = 0;
  while (written < body.size()) {
    const ssize_t n = ::pwrite(file.fd, body.data() + written, body.size() - written,
                               static_cast<off_t>(offset + written));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return failed(UploadPieceResult::kWriteFailed, n < 0 ? errno : ENOSPC);
    written += static_cast<size_t>(n);
  }
  if (::close(file.fd) != 0) {  // NFS and some file systems report a full disk only here
    file.fd = -1;
    return failed(UploadPieceResult::kWriteFailed, errno);
  }
  file.fd = -1;
  r.bytes = offset + body.size();
  return r;
}

}  // namespace ionflow
