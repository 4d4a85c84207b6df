#include "io/sorted_runs.hpp"

#include <signal.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <queue>
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

// A source of queries in order: one spilled run or the sorted in-memory rest.
class Source {
 public:
  virtual ~Source() = default;
  virtual bool next(Query& out) = 0;
};

class VectorSource : public Source {
 public:
  explicit VectorSource(std::vector<Query>& queries) : queries_(queries) {}
  bool next(Query& out) override {
    if (pos_ >= queries_.size()) return false;
    out = std::move(queries_[pos_++]);
    if (pos_ == queries_.size()) {
      queries_.clear();
      queries_.shrink_to_fit();
    }
    return true;
  }

 private:
  std::vector<Query>& queries_;
  size_t pos_ = 0;
};

}  // namespace

// Writes one run: query records, zstd-compressed, one sequential stream.
class SortedRuns::RunWriter {
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
class SortedRuns::RunReader : public Source {
 public:
  explicit RunReader(std::string path) : path_(std::move(path)), dctx_(ZSTD_createDCtx()) {
    file_.reset(std::fopen(path_.c_str(), "rb"));
    if (!file_) fail(path_, std::strerror(errno));
    if (!dctx_) fail(path_, "ZSTD_createDCtx failed");
    in_.resize(ZSTD_DStreamInSize());
    out_.resize(ZSTD_DStreamOutSize());
  }
  ~RunReader() override { ZSTD_freeDCtx(dctx_); }

  bool next(Query& q) override {
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

// K-way merge of sources by query_order_less (a binary heap of each source's head).
class SortedRuns::Merger {
 public:
  explicit Merger(std::vector<std::unique_ptr<Source>> sources) : sources_(std::move(sources)) {
    heads_.resize(sources_.size());
    for (size_t i = 0; i < sources_.size(); ++i) {
      if (sources_[i]->next(heads_[i])) heap_.push(i);
    }
  }
  bool next(Query& out) {
    if (heap_.empty()) return false;
    size_t i = heap_.top();
    heap_.pop();
    out = std::move(heads_[i]);
    if (sources_[i]->next(heads_[i])) heap_.push(i);
    return true;
  }

 private:
  struct After {
    const std::vector<Query>* heads;
    bool operator()(size_t a, size_t b) const {
      const Query& x = (*heads)[a];
      const Query& y = (*heads)[b];
      if (query_order_less(y, x)) return true;
      if (query_order_less(x, y)) return false;
      return a > b;
    }
  };
  std::vector<std::unique_ptr<Source>> sources_;
  std::vector<Query> heads_;
  std::priority_queue<size_t, std::vector<size_t>, After> heap_{After{&heads_}};
};

SortedRuns::SortedRuns(std::string temp_directory, uint64_t memory_budget_bytes, int zstd_level)
    : temp_directory_(temp_directory.empty() ? "." : std::move(temp_directory)),
      memory_budget_bytes_(memory_budget_bytes),
      zstd_level_(zstd_level) {}

SortedRuns::~SortedRuns() {
  merger_.reset();  // closes the run files
  if (!spill_directory_.empty()) {
    std::error_code ec;
    fs::remove_all(spill_directory_, ec);
  }
}

namespace {

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

std::string SortedRuns::new_run_path() {
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

void SortedRuns::add(Query query) {
  if (finished_) throw std::logic_error("SortedRuns::add after finish");
  held_bytes_ += query_memory_bytes(query);
  held_.push_back(std::move(query));
  ++stats_.queries;
  stats_.peak_memory_bytes = std::max(stats_.peak_memory_bytes, held_bytes_);
  if (held_bytes_ > memory_budget_bytes_) spill();
}

void SortedRuns::spill() {
  std::sort(held_.begin(), held_.end(), query_order_less);
  std::string path = new_run_path();
  RunWriter writer(path, zstd_level_);
  for (const Query& q : held_) writer.add(q);
  stats_.bytes_spilled += writer.close();
  ++stats_.runs_spilled;
  run_paths_.push_back(std::move(path));
  held_.clear();
  held_bytes_ = 0;
}

void SortedRuns::finish() {
  if (finished_) throw std::logic_error("SortedRuns::finish called twice");
  finished_ = true;
  std::sort(held_.begin(), held_.end(), query_order_less);
  // Cascade: merge the oldest runs into longer ones until one merge can read all at once.
  while (run_paths_.size() + 1 > kMaxFanIn) {
    std::vector<std::unique_ptr<Source>> group;
    for (size_t i = 0; i < kMaxFanIn; ++i) {
      group.push_back(std::make_unique<RunReader>(run_paths_[i]));
    }
    std::string path = new_run_path();
    {
      Merger merge(std::move(group));
      RunWriter writer(path, zstd_level_);
      Query q;
      while (merge.next(q)) writer.add(q);
      stats_.bytes_spilled += writer.close();
    }
    for (size_t i = 0; i < kMaxFanIn; ++i) std::filesystem::remove(run_paths_[i]);
    run_paths_.erase(run_paths_.begin(), run_paths_.begin() + kMaxFanIn);
    run_paths_.push_back(std::move(path));
  }
  std::vector<std::unique_ptr<Source>> sources;
  for (const std::string& path : run_paths_) sources.push_back(std::make_unique<RunReader>(path));
  sources.push_back(std::make_unique<VectorSource>(held_));
  merger_ = std::make_unique<Merger>(std::move(sources));
}

bool SortedRuns::next(Query& out) {
  if (!merger_) throw std::logic_error("SortedRuns::next before finish");
  return merger_->next(out);
}

size_t SortedRuns::take(size_t max_count, std::vector<Query>& out) {
  size_t n = 0;
  Query q;
  while (n < max_count && next(q)) {
    out.push_back(std::move(q));
    ++n;
  }
  return n;
}

}  // namespace ionflow
