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

}  // namespace ionflow
