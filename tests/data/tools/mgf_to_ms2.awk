# MGF (as OpenMS FileConverter writes it) -> MS2 text (McDonald et al. 2004).
BEGIN { OFS = "\t"; proton = 1.007276466621
        print "H", "Extractor", "mgf_to_ms2.awk (from OpenMS FileConverter MGF)" }
/^BEGIN IONS/ { inb = 1; n = 0; title = ""; mz = ""; rt = ""; z = ""; next }
/^END IONS/ {
  match(title, /spectrum=[0-9]+/); scan = substr(title, RSTART + 9, RLENGTH - 9)
  print "S", scan, scan, mz
  print "I", "RTime", sprintf("%.10g", rt / 60)
  print "Z", z, sprintf("%.6f", mz * z - (z - 1) * proton)
  for (i = 1; i <= n; i++) print peak[i]
  inb = 0; next }
inb && /^TITLE=/ { title = substr($0, 7); next }
inb && /^PEPMASS=/ { split(substr($0, 9), a, " "); mz = a[1]; next }
inb && /^RTINSECONDS=/ { rt = substr($0, 13); next }
inb && /^CHARGE=/ { z = substr($0, 8); sub(/\+/, "", z); next }
inb && /^[0-9]/ { split($0, p, " "); peak[++n] = p[1] " " p[2]; next }
