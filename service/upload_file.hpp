// Upload files: writes the pieces of uploads (PUT /v1/uploads/NAME?offset=N[&size=TOTAL]) into
// their files in DIR/uploads, never through anything a third party put there.
//
// Contract of UploadFiles::write_piece(name, offset, body, upload, size) (`name` already
// checked: letters, digits, '.', '_', '-', not starting with '.'):
//   - The uploads directory is opened without following a symbolic link; an entry at `name`
//     that is a symbolic link, FIFO, socket, directory, device, or a regular file with other hard
//     links is kNotRegular (with `error` saying which), nothing written anywhere.
//   - Without `size` (an unsized upload: the interface of before, kept for scripts):
//     - offset 0: the body goes into a new file of its own (a hidden temporary name, O_EXCL),
//       renamed over `name` once written: kWritten, `bytes` = body.size(), `upload` a new id of
//       this upload (64 random bits and a counter: not guessable, not repeated after a restart).
//       Whatever was at `name` is replaced, never opened for writing.
//     - offset > 0: the piece goes at the end of the file this object's first piece of `name`
//       made (same device and inode); another file there (put by someone else, swapped in
//       since, or left by a server that has restarted) or none is kWrongOffset with `bytes` 0
//       (start over); the right file of another size is kWrongOffset with `bytes` = its size.
//     So from its first piece on, an unsized upload is visible at `name`, cut until its last.
//   - With `size` on the first piece (a staged upload of `size` bytes in all; later pieces may
//     repeat it or leave it out): the pieces go into a staged file, kStagedPrefix + id + "-" +
//     size + "-" + name in the uploads directory (hidden: no listing shows it, no job may read
//     it, see is_unfinished_upload), with the same offset and file checks as above; the piece
//     that brings it to `size` bytes is synced to disk and the staged file renamed over `name`
//     (atomically: `name` holds the whole file of before or the whole new one, never a part):
//     kWritten with `complete` true. A first piece of exactly `size` bytes completes at once.
//     A piece that would end past `size` is kTooLong, one whose `size` differs from the one the
//     upload started with (or that gives one for an unsized upload) kSizeMismatch, nothing
//     written. A piece after completion is kTooLong, or kWrongOffset with `bytes` = `size` and
//     `complete` true (its retry). A piece whose write or rename fails leaves the staged file as
//     it was before it (truncated back), so that the same piece can be sent again.
//   - With an `upload` id (the one the first piece answered), a piece whose upload has been
//     replaced by a later first piece under the same name is kSuperseded, nothing written: two
//     clients sending one name at once no longer interleave their pieces into one file (a new
//     user's check). Without an id (scripts of before), the later first piece's file takes the
//     piece, and `upload` stays empty (the other upload's id is not handed out). A first piece
//     removes the staged file of the upload it replaces (no piece can reach it any more).
//   - a failure to open (EACCES, ENOSPC, EMFILE, EROFS, ...) is kOpenFailed; a failed write,
//     sync or rename (ENOSPC, EIO) kWriteFailed; `error` the system's reason, `error_number` its
//     errno.
// The ids and the files they name live in this object only: after a restart no piece of an
// upload begun before can go on (kWrongOffset, `bytes` 0), and remove_unfinished_uploads removes
// what those uploads left.
// Thread-compatible: the caller serializes calls (the web API holds the UploadGate).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ionflow {

// The hidden names of the files uploads in progress are written to in the uploads directory:
// the temporary of an unsized upload's first piece, and a staged upload's file.
inline constexpr std::string_view kTemporaryPrefix = ".upload-";
inline constexpr std::string_view kStagedPrefix = ".staged-";

struct UploadPieceResult {
  enum Status {
    kWritten,
    kWrongOffset,
    kSuperseded,
    kTooLong,       // the piece would end past the upload's size
    kSizeMismatch,  // `size` is not the one the upload started with
    kNotRegular,
    kOpenFailed,
    kWriteFailed
  };
  Status status = kWritten;
  uint64_t bytes = 0;    // the upload's bytes after the write (kWritten), or before (kWrongOffset)
  std::string error;     // why, for kNotRegular, kOpenFailed and kWriteFailed
  int error_number = 0;  // errno for kOpenFailed and kWriteFailed
  std::string upload;    // kWritten: the id of the upload the piece belongs to
  // A staged upload's size (kWritten, kWrongOffset, kTooLong, kSizeMismatch); none for an
  // unsized one.
  std::optional<uint64_t> size;
  bool complete = false;  // a staged upload whose file is at its name, whole
};

class UploadFiles {
 public:
  explicit UploadFiles(std::string directory) : directory_(std::move(directory)) {}
  UploadFiles(const UploadFiles&) = delete;
  UploadFiles& operator=(const UploadFiles&) = delete;

  UploadPieceResult write_piece(const std::string& name, uint64_t offset, std::string_view body,
                                const std::string& upload = "",
                                std::optional<uint64_t> size = std::nullopt);

  // Whether write_piece with these arguments, if it wrote, would change the file at `name`:
  // every piece of an unsized upload (a first one replaces it, a later one appends to it), and
  // the piece that completes a staged upload; not the other pieces of a staged upload, nor one
  // that write_piece refuses for the upload's id or size. For the rule that a file a job reads
  // is not changed under it (job_inputs.hpp). Reads no file.
  bool changes_file(const std::string& name, uint64_t offset, uint64_t body_bytes,
                    const std::string& upload, std::optional<uint64_t> size) const;

 private:
  std::string directory_;
  // The file the last first piece of a name made, and that upload's id and size.
  struct Made {
    std::pair<uint64_t, uint64_t> file;  // device, inode
    std::string upload;
    std::optional<uint64_t> size;  // a staged upload's
    std::string staged;            // a staged upload's file until it completes, then ""
  };
  std::map<std::string, Made> made_;
  std::string new_upload_id();
  UploadPieceResult write_staged(int dir, const std::string& name, uint64_t offset,
                                 std::string_view body, const std::string& upload, Made& made);

  uint64_t temporaries_ = 0;  // for unique temporary names and upload ids
  std::string random_;        // this object's random part of the ids
};

// Whether `path` names, in the uploads directory `uploads_directory`, an upload that is not a
// file yet: a hidden name there (a temporary or staged file of an upload in progress, see
// above), or anything below one. Both are compared as written (lexically normal); the caller
// also compares their resolved forms when symbolic links may be on the way.
bool is_unfinished_upload(const std::string& path, const std::string& uploads_directory);

// What an upload a restart cannot resume left in the uploads directory.
struct UnfinishedUpload {
  std::string file;              // the hidden file's name in the uploads directory
  std::string name;              // the upload's name (its file's once complete)
  uint64_t bytes = 0;            // how many of its bytes had arrived
  std::optional<uint64_t> size;  // a staged upload's size
  std::string error;             // why it could not be removed; "" = removed
};

// Removes every temporary and staged file (kTemporaryPrefix, kStagedPrefix) in `directory`: at
// the start of `ionflow serve`, when no piece can reach them any more (see above). Other entries
// are left alone, and a missing directory is nothing to do. Returns what it found, for the log.
std::vector<UnfinishedUpload> remove_unfinished_uploads(const std::string& directory);

}  // namespace ionflow
