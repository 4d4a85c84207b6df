// Record codec primitives shared by the spill codecs (io/query_codec, io/psm_codec): values
// appended to a byte string as their little-endian object representation, and a cursor that
// reads them back and throws when a record is cut short.
//
// Contract: put<T>/put_string append; RecordCursor::get<T>/get_string/bytes read in the same
// order and throw std::runtime_error("<what> record truncated") when fewer bytes remain than
// asked for. Only for trivially copyable T; this build targets little-endian machines with
// IEEE-754 float and double (static_asserts below). Header-only, no state beyond the cursor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ionflow::record_codec {

static_assert(sizeof(float) == 4 && sizeof(double) == 8, "IEEE-754 float and double expected");
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the spill codecs assume little-endian");

template <class T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

// A uint32 length, then the bytes.
inline void put_string(std::string& out, const std::string& s) {
  put<uint32_t>(out, static_cast<uint32_t>(s.size()));
  out.append(s);
}

class RecordCursor {
 public:
  // `what` names the record kind in errors ("query", "PSM").
  RecordCursor(std::string_view in, const char* what) : in_(in), what_(what) {}

  template <class T>
  T get() {
    need(sizeof(T));
    T value;
    std::memcpy(&value, in_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return value;
  }
  void get_string(std::string& out) {
    const uint32_t n = get<uint32_t>();
    need(n);
    out.assign(in_.data() + pos_, n);
    pos_ += n;
  }
  std::string_view bytes(size_t n) {
    need(n);
    auto s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  size_t position() const { return pos_; }
  bool at_end() const { return pos_ == in_.size(); }

 private:
  void need(size_t n) const {
    if (in_.size() - pos_ < n) throw std::runtime_error(std::string(what_) + " record truncated");
  }
  std::string_view in_;
  const char* what_;
  size_t pos_ = 0;
};

}  // namespace ionflow::record_codec
