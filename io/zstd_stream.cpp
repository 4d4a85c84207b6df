#include "io/zstd_stream.hpp"

#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace ionflow {

namespace {

void check(std::size_t code, const char* what) {
  if (ZSTD_isError(code)) {
    throw std::runtime_error(std::string("zstd output stream: ") + what + ": " +
                             ZSTD_getErrorName(code));
  }
}

std::unique_ptr<std::ofstream> open_file(const std::string& path) {
  auto file = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
  if (!*file) {
    throw std::runtime_error("zstd output stream: cannot open '" + path +
                             "' for writing: " + std::strerror(errno));
  }
  return file;
}

}  // namespace

ZstdStreambuf::ZstdStreambuf(std::ostream& sink, int level) : sink_(sink) {
  context_ = ZSTD_createCCtx();
  if (context_ == nullptr) throw std::runtime_error("zstd output stream: out of memory");
  try {
    if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
      throw std::runtime_error("zstd output stream: compression level " + std::to_string(level) +
                               " outside " + std::to_string(ZSTD_minCLevel()) + ".." +
                               std::to_string(ZSTD_maxCLevel()));
    }
    check(ZSTD_CCtx_setParameter(context_, ZSTD_c_compressionLevel, level), "compression level");
    check(ZSTD_CCtx_setParameter(context_, ZSTD_c_checksumFlag, 1), "checksum flag");
  } catch (...) {
    ZSTD_freeCCtx(context_);
    throw;
  }
  input_.resize(ZSTD_CStreamInSize());
  output_.resize(ZSTD_CStreamOutSize());
  setp(input_.data(), input_.data() + input_.size());
}

ZstdStreambuf::~ZstdStreambuf() {
  ZSTD_freeCCtx(context_);
}

void ZstdStreambuf::drain(int end_op) {
  const auto mode = static_cast<ZSTD_EndDirective>(end_op);
  ZSTD_inBuffer in{pbase(), static_cast<std::size_t>(pptr() - pbase()), 0};
  for (;;) {
    ZSTD_outBuffer out{output_.data(), output_.size(), 0};
    const std::size_t remaining = ZSTD_compressStream2(context_, &out, &in, mode);
    check(remaining, "compression failed");
    if (out.pos > 0) {
      sink_.write(output_.data(), static_cast<std::streamsize>(out.pos));
      if (!sink_) throw std::runtime_error("zstd output stream: writing compressed data failed");
    }
    // ZSTD_e_continue: done once all input is consumed; flush/end: once zstd reports 0 left.
    const bool done = mode == ZSTD_e_continue ? in.pos == in.size : remaining == 0;
    if (done) break;
  }
  setp(input_.data(), input_.data() + input_.size());
}

ZstdStreambuf::int_type ZstdStreambuf::overflow(int_type ch) {
  if (finished_) throw std::runtime_error("zstd output stream: write after close()");
  drain(ZSTD_e_continue);
  if (!traits_type::eq_int_type(ch, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(ch);
    pbump(1);
  }
  return traits_type::not_eof(ch);
}

std::streamsize ZstdStreambuf::xsputn(const char* data, std::streamsize size) {
  if (finished_) throw std::runtime_error("zstd output stream: write after close()");
  std::streamsize written = 0;
  while (written < size) {
    const std::streamsize room = epptr() - pptr();
    if (room == 0) {
      drain(ZSTD_e_continue);
      continue;
    }
    const std::streamsize chunk = std::min(room, size - written);
    std::memcpy(pptr(), data + written, static_cast<std::size_t>(chunk));
    pbump(static_cast<int>(chunk));
    written += chunk;
  }
  return written;
}

int ZstdStreambuf::sync() {
  if (finished_) return 0;
  drain(ZSTD_e_flush);
  sink_.flush();
  if (!sink_) throw std::runtime_error("zstd output stream: flushing the sink failed");
  return 0;
}

void ZstdStreambuf::finish() {
  if (finished_) return;
  finished_ = true;
  drain(ZSTD_e_end);
  setp(nullptr, nullptr);
  sink_.flush();
  if (!sink_) throw std::runtime_error("zstd output stream: flushing the sink failed");
}

ZstdOutputStream::ZstdOutputStream(std::ostream& sink, int level)
    : std::ostream(nullptr), buffer_(sink, level) {
  rdbuf(&buffer_);
  exceptions(std::ios::badbit);
}

ZstdOutputStream::ZstdOutputStream(const std::string& path, int level)
    : std::ostream(nullptr), file_(open_file(path)), path_(path), buffer_(*file_, level) {
  rdbuf(&buffer_);
  exceptions(std::ios::badbit);
}

ZstdOutputStream::~ZstdOutputStream() {
  try {
    close();
  } catch (...) {
    // Documented: the destructor swallows errors; close() reports them.
  }
}

void ZstdOutputStream::close() {
  if (!buffer_.finished()) buffer_.finish();
  if (file_ && file_->is_open()) {
    file_->close();
    if (!*file_) throw std::runtime_error("zstd output stream: closing '" + path_ + "' failed");
  }
}

}  // namespace ionflow
