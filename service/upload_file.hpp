// Upload file: writes one piece of an upload (PUT /v1/uploads/NAME?offset=N) into its file in
// DIR/uploads, refusing anything there that is not a regular file of its own.
//
// Contract: write_upload_piece(path, offset, body) opens `path` without following a symbolic
// link (O_NOFOLLOW) and without blocking (O_NONBLOCK), creating it (mode 0644) only for a first
// piece (offset 0). Then:
//   - a symbolic link (ELOOP), a FIFO or socket without a reader (ENXIO), a directory (EISDIR):
//     kNotRegular, with `error` saying which; a FIFO with a reader, a device, or a regular file
//     with other hard links (written through, it would change a file elsewhere): kNotRegular;
//     nothing is written to any of them;
//   - offset != 0 and offset != the file's size (0 when it does not exist): kWrongOffset with
//     `bytes` = that size;
//   - any other failure to open (EACCES, ENOSPC, EMFILE, EROFS, ...): kOpenFailed;
//   - else the file is cut to `offset` (0 starts anew) and `body` written there: kWritten with
//     `bytes` = offset + body.size(); a failed write (ENOSPC, EIO) is kWriteFailed.
// `error` is the system's reason (strerror text) or, for kNotRegular, what is at the path.
// Thread-safety: callers serialize pieces of one upload (the web API holds a mutex).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ionflow {

struct UploadPieceResult {
  enum Status { kWritten, kWrongOffset, kNotRegular, kOpenFailed, kWriteFailed };
  Status status = kWritten;
  uint64_t bytes = 0;    // the file's size after the write (kWritten), or before (kWrongOffset)
  std::string error;     // why, for kNotRegular, kOpenFailed and kWriteFailed
  int error_number = 0;  // errno for kOpenFailed and kWriteFailed
};

UploadPieceResult write_upload_piece(const std::string& path, uint64_t offset,
                                     std::string_view body);

}  // namespace ionflow
