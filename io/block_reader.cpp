#include "io/block_reader.hpp"

#include "io/input_file.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace ionflow {

BlockReader::BlockReader(std::vector<std::string> paths, uint32_t block_size_bytes)
    : paths_(std::move(paths)), block_size_bytes_(block_size_bytes) {}

void BlockReader::open_next_file() {
  const std::string& path = paths_[file_];
  // A directory, FIFO, socket or device put in place after the job was checked is refused
  // here without blocking (io/input_file.hpp).
  InputFile file = InputFile::open(path);
  handle_.reset(::fdopen(file.fd(), "rb"));
  if (!handle_) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  file.release();                                   // the FILE owns it now
  std::setvbuf(handle_.get(), nullptr, _IONBF, 0);  // blocks are large; no second copy
  offset_ = 0;
  sha_.reset();
  struct stat info {};
  file_bytes_ = ::fstat(::fileno(handle_.get()), &info) == 0 && S_ISREG(info.st_mode)
                    ? static_cast<uint64_t>(info.st_size)
                    : 0;
}

bool BlockReader::next(FileBlock& block) {
  if (!handle_) {
    if (file_ == paths_.size()) return false;
    open_next_file();
  }
  const std::string& path = paths_[file_];
  block.file_index = static_cast<uint32_t>(file_);
  block.offset = offset_;
  // Read straight into the block (a staging buffer cost a copy of every byte).
  size_t wanted = std::max<uint32_t>(4096, block_size_bytes_);
  if (file_bytes_ > offset_) {
    wanted = std::min<uint64_t>(wanted, std::max<uint64_t>(4096, file_bytes_ - offset_));
  }
  block.bytes.resize(wanted);
  size_t n = std::fread(block.bytes.data(), 1, wanted, handle_.get());
  if (n < wanted && std::ferror(handle_.get())) {
    throw std::runtime_error(path + ": read error at byte " + std::to_string(offset_) + ": " +
                             std::strerror(errno));
  }
  block.bytes.resize(n);
  // Zeros from the first byte (a sparse or preallocated file) are no peak list: refused before
  // the parser searches 16 MiB of them for a line end (or 50 GB for an XML tag).
  if (offset_ == 0) {
    refuse_zero_head(path, std::string_view(block.bytes).substr(0, 4096),
                     "mzML, mzXML, MGF or MS2");
  }
  // A short last block must not pin a whole block's capacity in flight.
  if (n < wanted / 2) block.bytes.shrink_to_fit();
  block.last = n == 0 || std::feof(handle_.get());
  if (!block.last) {
    int c = std::fgetc(handle_.get());  // detect the end without an extra empty block
    if (c == EOF) {
      block.last = true;
    } else {
      std::ungetc(c, handle_.get());
    }
  }
  sha_.update(block.bytes);
  offset_ += n;
  blocks_ += 1;
  bytes_ += n;
  if (block.last) {
    sha256_[path] = sha_.hex_digest();
    handle_.reset();
    ++file_;
  }
  return true;
}

uint64_t total_file_bytes(const std::vector<std::string>& paths) {
  uint64_t total = 0;
  for (const std::string& path : paths) {
    std::error_code ec;
    auto size = std::filesystem::file_size(path, ec);
    if (!ec) total += size;
  }
  return total;
}

}  // namespace ionflow
