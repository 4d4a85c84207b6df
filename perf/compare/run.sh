#!/usr/bin/env bash
# Compares ionflow with Comet (comet-ms) and X!Tandem (tandem) on openms-doc's BSA1-3 and
# Ecoli_MS2_small: same inputs and settings, N timed runs each, PSMs at 1% FDR counted the same
# way. All arguments go to compare.py (--help lists them); results under data/perf/compare/.
# Needs: python3, comet-ms, tandem-mass, time (GNU time at /usr/bin/time), coreutils timeout,
# and scripts/fetch-data.sh run once. ionflow is taken from build/service/ionflow or $IONFLOW
# and skipped when absent.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
for cmd in python3 comet-ms tandem /usr/bin/time timeout; do
  command -v "$cmd" >/dev/null || { echo "missing: $cmd (scripts/install-deps.sh)" >&2; exit 1; }
done
exec python3 "$here/compare.py" "$@"
