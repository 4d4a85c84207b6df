#!/usr/bin/env bash
# Fetches Debian's openms-doc package (BSA and E. coli example runs with their FASTA databases)
# and unpacks it under data/openms-doc without installing it. Idempotent.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/data/openms-doc"
marker="$dest/usr/share/doc/openms/examples/BSA/BSA1.mzML"
if [ -f "$marker" ]; then exit 0; fi
mkdir -p "$root/data/tmp"
cd "$root/data/tmp"
if ! ls openms-doc_*.deb >/dev/null 2>&1; then
  apt-get download openms-doc 2>/dev/null || { apt-get update -qq && apt-get download openms-doc; }
fi
mkdir -p "$dest"
dpkg -x openms-doc_*.deb "$dest"
test -f "$marker"
