#!/usr/bin/env bash
# The whole test suite from a fresh Debian 12 machine: installs what the tests need (Debian
# packages, including the peers and OpenMS tools the interop tests call), fetches the openms-doc
# example data, builds everything (tests and benchmarks) and runs ctest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/fetch-data.sh"
"$root/scripts/build.sh" -DIONFLOW_BUILD_TESTS=ON -DIONFLOW_BUILD_PERF=ON
cd "$root/build"
ctest --output-on-failure -j "$(nproc)" --timeout 900
