// Upload files: writes the pieces of uploads (PUT /v1/uploads/NAME?offset=N) into their files in
// DIR/uploads, never through anything a third party put there.
//
// Contract of UploadFiles::write_piece(name, offset, body, upload) (`name` already checked:
// letters, digits, '.', '_', '-', not starting with '.'):
//   - The uploads directory is opened without following a symbolic link; an entry at `name`
//     that is a symbolic link, FIFO, socket, directory, device, or a regular file with other hard
//     links is kNotRegular (with `error` saying which), nothing written anywhere.
//   - offset 0: the body goes into a new file of its own (a hidden temporary name, O_EXCL),
//     renamed over `name` once written: kWritten, `bytes` = body.size(), `upload` a new id of
//     this upload (64 random bits and a counter: not guessable, not repeated after a restart).
//     Whatever was at `name` is replaced, never opened for writing.
//   - offset > 0: the piece goes at the end of the file this object's first piece of `name`
//     made (same device and inode); another file there (put by someone else, swapped in since,
//     or left by a server that has restarted) or none is kWrongOffset with `bytes` 0 (start
//     over); the right file of another size is kWrongOffset with `bytes` = its size. With an
//     `upload` id (the one the first piece answered), a piece whose upload has been replaced
//     by a later first piece under the same name is kSuperseded, nothing written: two clients
//     sending one name at once no longer interleave their pieces into one file (a new user's
//     check). Without an id (scripts of before), the later first piece's file takes the piece,
//     and `upload` stays empty (the other upload's id is not handed out).
//   - a failure to open (EACCES, ENOSPC, EMFILE, EROFS, ...) is kOpenFailed; a failed write or
//     rename (ENOSPC, EIO) kWriteFailed; `error` the system's reason, `error_number` its errno.
// Thread-compatible: the caller serializes calls (the web API holds a mutex).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace ionflow {

struct UploadPieceResult {
  enum Status { kWritten, kWrongOffset, kSuperseded, kNotRegular, kOpenFailed, kWriteFailed };
  Status status = kWritten;
  uint64_t bytes = 0;    // the file's size after the write (kWritten), or before (kWrongOffset)
  std::string error;     // why, for kNotRegular, kOpenFailed and kWriteFailed
  int error_number = 0;  // errno for kOpenFailed and kWriteFailed
  std::string upload;    // kWritten: the id of the upload the piece belongs to
};

class UploadFiles {
 public:
  explicit UploadFiles(std::string directory) : directory_(std::move(directory)) {}
  UploadPieceResult write_piece(const std::string& name, uint64_t offset, std::string_view body,
                                const std::string& upload = "");

 private:
  std::string directory_;
  // The file the last first piece of a name made, and that upload's id.
  struct Made {
    std::pair<uint64_t, uint64_t> file;  // device, inode
    std::string upload;
  };
  std::map<std::string, Made> made_;
  std::string new_upload_id();

  uint64_t temporaries_ = 0;  // for unique temporary names and upload ids
  std::string random_;        // this object's random part of the ids
};

}  // namespace ionflow
