// Memory budget of a job: `--max-memory` of `ionflow search` and `ionflow serve` (per job), and
// its default from the machine.
//
// Default rule: 3/4 of the memory this process may still take when it starts, the smaller of
// /proc/meminfo's MemAvailable and, under a cgroup v2 limit, memory.max minus memory.current
// (cgroup v1: memory.limit_in_bytes minus memory.usage_in_bytes); for `ionflow serve` divided
// by --concurrent-jobs. The quarter left is for the spectra, the sorter and the scorers, which
// have their own budgets (sorter_memory_mb, fragment_index_memory_mb). Read once; no caching
// across calls. Thread-safe (reads files only).
#pragma once

#include <cstdint>
#include <string>

namespace ionflow {

// Bytes this process may still take (see above), 0 if nothing could be read.
uint64_t available_memory_bytes();

// 3/4 of available_memory_bytes() / jobs (at least 256 MiB; 8 GiB if nothing could be read).
uint64_t default_max_memory_bytes(int jobs = 1);

// "8G", "512M", "2GiB", "1.5g", "1048576" (bytes) -> bytes. Throws std::invalid_argument
// naming the text when it is not a positive size.
uint64_t parse_memory_size(const std::string& text);

// Caps glibc's malloc arenas at one per core (at least 2; mallopt M_ARENA_MAX) for a
// long-running process (`ionflow serve`, `ionflow scorer-node`). glibc's default, 8 per core,
// gives each of the many short-lived pipeline and scorer threads its own arena, whose freed
// pages stay resident: the soak (tests/limits/soak_test.cpp, 300 s, 7,000-10,000 jobs on 2 cores)
// ran at 48-79 MiB with the default and flat at 28-34 MiB (one 54 MiB sample while a whole
// BSA1 job ran) with 2 arenas; malloc_trim(0) after every job did not help (49-79 MiB), so
// the pages are not free ones but fragments spread over 16 arenas. Call before any thread
// starts. `ionflow search` keeps the default (one job, then the process ends).
void limit_malloc_arenas();

}  // namespace ionflow
