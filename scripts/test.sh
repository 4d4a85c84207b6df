#!/usr/bin/env bash
# The whole test suite from a fresh Debian 12 machine: installs what the tests need (Debian
# packages, including the peers and OpenMS tools the interop tests call, clang and libFuzzer),
# fetches the openms-doc example data, then runs three parts and prints each one's wall time:
#   1. the suite: builds everything (tests and benchmarks) in build/ and runs ctest;
#   2. the same suite under AddressSanitizer + UndefinedBehaviorSanitizer (libraries and the ionflow
#      binary instrumented, test files not), built in build-asan/
#      (-O1, IONFLOW_SANITIZE; any report fails its test);
#   3. every libFuzzer target, FUZZ_SECONDS (default 20) seconds each (scripts/fuzz.sh).
#
#   scripts/test.sh                  all three parts (what CI runs)
#   scripts/test.sh --no-sanitize    part 1 only
#   scripts/test.sh --sanitize       part 2 only
#   scripts/test.sh --fuzz           part 3 only
#   scripts/test.sh --no-fuzz        parts 1 and 2
# A part that fails stops the script (non-zero exit).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
suite=1 sanitize=1 fuzz=1
case "${1:-}" in
  "") ;;
  --no-sanitize) sanitize=0 fuzz=0 ;;
  --sanitize) suite=0 fuzz=0 ;;
  --fuzz) suite=0 sanitize=0 ;;
  --no-fuzz) fuzz=0 ;;
  *)
    echo "usage: scripts/test.sh [--no-sanitize | --sanitize | --fuzz | --no-fuzz]" >&2
    exit 2
    ;;
esac
jobs="$(nproc)"
times=()
timed() {  # timed NAME COMMAND...: runs COMMAND, records its wall time
  local name="$1" start=$SECONDS
  shift
  "$@"
  times+=("$name: $((SECONDS - start)) s")
}

"$root/scripts/install-deps.sh"
"$root/scripts/fetch-data.sh"
if [ "$suite" = 1 ]; then
  run_suite() {
    "$root/scripts/build.sh" -DIONFLOW_BUILD_TESTS=ON -DIONFLOW_BUILD_PERF=ON
    (cd "$root/build" && ctest --output-on-failure -j "$jobs" --timeout 900)
  }
  timed "test suite (build + ctest)" run_suite
fi
if [ "$sanitize" = 1 ]; then
  run_sanitized() {
    local launcher=()
    if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
    cmake -S "$root" -B "$root/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIONFLOW_SANITIZE=ON \
      -DIONFLOW_BUILD_TESTS=ON -DIONFLOW_BUILD_PERF=OFF "${launcher[@]}" >/dev/null
    cmake --build "$root/build-asan" -j "$jobs"
    (cd "$root/build-asan" && ctest --output-on-failure -j "$jobs" --timeout 1800)
  }
  timed "sanitizer suite (build-asan, build + ctest)" run_sanitized
fi
if [ "$fuzz" = 1 ]; then
  timed "fuzzers (build-fuzz, ${FUZZ_SECONDS:-20} s each)" "$root/scripts/fuzz.sh" "${FUZZ_SECONDS:-20}"
fi
printf '%s\n' "${times[@]}"
