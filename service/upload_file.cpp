#include "service/upload_file.hpp"

#include <spdlog/spdlog.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <regex>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/file_descriptor.hpp"

namespace ionflow {
namespace {

namespace fs = std::filesystem;

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

UploadPieceResult too_long(uint64_t size) {
  UploadPieceResult r = result(UploadPieceResult::kTooLong);
  r.size = size;
  return r;
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
                                           std::string_view body, const std::string& upload,
                                           std::optional<uint64_t> size) {
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
    if (size && body.size() > *size) return too_long(*size);
    const std::string id = new_upload_id();
    // Staged: named with its size, for the log of the restart that removes it unfinished.
    const std::string temporary =
        size ? std::string(kStagedPrefix) + id + "-" + std::to_string(*size) + "-" + name
             : std::string(kTemporaryPrefix) + id + "-" + name;
    const bool complete = !size || body.size() == *size;
    FileDescriptor file(::openat(dir.get(), temporary.c_str(),
                                 O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (file.get() < 0) return system_failure(UploadPieceResult::kOpenFailed, errno);
    struct stat made {};
    int failure = ::fstat(file.get(), &made) != 0 ? errno : write_all(file.get(), body, 0);
    // A staged upload is whole on disk when it takes its name (an unsized one as before).
    if (failure == 0 && size && complete && ::fdatasync(file.get()) != 0) failure = errno;
    if (failure == 0 && !file.close()) failure = errno;
    if (failure == 0 && complete &&
        ::renameat(dir.get(), temporary.c_str(), dir.get(), name.c_str()) != 0) {
      failure = errno;
    }
    if (failure != 0) {
      ::unlinkat(dir.get(), temporary.c_str(), 0);
      return system_failure(UploadPieceResult::kWriteFailed, failure);
    }
    // The upload this one replaces can take no piece any more: its staged file goes.
    if (const auto before = made_.find(name);
        before != made_.end() && !before->second.staged.empty()) {
      ::unlinkat(dir.get(), before->second.staged.c_str(), 0);
    }
    made_[name] = {{static_cast<uint64_t>(made.st_dev), static_cast<uint64_t>(made.st_ino)},
                   id,
                   size,
                   complete ? "" : temporary};
    UploadPieceResult r = result(UploadPieceResult::kWritten);
    r.bytes = body.size();
    r.upload = id;
    r.size = size;
    r.complete = size && complete;
    return r;
  }
  const auto made = made_.find(name);
  if (!upload.empty() && made != made_.end() && made->second.upload != upload) {
    return result(UploadPieceResult::kSuperseded);
  }
  if (made != made_.end() && size && made->second.size != size) {
    UploadPieceResult r = result(UploadPieceResult::kSizeMismatch);
    r.size = made->second.size;  // none: the upload was started without one
    return r;
  }
  if (made != made_.end() && made->second.size) {
    return write_staged(dir.get(), name, offset, body, upload, made->second);
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

// A later piece of a staged upload (`made`, of `name`; REQUIRES: made.size): into its staged
// file, which the piece that completes it renames over `name`.
UploadPieceResult UploadFiles::write_staged(int dir, const std::string& name, uint64_t offset,
                                            std::string_view body, const std::string& upload,
                                            Made& made) {
  const uint64_t size = *made.size;
  if (offset > size || body.size() > size - offset) return too_long(size);
  if (made.staged.empty()) {  // complete: this is a piece sent again whose answer was lost
    UploadPieceResult r = result(UploadPieceResult::kWrongOffset);
    r.bytes = size;
    r.size = size;
    r.complete = true;
    return r;
  }
  FileDescriptor file(::openat(dir, made.staged.c_str(),
                               O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (file.get() < 0) {
    if (errno == ENOENT) return result(UploadPieceResult::kWrongOffset);  // removed: start over
    if (errno == ELOOP || errno == ENXIO || errno == EISDIR) {
      return result(UploadPieceResult::kNotRegular, "not a regular file");
    }
    return system_failure(UploadPieceResult::kOpenFailed, errno);
  }
  struct stat st {};
  if (::fstat(file.get(), &st) != 0) return system_failure(UploadPieceResult::kOpenFailed, errno);
  if (std::string what = not_a_file_of_its_own(st); !what.empty()) {
    return result(UploadPieceResult::kNotRegular, what);
  }
  if (made.file != std::pair<uint64_t, uint64_t>{static_cast<uint64_t>(st.st_dev),
                                                 static_cast<uint64_t>(st.st_ino)}) {
    return result(UploadPieceResult::kWrongOffset);  // not the file our first piece made
  }
  const auto have = static_cast<uint64_t>(st.st_size);
  if (offset != have) {
    UploadPieceResult r = result(UploadPieceResult::kWrongOffset);
    r.bytes = have;
    r.size = size;
    return r;
  }
  const bool complete = offset + body.size() == size;
  int failure = write_all(file.get(), body, offset);
  if (failure == 0 && complete && ::fdatasync(file.get()) != 0) failure = errno;
  if (failure == 0 && complete && ::renameat(dir, made.staged.c_str(), dir, name.c_str()) != 0) {
    failure = errno;
  }
  if (failure != 0) {
    // Back to where the piece began, so that the same piece can be sent again.
    if (::ftruncate(file.get(), static_cast<off_t>(offset)) != 0) {
      spdlog::warn("upload {}: cannot truncate {} back to {} bytes: {}", name, made.staged, offset,
                   std::strerror(errno));
    }
    return system_failure(UploadPieceResult::kWriteFailed, failure);
  }
  if (complete) made.staged.clear();
  UploadPieceResult r = result(UploadPieceResult::kWritten);
  r.bytes = offset + body.size();
  r.upload = upload;
  r.size = size;
  r.complete = complete;
  return r;
}

bool UploadFiles::changes_file(const std::string& name, uint64_t offset, uint64_t body_bytes,
                               const std::string& upload, std::optional<uint64_t> size) const {
  if (offset == 0) return !size || body_bytes == *size;
  const auto made = made_.find(name);
  if (made == made_.end()) return !size;  // a size for no upload of the name: kWrongOffset
  const Made& m = made->second;
  if (!upload.empty() && m.upload != upload) return false;  // kSuperseded
  if (!m.size && !size) return true;                        // an unsized upload's piece
  if (!m.size || (size && *size != *m.size) || m.staged.empty()) return false;
  return offset <= *m.size && body_bytes == *m.size - offset;
}

bool is_unfinished_upload(const std::string& path, const std::string& uploads_directory) {
  fs::path directory = fs::path(uploads_directory).lexically_normal();
  if (!directory.has_filename()) directory = directory.parent_path();  // "/data/uploads/"
  const fs::path relative = fs::path(path).lexically_normal().lexically_relative(directory);
  if (relative.empty() || relative == ".") return false;
  const std::string first = relative.begin()->string();
  return first != ".." && first.starts_with('.');
}

std::vector<UnfinishedUpload> remove_unfinished_uploads(const std::string& directory) {
  // .staged-ID-SIZE-NAME and .upload-ID-NAME, ID = 16 hex digits, '-', a counter.
  static const std::regex staged(R"(\.staged-[0-9a-f]{16}-[0-9]+-([0-9]+)-(.+))");
  static const std::regex temporary(R"(\.upload-[0-9a-f]{16}-[0-9]+-(.+))");
  std::vector<UnfinishedUpload> found;
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    UnfinishedUpload u;
    u.file = it->path().filename().string();
    std::smatch match;
    if (std::regex_match(u.file, match, staged)) {
      u.name = match[2];
      uint64_t size = 0;
      const std::string text = match[1];
      std::from_chars(text.data(), text.data() + text.size(), size);
      u.size = size;
    } else if (std::regex_match(u.file, match, temporary)) {
      u.name = match[1];
    } else {
      continue;
    }
    std::error_code size_ec, remove_ec;
    if (fs::is_regular_file(it->symlink_status(size_ec))) u.bytes = it->file_size(size_ec);
    fs::remove(it->path(), remove_ec);  // a link itself, never its target
    if (remove_ec) u.error = remove_ec.message();
    found.push_back(std::move(u));
  }
  return found;
}

}  // namespace ionflow
