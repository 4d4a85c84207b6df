// BlockReader: the spectra files of one job read sequentially from disk as raw blocks (still
// compressed if the file is), one file after the other, each block in file order. The reader
// actor owns one and hands the blocks to the parsers; this class only touches the disk.
//
// Contract: next() until it returns false. Each file's last block has `last` set (an empty file
// gives one empty last block); once it is read, sha256() holds the file's SHA-256 of the bytes
// on disk. A block holds at most max(4096, block_size_bytes) bytes, and for a regular file never
// more than what is left of it (a 1 GiB block size on a 13 MB file would allocate 1 GiB).
// Errors: std::runtime_error "<path>: cannot open: <reason>", "<path>: read error at byte N:
// <reason>", the refusals of io/input_file.hpp (a directory, FIFO, socket or device: the open
// never blocks) and "<path>: the first 4096 bytes are all zero: not mzML, mzXML, MGF or MS2 (...)".
// Thread-safety: none; one reader per job. Not copyable.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/sha256.hpp"

namespace ionflow {

// One slice of a file as it is on disk.
struct FileBlock {
  uint32_t file_index = 0;  // index into the reader's paths
  uint64_t offset = 0;      // byte offset of bytes[0] in the file
  std::string bytes;
  bool last = false;  // the file's last block
};

class BlockReader {
 public:
  BlockReader(std::vector<std::string> paths, uint32_t block_size_bytes);
  BlockReader(const BlockReader&) = delete;
  BlockReader& operator=(const BlockReader&) = delete;

  // Reads the next block into `block`; false once every file is read. Throws (see above).
  bool next(FileBlock& block);

  // path -> hex SHA-256 of every file read to its end so far.
  const std::map<std::string, std::string>& sha256() const { return sha256_; }
  uint64_t blocks_read() const { return blocks_; }
  uint64_t bytes_read() const { return bytes_; }

 private:
  void open_next_file();

  std::vector<std::string> paths_;
  uint32_t block_size_bytes_;
  size_t file_ = 0;  // index of the file being read
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> handle_{nullptr, &std::fclose};
  uint64_t offset_ = 0;
  uint64_t file_bytes_ = 0;  // size of the file being read when it is a regular file, else 0
  Sha256 sha_;
  std::map<std::string, std::string> sha256_;
  uint64_t blocks_ = 0;
  uint64_t bytes_ = 0;
};

// The summed size of the files that exist (bytes; a missing one counts 0), for progress.
uint64_t total_file_bytes(const std::vector<std::string>& paths);

}  // namespace ionflow
