// Upload file: writes one piece of an upload (PUT /v1/uploads/NAME?offset=N) into its file in
// DIR/uploads, refusing anything there that is not a regular file of the uploads directory.
//
// Contract: write_upload_piece(path, offset, body) opens `path` without following a symbolic
// link (O_NOFOLLOW: a link named NAME, pointing anywhere, is refused, never written through) and
// without blocking (O_NONBLOCK: a FIFO without a reader fails at once, one with a reader is
// refused as not a regular file), creating it (mode 0644) when absent. Then:
//   - not a regular file (FIFO, directory, device, link): kNotRegular, nothing written;
//   - offset != 0 and offset != the file's size: kWrongOffset with `bytes` = that size;
//   - else the file is cut to `offset` (0 starts anew) and `body` written there: kWritten with
//     `bytes` = offset + body.size(); a failed write (ENOSPC, EIO) is kWriteFailed.
// `error` holds the system's reason (strerror) for kOpenFailed and kWriteFailed.
// Thread-safety: callers serialize pieces of one upload (the web API holds a mutex).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ionflow {

struct UploadPieceResult {
  enum Status { kWritten, kWrongOffset, kNotRegular, kOpenFailed, kWriteFailed };
  Status status = kWritten;
  uint64_t bytes = 0;  // the file's size after the write (kWritten), or before (kWrongOffset)
  std::string error;   // strerror text for kOpenFailed / kWriteFailed
};

UploadPieceResult write_upload_piece(const std::string& path, uint64_t offset,
                                     std::string_view body);

}  // namespace ionflow
