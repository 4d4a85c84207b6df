#!/usr/bin/env bash
# Identification benchmark: ionflow, Comet and X!Tandem on openms-doc's BSA1-3 and E. coli and,
# when /work/shared/data is present, the MetaMorpheus yeast run (mzML and MGF) and Comet's HeLa
# fixture; PSMs and peptides at 1% FDR and an entrapment check per run (perf/ident/README.md).
# All arguments go to ident.py (--help lists them); results under data/perf/ident/.
# Needs: python3, comet-ms, tandem (tandem-mass), coreutils timeout, scripts/fetch-data.sh once.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
for cmd in python3 comet-ms tandem timeout; do
  command -v "$cmd" >/dev/null || { echo "missing: $cmd (scripts/install-deps.sh)" >&2; exit 1; }
done
exec python3 "$here/ident.py" "$@"
