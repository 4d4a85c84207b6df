#include "io/run_queue.hpp"

#include <signal.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "io/job_files.hpp"
#include "io/query_codec.hpp"

namespace ionflow {
namespace fs = std::filesystem;

bool query_order_less(const Query& a, const Query& b) {
  return std::tie(a.neutral_mass, a.file_index, a.spectrum_index, a.charge) <
         std::tie(b.neutral_mass, b.file_index, b.spectrum_index, b.charge);
}

namespace {

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error("sorter spill " + path + ": " + what);
}

// Removes the spill folders in `directory` of processes that no longer exist (killed with -9:
// their destructors never ran). Folders of live processes, and anything else, stay.
void remove_orphan_spills(const std::string& directory) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(directory, ec)) {
    const long pid = sort_spill_owner(entry.path().filename().string());
    if (pid <= 0 || pid == ::getpid()) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // alive (or not ours)
    std::error_code ignored;
    fs::remove_all(entry.path(), ignored);
  }
}

}  // namespace

// Writes one run: query records, zstd-compressed, one sequential stream.
class RunQueue::RunWriter {
 public:
  RunWriter(std::string path, int level) : path_(std::move(path)), cctx_(ZSTD_createCCtx()) {
    file_.reset(std::fopen(path_.c_str(), "wb"));
    if (!file_) fail(path_, std::strerror(errno));
    if (!cctx_) fail(path_, "ZSTD_createCCtx failed");
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, level);
    out_.resize(ZSTD_CStreamOutSize());
  }
  ~RunWriter() { ZSTD_freeCCtx(cctx_); }
  void add(const Query& q) {
    encode_query(q, pending_);
    if (pending_.size() >= (1u << 20)) flush(ZSTD_e_continue);
  }
  uint64_t close() {
    flush(ZSTD_e_end);
    if (std::fflush(file_.get()) != 0 || std::ferror(file_.get())) fail(path_, "write failed");
    file_.reset();
    return written_;
  }

 private:
  void flush(ZSTD_EndDirective mode) {
    ZSTD_inBuffer in{pending_.data(), pending_.size(), 0};
    for (;;) {
      ZSTD_outBuffer out{out_.data(), out_.size(), 0};
      size_t left = ZSTD_compressStream2(cctx_, &out, &in, mode);
      if (ZSTD_isError(left)) fail(path_, ZSTD_getErrorName(left));
      if (out.pos > 0 && std::fwrite(out_.data(), 1, out.pos, file_.get()) != out.pos) {
        fail(path_, std::strerror(errno));
      }
      written_ += out.pos;
      bool done = mode == ZSTD_e_end ? left == 0 : in.pos == in.size;
      if (done) break;
    }
    pending_.clear();
  }
  std::string path_;
  FilePtr file_;
  ZSTD_CCtx* cctx_;
  std::string pending_;
  std::string out_;
  uint64_t written_ = 0;
};

// Reads one run back sequentially.
class RunQueue::RunReader {
 public:
  explicit RunReader(std::string path) : path_(std::move(path)), dctx_(ZSTD_createDCtx()) {
    file_.reset(std::fopen(path_.c_str(), "rb"));
    if (!file_) fail(path_, std::strerror(errno));
    if (!dctx_) fail(path_, "ZSTD_createDCtx failed");
    in_.resize(ZSTD_DStreamInSize());
    out_.resize(ZSTD_DStreamOutSize());
  }
  ~RunReader() { ZSTD_freeDCtx(dctx_); }

  bool next(Query& q) {
    for (;;) {
      size_t used = decode_query(std::string_view(pending_).substr(pos_), q);
      if (used > 0) {
        pos_ += used;
        return true;
      }
      if (!refill()) {
        if (pos_ != pending_.size()) fail(path_, "truncated record at end of run");
        return false;
      }
    }
  }

 private:
  // Decompresses more bytes into pending_; false at the end of the file.
  bool refill() {
    pending_.erase(0, pos_);
    pos_ = 0;
    for (;;) {
      if (in_pos_ == in_size_) {
        if (eof_) return false;
        in_size_ = std::fread(in_.data(), 1, in_.size(), file_.get());
        in_pos_ = 0;
        if (in_size_ == 0) {
          if (std::ferror(file_.get())) fail(path_, "read failed");
          eof_ = true;
          if (!frame_done_) fail(path_, "zstd stream truncated");
          return false;
        }
      }
      ZSTD_inBuffer in{in_.data(), in_size_, in_pos_};
      ZSTD_outBuffer out{out_.data(), out_.size(), 0};
      size_t ret = ZSTD_decompressStream(dctx_, &out, &in);
      if (ZSTD_isError(ret)) fail(path_, ZSTD_getErrorName(ret));
      frame_done_ = ret == 0;
      in_pos_ = in.pos;
      if (out.pos > 0) {
        pending_.append(out_.data(), out.pos);
        return true;
      }
    }
  }

  std::string path_;
  FilePtr file_;
  ZSTD_DCtx* dctx_;
  std::string in_;
  std::string out_;
  size_t in_size_ = 0;
  size_t in_pos_ = 0;
  bool eof_ = false;
  bool frame_done_ = false;
  std::string pending_;
  size_t pos_ = 0;
};

// One queued run: in RAM (`queries`, served from `next`), or spilled to `path` (`count` queries,
// read back by `reader` once it is the front run).
struct RunQueue::Run {
  std::vector<Query> queries;
  size_t next = 0;
  std::string path;
  uint64_t count = 0;
  uint64_t taken = 0;
  std::unique_ptr<RunReader> reader;
  bool spilled() const { return !path.empty(); }
  uint64_t left() const { return spilled() ? count - taken : queries.size() - next; }
};

RunQueue::RunQueue(std::string temp_directory, uint64_t memory_budget_bytes, int zstd_level)
    : temp_directory_(temp_directory.empty() ? "." : std::move(temp_directory)),
      memory_budget_bytes_(memory_budget_bytes),
      zstd_level_(zstd_level) {}

RunQueue::~RunQueue() {
  runs_.clear();  // closes the run files
  if (!spill_directory_.empty()) {
    std::error_code ec;
    fs::remove_all(spill_directory_, ec);
  }
}

std::string RunQueue::new_run_path() {
  if (spill_directory_.empty()) {
    remove_orphan_spills(temp_directory_);
    std::string pattern = (fs::path(temp_directory_) / sort_spill_pattern(::getpid())).string();
    if (!::mkdtemp(pattern.data())) fail(pattern, std::strerror(errno));
    spill_directory_ = pattern;
  }
  char name[32];
  std::snprintf(name, sizeof(name), "run-%06llu.zst",
                static_cast<unsigned long long>(next_run_number_++));
  return (fs::path(spill_directory_) / name).string();
}

void RunQueue::note_memory() {
  stats_.peak_memory_bytes = std::max(stats_.peak_memory_bytes, held_bytes_ + run_bytes_);
}

bool RunQueue::add(Query query, const CutVisitor& on_cut) {
  held_bytes_ += query_memory_bytes(query);
  held_.push_back(std::move(query));
  ++stats_.queries;
  note_memory();
  if (held_bytes_ + run_bytes_ <= memory_budget_bytes_) return false;
  spill(on_cut);
  return true;
}

bool RunQueue::cut(const CutVisitor& on_cut) {
  if (held_.empty()) return false;
  std::sort(held_.begin(), held_.end(), query_order_less);
  if (on_cut) on_cut(held_);
  auto run = std::make_unique<Run>();
  run->queries = std::move(held_);
  held_.clear();
  run_bytes_ += held_bytes_;
  held_bytes_ = 0;
  runs_.push_back(std::move(run));
  ++stats_.runs;
  return true;
}

void RunQueue::spill(const CutVisitor& on_cut) {
  std::sort(held_.begin(), held_.end(), query_order_less);
  if (on_cut) on_cut(held_);
  auto run = std::make_unique<Run>();
  run->path = new_run_path();
  run->count = held_.size();
  RunWriter writer(run->path, zstd_level_);
  for (const Query& q : held_) writer.add(q);
  stats_.bytes_spilled += writer.close();
  ++stats_.runs_spilled;
  ++stats_.runs;
  runs_.push_back(std::move(run));
  held_.clear();
  held_.shrink_to_fit();
  held_bytes_ = 0;
}

uint64_t RunQueue::front_left() const {
  return runs_.empty() ? 0 : runs_.front()->left();
}

size_t RunQueue::take(size_t max_count, std::vector<Query>& out) {
  if (runs_.empty()) return 0;
  Run& run = *runs_.front();
  size_t n = 0;
  if (run.spilled()) {
    if (!run.reader) run.reader = std::make_unique<RunReader>(run.path);
    Query q;
    while (n < max_count && run.taken < run.count) {
      if (!run.reader->next(q)) fail(run.path, "run ended early");
      out.push_back(std::move(q));
      ++run.taken;
      ++n;
    }
  } else {
    while (n < max_count && run.next < run.queries.size()) {
      Query& q = run.queries[run.next++];
      run_bytes_ -= std::min<uint64_t>(run_bytes_, query_memory_bytes(q));
      out.push_back(std::move(q));
      ++n;
    }
  }
  if (run.left() == 0) {
    if (run.spilled()) {
      run.reader.reset();
      std::error_code ec;
      fs::remove(run.path, ec);
    }
    runs_.pop_front();
  }
  return n;
}

}  // namespace ionflow
