// Small fork-join helpers for the build steps of scoring/ (plain std::thread, no actors).
//
// parallel_slices(threads, n, fn): calls fn(slice, begin, end) once per slice, `threads`
// slices covering [0, n) in order and disjoint, slice 0 on the calling thread; it returns when
// all have returned. If any call throws, the first exception (by slice number) is rethrown after
// all have finished. threads < 1 is treated as 1; no slice is empty unless n < threads.
//
// parallel_tasks(threads, tasks, fn): calls fn(task) once for each task in [0, tasks), the
// tasks handed out in ascending order to `threads` threads (the calling thread one of them) as
// each becomes free, so a thread slowed down (by other work on a shared machine) or given
// cheaper tasks does not leave the others waiting at the end. Callers make the result
// independent of which thread ran which task. After a call throws no further task starts; the
// first exception (by task number) is rethrown after all have finished.
//
// Both: when the system refuses a thread (std::system_error), the work is done on the threads
// that did start and the calling thread, never left running or lost.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <system_error>
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
  size_t started = 1;  // slices handed to a thread, or run here when none can be started
  try {
    for (; started < t; ++started) workers.emplace_back(run, started);
  } catch (const std::system_error&) {
    for (size_t s = started; s < t; ++s) run(s);  // no more threads: the rest run here
  }
  run(0);
  for (auto& w : workers) w.join();
  for (auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

template <typename Fn>
void parallel_tasks(int threads, size_t tasks, Fn&& fn) {
  const size_t t = std::min(threads < 1 ? size_t{1} : static_cast<size_t>(threads), tasks);
  if (t <= 1) {
    for (size_t task = 0; task < tasks; ++task) fn(task);
    return;
  }
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::vector<std::exception_ptr> errors(tasks);
  auto run = [&] {
    for (size_t task; !failed.load(std::memory_order_relaxed) &&
                      (task = next.fetch_add(1, std::memory_order_relaxed)) < tasks;) {
      try {
        fn(task);
      } catch (...) {
        errors[task] = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> workers;
  workers.reserve(t - 1);
  try {
    for (size_t s = 1; s < t; ++s) workers.emplace_back(run);
  } catch (const std::system_error&) {
    // fewer threads than asked: the tasks are handed out all the same
  }
  run();
  for (auto& w : workers) w.join();
  for (auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace ionflow
