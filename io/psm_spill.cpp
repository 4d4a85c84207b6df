#include "io/psm_spill.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <queue>
#include <stdexcept>
#include <string_view>
#include <tuple>

#include "io/job_files.hpp"
#include "io/psm_codec.hpp"

namespace ionflow {
namespace {

// Decoder state is about the window plus one block; 2^17 keeps a 64-way merge near 20 MiB.
constexpr int kWindowLog = 17;
constexpr size_t kReadBytes = 64 * 1024;  // compressed bytes per pread
constexpr size_t kHeaderBytes = 8 + 4;    // u64 seq, u32 position before each spilled PSM

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error("PSM spill " + path + ": " + what);
}

// mkstemp in `directory`, then unlink: the descriptor keeps the data alive until closed.
int create_unlinked(const std::string& directory, std::string& path) {
  path = (std::filesystem::path(directory.empty() ? "." : directory) / kPsmSpillPattern).string();
  const int fd = ::mkstemp(path.data());
  if (fd < 0) {
    fail(path, std::string("cannot create a temporary file: ") + std::strerror(errno) +
                   " (set the job's temp_directory to a writable folder)");
  }
  ::unlink(path.c_str());
  return fd;
}

void write_all(int fd, const char* data, size_t n, const std::string& path) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      fail(path, std::string("cannot write: ") + std::strerror(errno));
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
}

template <class T>
T load(const char* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

// One zstd frame appended at the descriptor's current end.
class PsmFrameWriter {
 public:
  PsmFrameWriter(int fd, const std::string& path, int level)
      : fd_(fd), path_(path), cctx_(ZSTD_createCCtx()) {
    if (!cctx_) fail(path_, "ZSTD_createCCtx failed");
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_windowLog, kWindowLog);
    out_.resize(ZSTD_CStreamOutSize());
  }
  ~PsmFrameWriter() { ZSTD_freeCCtx(cctx_); }
  PsmFrameWriter(const PsmFrameWriter&) = delete;
  PsmFrameWriter& operator=(const PsmFrameWriter&) = delete;

  void add(std::string_view bytes) {
    ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
    drive(in, ZSTD_e_continue);
  }
  // Ends the frame; returns its compressed size.
  uint64_t end() {
    ZSTD_inBuffer in{nullptr, 0, 0};
    drive(in, ZSTD_e_end);
    return written_;
  }

 private:
  void drive(ZSTD_inBuffer& in, ZSTD_EndDirective mode) {
    for (;;) {
      ZSTD_outBuffer out{out_.data(), out_.size(), 0};
      const size_t left = ZSTD_compressStream2(cctx_, &out, &in, mode);
      if (ZSTD_isError(left)) fail(path_, ZSTD_getErrorName(left));
      if (out.pos > 0) write_all(fd_, out_.data(), out.pos, path_);
      written_ += out.pos;
      if (mode == ZSTD_e_end ? left == 0 : in.pos == in.size) break;
    }
  }
  int fd_;
  const std::string& path_;
  ZSTD_CCtx* cctx_;
  std::string out_;
  uint64_t written_ = 0;
};

// Reads one frame, the byte range [begin, end) of the file, with pread (no shared file offset).
class Reader {
 public:
  Reader(int fd, const std::string& path, uint64_t begin, uint64_t end)
      : fd_(fd), path_(path), next_(begin), end_(end), dctx_(ZSTD_createDCtx()) {
    if (!dctx_) fail(path_, "ZSTD_createDCtx failed");
    in_.resize(kReadBytes);
    out_.resize(ZSTD_DStreamOutSize());
  }
  ~Reader() { ZSTD_freeDCtx(dctx_); }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // The next spilled record (header + PSM); false at the end of the frame.
  bool next_spilled(uint64_t& seq, uint32_t& position, Psm& psm) {
    if (!fill(kHeaderBytes + 4)) return false;
    seq = load<uint64_t>(buffer_.data() + pos_);
    position = load<uint32_t>(buffer_.data() + pos_ + 8);
    pos_ += kHeaderBytes;
    if (!next_psm(psm)) fail(path_, "truncated record");
    return true;
  }
  // The next PSM record; false at the end of the frame.
  bool next_psm(Psm& psm) {
    if (!fill(4)) return false;
    const uint32_t payload = load<uint32_t>(buffer_.data() + pos_);
    if (!fill(size_t{4} + payload)) fail(path_, "truncated record");
    pos_ += decode_psm(std::string_view(buffer_).substr(pos_), psm);
    return true;
  }

 private:
  // Makes `n` bytes available at pos_; false if the frame ends first with no byte left, throws
  // if it ends inside a record.
  bool fill(size_t n) {
    if (buffer_.size() - pos_ >= n) return true;
    buffer_.erase(0, pos_);
    pos_ = 0;
    while (buffer_.size() < n) {
      // A call that filled the output may hold more output for the same input: call again.
      if (in_pos_ == in_size_ && !output_full_) {
        if (next_ == end_) {
          if (!frame_done_) fail(path_, "zstd frame truncated");
          if (buffer_.empty()) return false;
          fail(path_, "truncated record at the end of a run");
        }
        const size_t want = static_cast<size_t>(std::min<uint64_t>(in_.size(), end_ - next_));
        const ssize_t got = ::pread(fd_, in_.data(), want, static_cast<off_t>(next_));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
          fail(path_, got < 0 ? std::string("cannot read: ") + std::strerror(errno)
                              : std::string("unexpected end of file"));
        }
        next_ += static_cast<uint64_t>(got);
        in_size_ = static_cast<size_t>(got);
        in_pos_ = 0;
      }
      ZSTD_inBuffer in{in_.data(), in_size_, in_pos_};
      ZSTD_outBuffer out{out_.data(), out_.size(), 0};
      const size_t ret = ZSTD_decompressStream(dctx_, &out, &in);
      if (ZSTD_isError(ret)) fail(path_, ZSTD_getErrorName(ret));
      frame_done_ = ret == 0;
      output_full_ = out.pos == out.size;
      in_pos_ = in.pos;
      buffer_.append(out_.data(), out.pos);
    }
    return true;
  }

  int fd_;
  const std::string& path_;
  uint64_t next_, end_;
  ZSTD_DCtx* dctx_;
  std::string in_, out_;
  size_t in_size_ = 0, in_pos_ = 0;
  bool frame_done_ = false;
  bool output_full_ = false;
  std::string buffer_;  // decompressed, not yet decoded
  size_t pos_ = 0;
};

}  // namespace

// --- PsmSpill ------------------------------------------------------------------------------------

PsmSpill::PsmSpill(const std::string& temp_directory, uint64_t run_bytes, int zstd_level)
    : run_bytes_(std::max<uint64_t>(1, run_bytes)), zstd_level_(zstd_level) {
  fd_ = create_unlinked(temp_directory, path_);
}

PsmSpill::~PsmSpill() {
  if (fd_ >= 0) ::close(fd_);
}

void PsmSpill::add(uint64_t seq, const std::vector<Psm>& psms) {
  if (finished_) throw std::logic_error("PsmSpill::add after finish");
  chunk_counts_.emplace_back(seq, psms.size());
  for (size_t i = 0; i < psms.size(); ++i) {
    const Psm& p = psms[i];
    const size_t offset = pending_.size();
    const uint32_t position = static_cast<uint32_t>(i);
    pending_.append(reinterpret_cast<const char*>(&seq), sizeof(seq));
    pending_.append(reinterpret_cast<const char*>(&position), sizeof(position));
    encode_psm(p, pending_);
    entries_.push_back(
        {p.file_index, p.spectrum_index, seq, position, offset, pending_.size() - offset});
    ++count_;
  }
  if (pending_.size() >= run_bytes_) write_run();
}

void PsmSpill::sort_entries() {
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.file_index, a.spectrum_index, a.seq, a.position) <
           std::tie(b.file_index, b.spectrum_index, b.seq, b.position);
  });
}

void PsmSpill::visit_in_memory(const std::function<void(uint64_t, Psm&)>& visit) const {
  Psm psm;
  for (const Entry& e : entries_) {
    decode_psm(std::string_view(pending_).substr(e.offset + kHeaderBytes, e.length - kHeaderBytes),
               psm);
    visit(arrival(e.seq, e.position), psm);
  }
}

void PsmSpill::write_run() {
  if (entries_.empty()) return;
  sort_entries();
  Run run;
  run.begin = bytes_written_;
  PsmFrameWriter frame(fd_, path_, zstd_level_);
  for (const Entry& e : entries_) frame.add(std::string_view(pending_).substr(e.offset, e.length));
  bytes_written_ += frame.end();
  run.end = bytes_written_;
  runs_.push_back(run);
  pending_.clear();
  entries_.clear();
}

void PsmSpill::finish() {
  if (finished_) throw std::logic_error("PsmSpill::finish called twice");
  finished_ = true;
  if (runs_.empty()) {
    // Nothing spilled: the PSMs (< run_bytes) stay in RAM as the only run, sorted as a run
    // would be; compressing, writing and reading them back was ~2 ms of BSA2's end.
    sort_entries();
    in_memory_ = true;
  } else {
    write_run();
    std::string().swap(pending_);
    std::vector<Entry>().swap(entries_);
  }
  std::sort(chunk_counts_.begin(), chunk_counts_.end());
  uint64_t offset = 0;
  for (size_t i = 0; i < chunk_counts_.size(); ++i) {
    if (i > 0 && chunk_counts_[i].first == chunk_counts_[i - 1].first) {
      throw std::logic_error("PsmSpill: chunk " + std::to_string(chunk_counts_[i].first) +
                             " added twice");
    }
    const uint64_t count = chunk_counts_[i].second;
    chunk_counts_[i].second = offset;
    offset += count;
  }
}

uint64_t PsmSpill::arrival(uint64_t seq, uint32_t position) const {
  auto it =
      std::lower_bound(chunk_counts_.begin(), chunk_counts_.end(), std::make_pair(seq, uint64_t{0}),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
  if (it == chunk_counts_.end() || it->first != seq) fail(path_, "record of an unknown chunk");
  return it->second + position;
}

void PsmSpill::scan(const std::function<void(uint64_t, Psm&)>& visit) const {
  if (!finished_) throw std::logic_error("PsmSpill::scan before finish");
  if (in_memory_) {
    visit_in_memory(visit);
    return;
  }
  Psm psm;
  uint64_t seq;
  uint32_t position;
  for (const Run& run : runs_) {
    Reader reader(fd_, path_, run.begin, run.end);
    while (reader.next_spilled(seq, position, psm)) visit(arrival(seq, position), psm);
  }
}

void PsmSpill::merge(const std::function<void(uint64_t, Psm&)>& visit) const {
  if (!finished_) throw std::logic_error("PsmSpill::merge before finish");
  if (in_memory_) {  // one run, already in merge order: (seq, position) order is arrival order
    visit_in_memory(visit);
    return;
  }
  struct Head {
    std::unique_ptr<Reader> reader;
    uint64_t arrival = 0;
    Psm psm;
  };
  std::vector<Head> heads(runs_.size());
  auto advance = [&](Head& h) {
    uint64_t seq;
    uint32_t position;
    if (!h.reader->next_spilled(seq, position, h.psm)) return false;
    h.arrival = arrival(seq, position);
    return true;
  };
  // Min-heap on (file_index, spectrum_index, arrival): arrival numbers are distinct.
  auto after = [&](size_t a, size_t b) {
    const Head& x = heads[a];
    const Head& y = heads[b];
    return std::tie(x.psm.file_index, x.psm.spectrum_index, x.arrival) >
           std::tie(y.psm.file_index, y.psm.spectrum_index, y.arrival);
  };
  std::priority_queue<size_t, std::vector<size_t>, decltype(after)> heap(after);
  for (size_t i = 0; i < runs_.size(); ++i) {
    heads[i].reader = std::make_unique<Reader>(fd_, path_, runs_[i].begin, runs_[i].end);
    if (advance(heads[i])) heap.push(i);
  }
  while (!heap.empty()) {
    const size_t i = heap.top();
    heap.pop();
    visit(heads[i].arrival, heads[i].psm);
    if (advance(heads[i])) heap.push(i);
  }
}

}  // namespace ionflow
