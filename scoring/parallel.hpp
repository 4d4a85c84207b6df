// Small fork-join helpers for the build steps of scoring/ (plain std::thread, no actors): run
// a function on `threads` contiguous slices of [0, n) and sort a vector on several threads.
//
// Contract: parallel_slices calls fn(slice, begin, end) once per slice, slices covering [0, n)
// in order and disjoint, slice 0 on the calling thread; it returns when all have returned. If
// any call throws, the first exception (by slice number) is rethrown after all have finished.
// threads < 1 is treated as 1; no slice is empty unless n < threads.
// parallel_sort sorts like std::sort with `less` (a strict weak order): each thread sorts one
// slice, then slices are merged pairwise (in parallel per level). The result is fully
// determined by `less` only where it is a total order — use one to stay deterministic.
#pragma once

#include <algorithm>
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

template <typename T, typename Less>
void parallel_sort(std::vector<T>& items, int threads, Less less) {
  const size_t n = items.size();
  size_t t = threads < 1 ? 1 : static_cast<size_t>(threads);
  if (n < 4096 * t) t = 1;  // not worth the threads
  if (t == 1) {
    std::sort(items.begin(), items.end(), less);
    return;
  }
  std::vector<size_t> bounds(t + 1);
  for (size_t s = 0; s <= t; ++s) bounds[s] = n * s / t;
  parallel_slices(static_cast<int>(t), t, [&](size_t, size_t begin, size_t end) {
    for (size_t s = begin; s < end; ++s) {
      std::sort(items.begin() + bounds[s], items.begin() + bounds[s + 1], less);
    }
  });
  // Merge neighbouring runs pairwise until one is left; one level's merges run in parallel.
  std::vector<T> buffer(n);
  std::vector<T>* from = &items;
  std::vector<T>* to = &buffer;
  while (bounds.size() > 2) {
    const size_t runs = bounds.size() - 1;
    const size_t pairs = (runs + 1) / 2;
    std::vector<size_t> next;
    next.reserve(pairs + 1);
    for (size_t p = 0; p < pairs; ++p) next.push_back(bounds[2 * p]);
    next.push_back(n);
    parallel_slices(static_cast<int>(std::min(pairs, t)), pairs,
                    [&](size_t, size_t begin, size_t end) {
                      for (size_t p = begin; p < end; ++p) {
                        const size_t a = bounds[2 * p];
                        const size_t m = 2 * p + 1 < runs ? bounds[2 * p + 1] : bounds[runs];
                        const size_t b = 2 * p + 2 <= runs ? bounds[2 * p + 2] : bounds[runs];
                        std::merge(from->begin() + a, from->begin() + m, from->begin() + m,
                                   from->begin() + b, to->begin() + a, less);
                      }
                    });
    bounds = std::move(next);
    std::swap(from, to);
  }
  if (from != &items) items.swap(*from);
}

}  // namespace ionflow
