#!/usr/bin/env python3
"""Convert the MS2 spectra of an mzML file to MGF (Mascot generic format).

X!Tandem 2017.2.1.4 (Debian tandem-mass) mis-scores the openms-doc mzML files it reads directly
(see perf/README.md), so the comparison feeds it this MGF instead. One BEGIN IONS block per MS2
spectrum, in file order:
  TITLE=<mzML nativeID>          (the key the comparison joins tools on)
  RTINSECONDS=<scan start time in seconds>
  PEPMASS=<selected ion m/z>[ <intensity>]
  CHARGE=<z>+[ and <z2>+ ...]    (omitted when the file gives none)
  SCANS=<n from "scan=n" in the id, else the 0-based mzML index>
then "m/z intensity" lines. Binary arrays: 32/64-bit float, zlib or no compression (MS-Numpress
is not supported and aborts with a message). Stdlib only; reads the whole file.

Usage: mzml_to_mgf.py IN.mzML OUT.mgf
"""
import base64
import re
import struct
import sys
import zlib

_SPEC = re.compile(rb'<spectrum\s([^>]*)>(.*?)</spectrum>', re.S)  # attributes in any order
_ID = re.compile(rb'\bid="([^"]*)"')
_INDEX = re.compile(rb'\bindex="(\d+)"')
_CV = re.compile(rb'<cvParam\s[^>]*?accession="(MS:\d+)"[^>]*?/>', re.S)
_VALUE = re.compile(rb'\bvalue="([^"]*)"')
_UNIT = re.compile(rb'\bunitName="([^"]*)"')
_BDA = re.compile(rb'<binaryDataArray\b.*?</binaryDataArray>', re.S)
_BINARY = re.compile(rb'<binary>(.*?)</binary>', re.S)


def _params(chunk):
    out = {}
    for m in _CV.finditer(chunk):
        v = _VALUE.search(m.group(0))
        u = _UNIT.search(m.group(0))
        out.setdefault(m.group(1).decode(), (v.group(1).decode() if v else '',
                                             u.group(1).decode() if u else ''))
    return out


def _decode(bda):
    p = _params(bda)
    if 'MS:1002312' in p or 'MS:1002313' in p or 'MS:1002314' in p:
        raise ValueError('MS-Numpress arrays are not supported')
    raw = base64.b64decode(_BINARY.search(bda).group(1).strip() or b'')
    if 'MS:1000574' in p:
        raw = zlib.decompress(raw)
    fmt = 'd' if 'MS:1000523' in p else 'f'
    values = struct.unpack('<%d%s' % (len(raw) // (8 if fmt == 'd' else 4), fmt), raw)
    kind = 'mz' if 'MS:1000514' in p else ('intensity' if 'MS:1000515' in p else 'other')
    return kind, values


def spectra(data):
    """Yields (native_id, index, rt_seconds, precursor_mz, precursor_intensity, charges, mz,
    intensity) for every MS2 spectrum of mzML bytes `data`."""
    for m in _SPEC.finditer(data):
        body = m.group(2)
        native_id, index = _ID.search(m.group(1)).group(1), int(_INDEX.search(m.group(1)).group(1))
        head = body.split(b'<binaryDataArrayList', 1)[0]
        p = _params(head)
        if p.get('MS:1000511', ('2',))[0] != '2':
            continue
        rt = -1.0
        if 'MS:1000016' in p:
            value, unit = p['MS:1000016']
            rt = float(value) * (60.0 if unit == 'minute' else 1.0)
        prec = head.split(b'<selectedIon>', 1)
        sel = _params(prec[1]) if len(prec) > 1 else {}
        mz = sel.get('MS:1000744', p.get('MS:1000827', ('0',)))[0]
        inten = sel.get('MS:1000042', ('0',))[0]
        charges = sorted({int(c.group(1)) for c in re.finditer(
            rb'accession="MS:(?:1000041|1000633)"[^>]*?value="(\d+)"',
            prec[1] if len(prec) > 1 else b'')})
        arrays = dict(_decode(b) for b in _BDA.findall(body))
        yield (native_id.decode(), index, rt, float(mz), float(inten or 0), charges,
               arrays.get('mz', ()), arrays.get('intensity', ()))


def write_mgf(data, out):
    n = 0
    for native_id, index, rt, pmz, pint, charges, mz, inten in spectra(data):
        scan = re.search(r'scan=(\d+)', native_id)
        out.write('BEGIN IONS\n')
        out.write(f'TITLE={native_id}\n')
        if rt >= 0:
            out.write(f'RTINSECONDS={rt:.4f}\n')
        out.write(f'PEPMASS={pmz:.6f}' + (f' {pint:.4g}' if pint > 0 else '') + '\n')
        if charges:
            out.write('CHARGE=' + ' and '.join(f'{z}+' for z in charges) + '\n')
        out.write(f'SCANS={scan.group(1) if scan else index}\n')
        for x, y in zip(mz, inten):
            out.write(f'{x:.5f} {y:.4g}\n')
        out.write('END IONS\n\n')
        n += 1
    return n


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], 'rb') as f:
        data = f.read()
    with open(argv[2], 'w') as out:
        try:
            n = write_mgf(data, out)
        except ValueError as e:
            sys.stderr.write(f'{argv[1]}: {e}\n')
            return 1
    sys.stderr.write(f'{argv[1]}: {n} MS2 spectra -> {argv[2]}\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
