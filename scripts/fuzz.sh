#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz in build-fuzz/ (clang, -fsanitize=fuzzer,address,
# undefined; ccache when present) and runs each for SECONDS seconds, one after the other.
#
#   scripts/fuzz.sh SECONDS [TARGET...]     e.g. scripts/fuzz.sh 20, scripts/fuzz.sh 60 mgf_reader_fuzzer
#
# Prints one line per target, "NAME: N execs, K crashes", and exits non-zero if any target
# crashed, leaked, ran out of memory or took more than 1 s on one input; the input is saved in
# build-fuzz/fuzz-runs/NAME/ and its path printed with the end of the log (a timeout whose input
# runs in under 1 s when tried again alone is noted on the line, not counted: see below). Each target starts
# from its seeds (tests/fuzz/corpus/) plus what earlier runs here found (build-fuzz/fuzz-runs/
# NAME/corpus/, which grows from run to run). Needs clang and libfuzzer-14-dev
# (scripts/install-deps.sh). Extra libFuzzer flags, e.g. a run of 10 million executions or a day,
# whichever ends first: FUZZ_FLAGS="-runs=10000000" scripts/fuzz.sh 86400 mgf_reader_fuzzer.
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
    mzxml_*) seeds=mzxml dict=xml.dict ;;
    ms2_*) seeds=ms2 dict=ms2.dict ;;
    mgf_*) dict=mgf.dict ;;
    xml_*) dict=xml.dict ;;
    fasta_*) dict=fasta.dict ;;
    job_message_*) dict=json.dict ;;
    http_api_*) dict=http.dict ;;
  esac
  run="$build/fuzz-runs/$name"
  bin="$build/tests/fuzz/$name"
  mkdir -p "$run/corpus"
  rm -f "$run"/crash-* "$run"/leak-* "$run"/timeout-* "$run"/oom-* "$run"/slow-unit-* "$run"/log*
  flags=(-timeout=1 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$run/")
  if [ -n "$dict" ]; then flags+=(-dict="$root/tests/fuzz/dict/$dict"); fi
  # The HTTP target's server threads allocate and free across inputs, so libFuzzer ran a whole
  # LeakSanitizer scan after nearly every input (half its time: 272 -> 500 inputs/s without).
  # Its leaks are looked for by the ASan+UBSan suite instead (LeakSanitizer at each test's exit).
  case "$name" in http_api_*) flags+=(-detect_leaks=0) ;; esac
  # A timeout whose input then runs alone in under 1 s (three tries) was the machine, not the
  # input (the CPU is shared; ASan's quarantine unmaps memory in bursts): it is reported and the
  # run goes on for the remaining time, at most 3 times.
  execs=0 rc=0 start=$SECONDS restarts=0 notes=""
  while :; do
    remaining=$((seconds - (SECONDS - start)))
    [ "$remaining" -lt 1 ] && remaining=1
    log="$run/log.$restarts"
    set +e
    # shellcheck disable=SC2086
    "$bin" "${flags[@]}" -max_total_time="$remaining" ${FUZZ_FLAGS:-} "$run/corpus" \
      "$root/tests/fuzz/corpus/$seeds" >"$log" 2>&1
    rc=$?
    set -e
    n="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    execs=$((execs + ${n:-0}))
    timeouts=("$run"/timeout-*)
    if [ "$rc" -ne 0 ] && [ -e "${timeouts[0]}" ] && [ ${#timeouts[@]} -eq 1 ] &&
      [ "$restarts" -lt 3 ] && [ $((SECONDS - start)) -lt "$seconds" ] &&
      "$bin" -timeout=1 -runs=3 "${timeouts[0]}" >"$log.recheck" 2>&1; then
      mv "${timeouts[0]}" "$run/unconfirmed-$(basename "${timeouts[0]}")"
      notes="$notes; a timeout did not recur alone (machine load): $run/unconfirmed-$(basename "${timeouts[0]}")"
      restarts=$((restarts + 1))
      continue
    fi
    break
  done
  inputs=()
  for f in "$run"/crash-* "$run"/leak-* "$run"/timeout-* "$run"/oom-*; do
    [ -e "$f" ] && inputs+=("$f")
  done
  echo "$name: $execs execs, ${#inputs[@]} crashes${notes:+ (${notes#; })}"
  if [ "$rc" -ne 0 ] || [ ${#inputs[@]} -gt 0 ]; then
    failed=1
    # The input itself, for a run whose files are gone afterwards (CI): up to 4 KiB, as base64
    # ("base64 -d > crash" gives it back).
    for f in "${inputs[@]}"; do
      echo "  input: $f ($(wc -c <"$f") bytes)"
      if [ "$(wc -c <"$f")" -le 4096 ]; then echo "  base64: $(base64 -w0 "$f")"; fi
    done
    # A broken contract states both results before the stack trace the tail shows.
    grep -A 40 -m 1 '^==fuzz== contract broken' "$log" | sed 's/^/    /' || true
    echo "  log: $log (exit $rc); its end:"
    tail -n 30 "$log" | sed 's/^/    /'
  fi
done
exit "$failed"
