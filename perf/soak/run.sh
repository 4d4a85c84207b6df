#!/bin/sh
# Soak of `ionflow serve` (issue 20): ./perf/soak/run.sh [SECONDS] [BUILD_DIR]
# Runs tests/limits/soak_test.cpp for SECONDS (default 600): continuous submissions of a small
# job (at most 4 unfinished), every fourth cancelled, the scorer pool resized every 3 s; prints
# the server's RSS and open file descriptors every 10 s ("soak:" lines) and fails unless every
# job is accounted for and both stay flat after the 20 s warm-up (bounds in the test's header).
# CI runs the same test for 75 s (the default of IONFLOW_SOAK_SECONDS).
set -eu
seconds="${1:-600}"
build="${2:-build}"
binary="$build/tests/limits_tests"
if [ ! -x "$binary" ]; then
  echo "perf/soak/run.sh: $binary not built (cmake --build $build --target limits_tests ionflow)" >&2
  exit 2
fi
IONFLOW_SOAK_SECONDS="$seconds" exec "$binary" --gtest_filter='Soak.*'
