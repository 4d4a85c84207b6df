#!/usr/bin/env bash
# The main job on real data, from a fresh Debian 12 machine: installs what ionflow needs,
# builds it, fetches Debian's openms-doc examples and searches BSA1.mzML against the 18-protein
# target-decoy FASTA (examples/bsa_demo.json). Results land in out/demo/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" -DIONFLOW_BUILD_TESTS=OFF -DIONFLOW_BUILD_PERF=OFF
"$root/scripts/fetch-data.sh"
examples="$root/data/openms-doc/usr/share/doc/openms/examples"
mkdir -p "$root/out/demo"
cd "$root"
"$root/build/service/ionflow" search "$root/examples/bsa_demo.json" \
  "$examples/BSA/BSA1.mzML" \
  --fasta "$examples/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta" \
  --output-directory "$root/out/demo"
echo "results: $root/out/demo/results.tsv and results.json"
