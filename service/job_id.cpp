#include "service/job_id.hpp"

#include <cstdint>
#include <mutex>
#include <random>
#include <string_view>

#include "io/byte_text.hpp"

namespace ionflow {

std::string new_job_id() {
  static std::mutex mutex;
  static std::mt19937_64 rng = [] {
    std::random_device device;
    return std::mt19937_64{(uint64_t{device()} << 32) ^ device()};
  }();
  uint64_t x = 0;
  {
    std::lock_guard<std::mutex> lock(mutex);
    x = rng();
  }
  char bytes[6];
  for (int i = 0; i < 6; ++i) bytes[i] = static_cast<char>(x >> (8 * i));
  std::string id = "j";  // appended, not "j" + ...: gcc 12 warns -Wrestrict on that (a false alarm)
  id += hex_bytes(std::string_view(bytes, sizeof bytes));
  return id;
}

}  // namespace ionflow
