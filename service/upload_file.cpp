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

UploadPieceResult result(UploadPieceResult::Status status, std::string error = "",
                         int error_number = 0) {
  UploadPieceResult r;
  r.status = status;
  r.error = std::move(error);
  r.error_number = error_number;
  return r;
}

// What open(2) failing with `error_number` says of the path.
UploadPieceResult open_failed(int error_number, uint64_t offset) {
  switch (error_number) {
    case ELOOP:
      return result(UploadPieceResult::kNotRegular, "a symbolic link (not followed)");
    case ENXIO:
      return result(UploadPieceResult::kNotRegular, "a FIFO or socket");
    case EISDIR:
      return result(UploadPieceResult::kNotRegular, "a directory");
    case ENOENT:
      if (offset != 0) return result(UploadPieceResult::kWrongOffset);  // nothing uploaded yet
      [[fallthrough]];
    default:
      return result(UploadPieceResult::kOpenFailed, std::strerror(error_number), error_number);
  }
}

}  // namespace

UploadPieceResult write_upload_piece(const std::string& path, uint64_t offset,
                                     std::string_view body) {
  FileDescriptor file;
  const int create = offset == 0 ? O_CREAT : 0;  // a later piece needs the first one's file
  file.fd = ::open(path.c_str(), O_WRONLY | create | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
                   0644);
  if (file.fd < 0) return open_failed(errno, offset);
  struct stat st {};
  if (::fstat(file.fd, &st) != 0) {
    return result(UploadPieceResult::kOpenFailed, std::strerror(errno), errno);
  }
  if (!S_ISREG(st.st_mode)) return result(UploadPieceResult::kNotRegular, "not a regular file");
  if (st.st_nlink > 1) {
    return result(UploadPieceResult::kNotRegular, "a file with other hard links");
  }
  const auto have = static_cast<uint64_t>(st.st_size);
  if (offset != 0 && offset != have) {
    UploadPieceResult r = result(UploadPieceResult::kWrongOffset);
    r.bytes = have;
    return r;
  }
  if (offset == 0 && ::ftruncate(file.fd, 0) != 0) {
    return result(UploadPieceResult::kWriteFailed, std::strerror(errno), errno);
  }
  size_t written = 0;
  while (written < body.size()) {
    const ssize_t n = ::pwrite(file.fd, body.data() + written, body.size() - written,
                               static_cast<off_t>(offset + written));
    if (n < 0 && errno == EINTR) continue;
    const int error_number = n < 0 ? errno : ENOSPC;
    if (n <= 0)
      return result(UploadPieceResult::kWriteFailed, std::strerror(error_number), error_number);
    written += static_cast<size_t>(n);
  }
  const int fd = file.fd;
  file.fd = -1;
  if (::close(fd) != 0) {  // NFS and some file systems report a full disk only here
    return result(UploadPieceResult::kWriteFailed, std::strerror(errno), errno);
  }
  UploadPieceResult r = result(UploadPieceResult::kWritten);
  r.bytes = offset + body.size();
  return r;
}

}  // namespace ionflow
