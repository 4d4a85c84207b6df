// ByteBlock: one hop reader -> parser. A slice of an input file as read from disk (still
// compressed if the file is), in file order; the parser that owns the file decompresses and
// parses it. BlockAck is the parser's reply once the block's queries are in the sorter, which
// is what bounds the reader (JobSpec::max_blocks_in_flight unacknowledged blocks).
// Plain value types; CAF inspectors in messages/registration.hpp.
#pragma once

#include <cstdint>
#include <string>

namespace ionflow {

struct ByteBlock {
  uint64_t job = 0;         // job key given by the SearchRuntime
  uint32_t file_index = 0;  // index into JobSpec::spectra_paths
  uint64_t offset = 0;      // byte offset of bytes[0] in the file on disk
  std::string bytes;        // raw file bytes, JobSpec::block_size_bytes or fewer
  bool last = false;        // the file's last block (may be empty for an empty file)
};

struct BlockAck {
  uint64_t job = 0;
  bool ok = true;  // false: the parser failed and reported a JobFailure
};

}  // namespace ionflow
