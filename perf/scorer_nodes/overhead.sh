#!/usr/bin/env bash
# The overhead of remote scoring on loopback: the same job (BSA1-3 COPIES times against the
# 18,878-entry target-decoy FASTA, chunks of CHUNK queries) run RUNS times each way with the same
# number of scoring threads:
#   local:  ionflow search --scorers 2
#   remote: ionflow search --scorers 1 --scorer-listen 127.0.0.1:PORT + ionflow scorer-node
#           --scorers 1 started at once (it joins while the job reads, rebuilds the index, scores)
# Prints each run's wall time (results.json), the chunks and queries each node scored with its
# busy seconds, the node's index rebuild (from its log) and whether results.tsv is byte-identical
# to the local run's.
# Usage: perf/scorer_nodes/overhead.sh (env: COPIES=2 CHUNK=250 RUNS=3 BUILD=build)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build}
ionflow=$build/service/ionflow
copies=${COPIES:-2}
chunk=${CHUNK:-250}
runs=${RUNS:-3}
ex=$root/data/openms-doc/usr/share/doc/openms/examples
work=$(mktemp -d /tmp/ionflow_node_perf.XXXXXX)
trap 'rm -rf "$work"' EXIT
paths=""
for ((c = 0; c < copies; ++c)); do
  for r in BSA1 BSA2 BSA3; do paths="$paths${paths:+, }\"$ex/BSA/$r.mzML\""; done
done
cat >"$work/job.json" <<JSON
{"database": {"fasta": "$ex/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta",
  "enzyme": {"missed_cleavages": 1, "min_len": 5, "max_len": 50}, "peptide_min_mass": 500.0,
  "peptide_max_mass": 5000.0, "max_variable_mods": 2, "decoy_tag": "_rev", "generate_decoys": false},
 "enzyme": "trypsin", "decoy_tag_position": "suffix",
 "fixed_modifications": ["Carbamidomethyl (C)"], "variable_modifications": ["Oxidation (M)"],
 "precursor_tol": {"ppm": [-10, 10]}, "isotope_errors": [0, 1], "fragment_tol": {"da": [-0.5, 0.5]},
 "precursor_charge": [2, 4], "min_peaks": 15, "max_peaks": 150, "report_psms": 1,
 "chunk_size": $chunk, "mzml_paths": [$paths], "output_formats": ["tsv"]}
JSON
summary() {  # wall seconds and per-node chunks/queries/busy from results.json
  python3 - "$1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
nodes = "; ".join(f"{n}: {v['chunks']} chunks, {v['queries']} queries, {v['busy_seconds']:.2f} s busy"
                  for n, v in s["scorer_nodes"].items())
print(f"wall {s['wall_seconds']:.2f} s; {nodes}")
PY
}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
for ((i = 1; i <= runs; ++i)); do
  "$ionflow" search "$work/job.json" -q -o "$work/local$i" --scorers 2 2>/dev/null
  echo "local  run $i: $(summary "$work/local$i/results.json")"
  "$ionflow" search "$work/job.json" -q -o "$work/remote$i" --scorers 1 \
    --scorer-listen "127.0.0.1:$port" 2>/dev/null &
  search=$!
  sleep 0.1
  "$ionflow" scorer-node --connect "127.0.0.1:$port" --scorers 1 --name node \
    2>"$work/node$i.log" || true
  wait "$search"
  rebuilt=$(grep -o 'index rebuilt.*' "$work/node$i.log" | head -1)
  t0=$(grep -m1 'joined the coordinator' "$work/node$i.log" | cut -c2-13)
  t1=$(grep -m1 'index rebuilt' "$work/node$i.log" | cut -c2-13)
  same=$(cmp -s "$work/local1/results.tsv" "$work/remote$i/results.tsv" && echo identical || echo DIFFERENT)
  echo "remote run $i: $(summary "$work/remote$i/results.json"); node joined $t0, $rebuilt at $t1; results.tsv $same"
done
