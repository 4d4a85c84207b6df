#!/usr/bin/env python3
"""Wrap an mzML file in <indexedmzML> with a byte-offset index and a SHA-1 fileChecksum.

Comet 2019.01 (Debian comet-ms) refuses an mzML without an index ("Failure reading input
file"); ID/Ecoli_MS2_small.mzML of openms-doc has none. This writes the indexed form defined by
the HUPO-PSI mzML 1.1 schema mzML1.1.2_idx.xsd:

  <indexedmzML ...><mzML>...</mzML>
  <indexList count="N"><index name="spectrum"><offset idRef="ID">BYTE</offset>...</index>...
  </indexList><indexListOffset>BYTE</indexListOffset><fileChecksum>SHA1</fileChecksum>
  </indexedmzML>

Offsets are 0-based byte positions of the '<' of each <spectrum>/<chromatogram> start tag and of
<indexList>; the SHA-1 covers every byte from the start of the file up to and including the
opening <fileChecksum> tag (the rule ProteoWizard and OpenMS follow). An input that is already
indexed is unwrapped and re-indexed. Reads the whole file into memory (fine for example files;
the scale-set generator writes its own index while streaming).

Usage: mzml_index.py IN.mzML OUT.mzML
"""
import hashlib
import re
import sys

IDX_NS = ('<indexedmzML xmlns="http://psi.hupo.org/ms/mzml" '
          'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
          'xsi:schemaLocation="http://psi.hupo.org/ms/mzml '
          'http://psidev.info/files/ms/mzML/xsd/mzML1.1.2_idx.xsd">\n')

_ELEMENT = re.compile(rb'<(spectrum|chromatogram)\s[^>]*?\bid="([^"]*)"', re.S)


def index_mzml(data: bytes) -> bytes:
    """Returns the indexed form of mzML document `data` (bytes). Raises ValueError if `data`
    holds no <mzML ...>...</mzML> element."""
    start = data.find(b'<mzML')
    end = data.rfind(b'</mzML>')
    if start < 0 or end < 0:
        raise ValueError('no <mzML> element found')
    end += len(b'</mzML>')
    decl = b'<?xml version="1.0" encoding="utf-8"?>\n'
    if data.startswith(b'<?xml'):
        decl = data[:data.find(b'?>') + 2] + b'\n'
    head = decl + IDX_NS.encode()
    body = data[start:end]
    out = bytearray(head)
    out += body
    out += b'\n'
    lists = {b'spectrum': [], b'chromatogram': []}
    for m in _ELEMENT.finditer(body):
        lists[m.group(1)].append((m.group(2), len(head) + m.start()))
    present = [(k, v) for k, v in lists.items() if v]
    index_list_offset = len(out)
    out += b'<indexList count="%d">\n' % len(present)
    for name, entries in present:
        out += b'  <index name="%s">\n' % name
        for ident, offset in entries:
            out += b'    <offset idRef="%s">%d</offset>\n' % (ident, offset)
        out += b'  </index>\n'
    out += b'</indexList>\n'
    out += b'<indexListOffset>%d</indexListOffset>\n' % index_list_offset
    out += b'<fileChecksum>'
    out += hashlib.sha1(out).hexdigest().encode()
    out += b'</fileChecksum>\n</indexedmzML>\n'
    return bytes(out)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], 'rb') as f:
        data = f.read()
    try:
        indexed = index_mzml(data)
    except ValueError as e:
        sys.stderr.write(f'{argv[1]}: {e}\n')
        return 1
    with open(argv[2], 'wb') as f:
        f.write(indexed)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
