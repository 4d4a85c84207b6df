// A small fork-join helper for the build steps of scoring/ (plain std::thread, no actors): run
// a function on `threads` contiguous slices of [0, n).
//
// Contract: parallel_slices calls fn(slice, begin, end) once per slice, slices covering [0, n)
// in order and disjoint, slice 0 on the calling thread; it returns when all have returned. If
// any call throws, the first exception (by slice number) is rethrown after all have finished.
// threads < 1 is treated as 1; no slice is empty unless n < threads.
#pragma once

#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace ionflow {

template <typename Fn>
void parallel_slices(int threads, size_t n, Fn&& fn) {
  const size_t t = threads < 1 ? 1 : static_cast<size_t>(threads);
  if (t == 1 || n < 2) {
    fn(size_t{0}, size_t{0}, n);
    return;
  }
  std::vector<std::exception_ptr> errors(t);
  std::vector<std::thread> workers;
  workers.reserve(t - 1);
  auto run = [&](size_t slice) {
    try {
      fn(slice, n * slice / t, n * (slice + 1) / t);
    } catch (...) {
      errors[slice] = std::current_exception();
    }
  };
  for (size_t s = 1; s < t; ++s) workers.emplace_back(run, s);
  run(0);
  for (auto& w : workers) w.join();
  for (auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace ionflow
