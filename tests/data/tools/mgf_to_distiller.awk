# OpenMS FileConverter MGF -> an MGF laid out as Mascot Distiller writes it (header of
# _DISTILLER_ keys, "N: Scan S (rt=minutes)" titles, SCANS=S); spectra unchanged.
BEGIN {
  print "MASS=Monoisotopic"
  print "_DISTILLER_MDRO_VERSION=2.8.3.0"
  print "_DISTILLER_MDRO_SETTINGS_FILE=C:\\Program Files\\Matrix Science\\Mascot Distiller\\settings.ms2"
  print "_DISTILLER_RAWFILE[0]=(1)C:\\data\\20090810_SvNa_QC_BSA50fmol.raw"
  print "_distiller_lower_case_key=kept or ignored"
  print "__double_underscore=1"
  print ""
}
/^BEGIN IONS/ { inb = 1; q++; print; next }
inb && /^TITLE=/ { match($0, /spectrum=[0-9]+/); scan = substr($0, RSTART + 9, RLENGTH - 9); next }
inb && /^RTINSECONDS=/ { rt = substr($0, 13); next }
inb && /^SCANS=/ { next }
inb && /^CHARGE=/ {
  printf "TITLE=%d: Scan %s (rt=%.4f) [20090810_SvNa_QC_BSA50fmol.raw]\n", q, scan, rt / 60
  print pep; pep = ""
  print; printf "RTINSECONDS=%s\nSCANS=%s\n", rt, scan; next }
inb && /^PEPMASS=/ { pep = $0; next }
/^END IONS/ { inb = 0; print; print ""; next }
inb && /^[0-9]/ { print; next }
!inb { next }
