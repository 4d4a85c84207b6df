#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz in build-fuzz/ (clang, -fsanitize=fuzzer,address,
# undefined; ccache when present) and runs each for SECONDS seconds, one after the other.
#
#   scripts/fuzz.sh SECONDS [TARGET...]     e.g. scripts/fuzz.sh 20, scripts/fuzz.sh 60 mgf_reader_fuzzer
#
# Prints one line per target, "NAME: N execs, K crashes", and exits non-zero if any target
# crashed, leaked, ran out of memory or took more than 1 s on one input; the input is saved in
# build-fuzz/fuzz-runs/NAME/ and its path printed with the end of the log. Each target starts
# from its seeds (tests/fuzz/corpus/) plus what earlier runs here found (build-fuzz/fuzz-runs/
# NAME/corpus/, which grows from run to run). Needs clang and libfuzzer-14-dev
# (scripts/install-deps.sh). Extra libFuzzer flags: FUZZ_FLAGS="-runs=1000000" scripts/fuzz.sh 0.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/fuzz.sh SECONDS [TARGET...]" >&2
  exit 2
fi
seconds="$1"
shift
build="$root/build-fuzz"
all=()
for src in "$root"/tests/fuzz/*_fuzzer.cpp; do all+=("$(basename "$src" .cpp)"); done
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=("${all[@]}"); fi

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DIONFLOW_BUILD_FUZZ=ON -DIONFLOW_BUILD_TESTS=OFF -DIONFLOW_BUILD_PERF=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >"$build/fuzz-build.log" 2>&1 || {
  tail -n 40 "$build/fuzz-build.log"
  exit 1
}

export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$root/tests/ubsan.supp"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
failed=0
for name in "${targets[@]}"; do
  seeds="${name%_fuzzer}"
  dict=""
  case "$name" in
    mzml_*) seeds=mzml dict=xml.dict ;;
    mgf_*) dict=mgf.dict ;;
    fasta_*) dict=fasta.dict ;;
    job_message_*) dict=json.dict ;;
    http_api_*) dict=http.dict ;;
  esac
  run="$build/fuzz-runs/$name"
  mkdir -p "$run/corpus"
  rm -f "$run"/crash-* "$run"/leak-* "$run"/timeout-* "$run"/oom-* "$run"/slow-unit-*
  flags=(-max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -print_final_stats=1
    -artifact_prefix="$run/")
  if [ -n "$dict" ]; then flags+=(-dict="$root/tests/fuzz/dict/$dict"); fi
  # shellcheck disable=SC2086
  set +e
  "$build/tests/fuzz/$name" "${flags[@]}" ${FUZZ_FLAGS:-} "$run/corpus" \
    "$root/tests/fuzz/corpus/$seeds" >"$run/log" 2>&1
  rc=$?
  set -e
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/log" | tail -n 1)"
  inputs=()
  for f in "$run"/crash-* "$run"/leak-* "$run"/timeout-* "$run"/oom-*; do
    [ -e "$f" ] && inputs+=("$f")
  done
  echo "$name: ${execs:-0} execs, ${#inputs[@]} crashes"
  if [ "$rc" -ne 0 ] || [ ${#inputs[@]} -gt 0 ]; then
    failed=1
    for f in "${inputs[@]}"; do echo "  input: $f"; done
    echo "  log: $run/log (exit $rc); its end:"
    tail -n 30 "$run/log" | sed 's/^/    /'
  fi
done
exit "$failed"
