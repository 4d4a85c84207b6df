#!/usr/bin/env bash
# Jobs/s through the Redis job queue: starts its own redis-server (AOF, fsync always) on a free
# loopback port and NODES `ionflow serve --queue` nodes (each --concurrent-jobs SLOTS, --scorers
# SCORERS), submits JOBS copies of a job with `ionflow submit --server redis://...`, waits until
# all are done and prints the drain time, jobs/s and, from the job hashes, the mean run time
# (started -> done published), next to a whole `ionflow search` process on the same job.
# Usage: perf/queue/throughput.sh [JOB.json] (env: NODES=2 SLOTS=1 SCORERS=1 JOBS=40 BUILD=build)
# Default job: the tests' 15-spectrum BSA excerpt (tests/data), so that queue costs show.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build}
ionflow=$build/service/ionflow
nodes=${NODES:-2}
slots=${SLOTS:-1}
scorers=${SCORERS:-1}
jobs=${JOBS:-40}
work=$(mktemp -d /tmp/ionflow_queue_perf.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
job=${1:-$work/job.json}
if [ -z "${1:-}" ]; then
  cat >"$job" <<JSON
{"database": {"fasta": "$root/tests/data/bsa_target_decoy_excerpt.fasta", "decoy_tag": "_rev",
  "generate_decoys": false}, "decoy_tag_position": "suffix",
 "fixed_modifications": ["Carbamidomethyl (C)"], "variable_modifications": ["Oxidation (M)"],
 "isotope_errors": [0, 1], "precursor_charge": [2, 4],
 "mzml_paths": ["$root/tests/data/BSA1_identified_excerpt.mzML"]}
JSON
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$work/redis"
redis-server --port "$port" --bind 127.0.0.1 --dir "$work/redis" --save "" --appendonly yes \
  --appendfsync always >"$work/redis/log" &
pids+=($!)
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.05; done
url=redis://127.0.0.1:$port/perf:jobs
# Submissions first (with the client, one process each), then the nodes start: the drain time is
# the nodes' throughput, not the client's start-up.
t_s0=$(date +%s.%N)
ids=()
for i in $(seq 1 "$jobs"); do ids+=("$("$ionflow" submit "$job" --server "$url" | head -1)"); done
t_s1=$(date +%s.%N)
for n in $(seq 1 "$nodes"); do
  mkdir -p "$work/node$n"
  "$ionflow" serve --data-dir "$work/node$n" --listen 127.0.0.1:0 --data-root "$root" --data-root / \
    --queue "$url" --node-name "node$n" --results-root "$work/results" --concurrent-jobs "$slots" \
    --scorers "$scorers" --log-level warn 2>"$work/node$n/log" &
  pids+=($!)
done
for id in "${ids[@]}"; do
  until [ "$(redis-cli -p "$port" hget "perf:jobs:job:$id" state)" = done ]; do sleep 0.02; done
done
"$ionflow" search "$job" -q -o "$work/search" >/dev/null 2>&1  # warm the page cache
ts0=$(date +%s.%N)
"$ionflow" search "$job" -q -o "$work/search2" >/dev/null 2>&1
ts1=$(date +%s.%N)
for id in "${ids[@]}"; do
  redis-cli -p "$port" hmget "perf:jobs:job:$id" submitted_at started_at finished_at | tr '\n' ' '
  echo
done | python3 -c "
import sys
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
first = min(r[1] for r in rows)
last = max(r[2] for r in rows)
run = sum(r[2] - r[1] for r in rows) / len(rows)
print(f'nodes {$nodes} x {$slots} slot(s), {$scorers} scorer(s) each; {len(rows)} jobs')
print(f'submit: {$t_s1 - $t_s0:.2f} s ({len(rows) / ($t_s1 - $t_s0):.1f} submissions/s, one client process each)')
print(f'drain (first start -> last done): {last - first:.2f} s = {len(rows) / (last - first):.2f} jobs/s')
print(f'mean run on a node (started -> done published): {run * 1000:.0f} ms')
print(f'ionflow search of the same job, whole process: {($ts1 - $ts0) * 1000:.0f} ms')
"
