#include "service/upload_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/file_descriptor.hpp"

namespace ionflow {
namespace {

UploadPieceResult result(UploadPieceResult::Status status, std::string error = "",
                         int error_number = 0) {
  UploadPieceResult r;
  r.status = status;
  r.error = std::move(error);
  r.error_number = error_number;
  return r;
}

UploadPieceResult system_failure(UploadPieceResult::Status status, int error_number) {
  return result(status, std::strerror(error_number), error_number);
}

// What is at an entry that is not a regular file of its own, or "" for one that is.
std::string not_a_file_of_its_own(const struct stat& st) {
  if (S_ISLNK(st.st_mode)) return "a symbolic link (not followed)";
  if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) return "a FIFO or socket";
  if (S_ISDIR(st.st_mode)) return "a directory";
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  if (st.st_nlink > 1) return "a file with other hard links";
  return "";
}

// Writes all of `body` at `offset` of `fd`; 0 or the errno of the failure.
int write_all(int fd, std::string_view body, uint64_t offset) {
  size_t written = 0;
  while (written < body.size()) {
    const ssize_t n = ::pwrite(fd, body.data() + written, body.size() - written,
                               static_cast<off_t>(offset + written));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : ENOSPC;
    written += static_cast<size_t>(n);
  }
  return 0;
}

}  // namespace

// 64 random bits and a counter, in hex: not guessable, and not repeated after a restart (a
// review found "pid-counter" ids repeating in a container where the server is pid 1).
std::string UploadFiles::new_upload_id() {
  if (random_.empty()) {
    std::random_device device;
    const uint64_t bits = (uint64_t{device()} << 32) ^ device();
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(bits));
    random_ = text;
  }
  return random_ + "-" + std::to_string(++temporaries_);
}

UploadPieceResult UploadFiles::write_piece(const std::string& name, uint64_t offset,
                                           std::string_view body, const std::string& upload) {
  FileDescriptor dir(::open(directory_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (dir.get() < 0) {
    const int error_number = errno;
    struct stat link {};
    if ((error_number == ELOOP || error_number == ENOTDIR) &&
        ::lstat(directory_.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      return result(UploadPieceResult::kOpenFailed,
                    "the uploads directory is a symbolic link (not followed)", ELOOP);
    }
    return system_failure(UploadPieceResult::kOpenFailed, error_number);
  }
  struct stat st {};
  const bool exists = ::fstatat(dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
  if (exists) {
    if (std::string what = not_a_file_of_its_own(st); !what.empty()) {
      return result(UploadPieceResult::kNotRegular, what);
    }
  }
  if (offset == 0) {
    const std::string id = new_upload_id();
    const std::string temporary = ".upload-" + id + "-" + name;
    FileDescriptor file(::openat(dir.get(), temporary.c_str(),
                                 O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (file.get() < 0) return system_failure(UploadPieceResult::kOpenFailed, errno);
    struct stat made {};
    int failure = ::fstat(file.get(), &made) != 0 ? errno : write_all(file.get(), body, 0);
    if (failure == 0 && !file.close()) failure = errno;
    if (failure == 0 && ::renameat(dir.get(), temporary.c_str(), dir.get(), name.c_str()) != 0) {
      failure = errno;
    }
    if (failure != 0) {
      ::unlinkat(dir.get(), temporary.c_str(), 0);
      return system_failure(UploadPieceResult::kWriteFailed, failure);
    }
    made_[name] = {{static_cast<uint64_t>(made.st_dev), static_cast<uint64_t>(made.st_ino)}, id};
    UploadPieceResult r = result(UploadPieceResult::kWritten);
    r.bytes = body.size();
    r.upload = id;
    return r;
  }
  const auto made = made_.find(name);
  if (!upload.empty() && made != made_.end() && made->second.upload != upload) {
    return result(UploadPieceResult::kSuperseded);
  }
  FileDescriptor file(
      ::openat(dir.get(), name.c_str(), O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (file.get() < 0) {
    if (errno == ENOENT) return result(UploadPieceResult::kWrongOffset);  // nothing to resume
    if (errno == ELOOP || errno == ENXIO || errno == EISDIR) {
      return result(UploadPieceResult::kNotRegular, "not a regular file");
    }
    return system_failure(UploadPieceResult::kOpenFailed, errno);
  }
  if (::fstat(file.get(), &st) != 0) return system_failure(UploadPieceResult::kOpenFailed, errno);
  if (std::string what = not_a_file_of_its_own(st); !what.empty()) {
    return result(UploadPieceResult::kNotRegular, what);
  }
  const std::pair<uint64_t, uint64_t> opened{static_cast<uint64_t>(st.st_dev),
                                             static_cast<uint64_t>(st.st_ino)};
  if (made == made_.end() || made->second.file != opened) {
    return result(UploadPieceResult::kWrongOffset);  // not the file our first piece made
  }
  const auto have = static_cast<uint64_t>(st.st_size);
  if (offset != have) {
    UploadPieceResult r = result(UploadPieceResult::kWrongOffset);
    r.bytes = have;
    return r;
  }
  int failure = write_all(file.get(), body, offset);
  if (failure == 0 && !file.close()) failure = errno;
  if (failure != 0) return system_failure(UploadPieceResult::kWriteFailed, failure);
  UploadPieceResult r = result(UploadPieceResult::kWritten);
  r.bytes = offset + body.size();
  r.upload = upload;  // only what the piece gave: another upload's id would let it append there
  return r;
}

}  // namespace ionflow
