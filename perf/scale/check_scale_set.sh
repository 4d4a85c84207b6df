#!/usr/bin/env bash
# Checks a scale set written by ionflow_make_scale_set:
#   - the mzML validates against the indexed mzML 1.1 schema (xmllint, OpenMS's copy of the XSD),
#   - every index offset points at its <spectrum> start tag, indexListOffset at <indexList>, and
#     fileChecksum is the SHA-1 of the bytes up to and including "<fileChecksum>" (Python
#     hashlib, independent of perf/scale/sha1.hpp),
#   - the MGF and the mzML hold the same number of spectra, and the FASTA has as many rev_
#     decoys as targets.
# Usage: perf/scale/check_scale_set.sh SET.mzML [SET.mgf] [DB.fasta]
# Reads the whole mzML into memory: use it on a small set (e.g. --queries 5000); the writer is the
# same code at any size.
set -euo pipefail
mzml="$1"
mgf="${2:-}"
fasta="${3:-}"
schema=/usr/share/openms/SCHEMAS/mzML_idx_1_10.xsd
if [ -f "$schema" ]; then
  xmllint --noout --schema "$schema" "$mzml"
else
  echo "skip schema validation: $schema not found (Debian package openms-common)"
fi
python3 - "$mzml" <<'EOF'
import hashlib, re, sys
d = open(sys.argv[1], 'rb').read()
offsets = [(m.group(1), int(m.group(2)))
           for m in re.finditer(rb'<offset idRef="([^"]*)">(\d+)</offset>', d)]
bad = [i for i, o in offsets
       if not d.startswith(b'<spectrum ', o) or b'id="' + i + b'"' not in d[o:o + 200]]
ilo = int(re.search(rb'<indexListOffset>(\d+)</indexListOffset>', d).group(1))
p = d.index(b'<fileChecksum>') + len(b'<fileChecksum>')
sha_ok = hashlib.sha1(d[:p]).hexdigest().encode() == d[p:p + 40]
count = int(re.search(rb'<spectrumList count="(\d+)"', d).group(1))
print(f'{sys.argv[1]}: {len(offsets)} index offsets ({len(bad)} wrong), spectrumList count '
      f'{count}, indexListOffset {"ok" if d.startswith(b"<indexList", ilo) else "WRONG"}, '
      f'SHA-1 {"ok" if sha_ok else "WRONG"}')
sys.exit(0 if not bad and sha_ok and d.startswith(b'<indexList', ilo) and count == len(offsets)
         else 1)
EOF
if [ -n "$mgf" ]; then
  n_mgf=$(grep -c '^BEGIN IONS' "$mgf")
  n_mzml=$(grep -c '<spectrum index=' "$mzml")
  echo "$mgf: $n_mgf spectra (mzML: $n_mzml)"
  [ "$n_mgf" -eq "$n_mzml" ]
fi
if [ -n "$fasta" ]; then
  targets=$(grep '^>' "$fasta" | grep -vc '^>rev_')
  decoys=$(grep -c '^>rev_' "$fasta")
  residues=$(grep -v '^>' "$fasta" | tr -d '\n' | wc -c)
  echo "$fasta: $targets targets, $decoys rev_ decoys, $residues residues (targets + decoys)"
  [ "$targets" -eq "$decoys" ]
fi
echo "scale set OK"
