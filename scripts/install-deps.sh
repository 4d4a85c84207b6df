#!/usr/bin/env bash
# Installs the Debian 12 packages ionflow needs to build, test and run its demo.
# Idempotent: packages already present are skipped by apt. Needs root (or sudo).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
PACKAGES=(
  build-essential cmake pkg-config git ca-certificates
  libcaf-dev libsimdjson-dev libzstd-dev zstd libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  libexpat1-dev zlib1g-dev libbz2-dev bzip2 libmsnumpress-dev
  libcpp-httplib-dev libssl-dev libsqlite3-dev libhiredis-dev libcli11-dev redis-server
  comet-ms tandem-mass openms-common topp libxml2-utils hyperfine linux-perf curl python3 time
  libjs-chart.js chromium chromium-driver python3-selenium
  clang libfuzzer-14-dev libclang-rt-14-dev
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
