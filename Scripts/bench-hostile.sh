#!/usr/bin/env bash
# `make bench-hostile`: time and peak RSS of the inputs issue 10's attack used,
# made here (nothing large is kept in the repository). Targets, from the issue:
# 500 stretch runs at 1000x1000 under 1 s; space at 1/64 for 1,000,000x1 under
# 100 MiB; 4000x4000 space on GL under 300 MiB; /dev/zero and a PNG followed by
# 3 GB of junk under 64 MiB.
set -euo pipefail
cd "$(dirname "$0")/.."
G="${GLSLICE:-.build/release/glslice}"
W="$(mktemp -d /tmp/glslice-hostile.XXXXXX)"
trap 'rm -rf "$W"' EXIT
python3 - "$W" <<'PY'
import struct, sys, zlib
w = sys.argv[1]
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
def png(path, width, height, rows, extra=b""):
    data = zlib.compress(b"".join(b"\0" + r for r in rows), 9)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
                + extra + chunk(b"IDAT", data) + chunk(b"IEND", b""))
# A raw .9.png with 500 one-pixel stretch runs along x (aapt2's region count is 0 x rows).
n = 1001
rows = []
for y in range(8):
    row = bytearray()
    for x in range(n + 2):
        if y in (0, 7) or x in (0, n + 1):
            row += b"\0\0\0\xff" if (y == 0 and 1 <= x <= n and x % 2 == 0) else b"\0\0\0\0"
        else:
            row += bytes([(x * 7) % 256, y * 40, (x * 3) % 256, 255])
    rows.append(bytes(row))
png(w + "/runs500.9.png", n + 2, 8, rows)
# A compiled nine-patch with 254 divs per axis (127 stretch runs each: 255 x 255 cells).
divs = b"".join(struct.pack(">ii", 2 * i + 1, 2 * i + 2) for i in range(127))
nptc = struct.pack(">BBBB", 1, 254, 254, 0) + struct.pack(">II", 32, 32 + 4 * 254) + b"\0" * 20 + divs + divs
rows = [b"".join(bytes([(x * 7) % 256, (y * 5) % 256, (x + y) % 256, 255]) for x in range(255)) for y in range(255)]
png(w + "/divs254.9.png", 255, 255, rows, chunk(b"npTc", nptc))
PY
cp Fixtures/panel.png "$W/junk.png"
head -c 3000000000 /dev/zero | tr '\0' '\245' >> "$W/junk.png"
run() { # label, then the command
    local label="$1"; shift
    local status=0
    /usr/bin/time -o "$W/time" -f "%e %M" "$@" >/dev/null 2>"$W/stderr" || status=$?
    read -r seconds kib < <(tail -1 "$W/time")
    printf '| %s | %s s | %d MiB | %s |\n' "$label" "$seconds" $((kib / 1024)) \
        "exit $status$( [ "$status" = 0 ] || printf ': %s' "$(head -c 120 "$W/stderr" | tr '\n' ' ')")"
}
echo "| input | time | peak RSS | result |"
echo "|---|---|---|---|"
run ".9.png, 500 stretch runs, 1000x1000, cpu" "$G" render "$W/runs500.9.png" --pixels 1000x1000 --backend cpu -o "$W/a.png"
run "npTc, 254 divs per axis, 512x512, cpu" "$G" render "$W/divs254.9.png" --pixels 512x512 --backend cpu -o "$W/b.png"
run "npTc, 254 divs per axis, 1000x1000, cpu" "$G" render "$W/divs254.9.png" --pixels 1000x1000 --backend cpu -o "$W/b.png"
run "space at 1/64, 1000000x1, cpu" "$G" render Fixtures/shadow.png --insets 16 --mode space --scale 0.015625 --pixels 1000000x1 --backend cpu -o "$W/c.png"
run "space, 4000x4000, gpu" "$G" render Fixtures/shadow.png --insets 16 --mode space --pixels 4000x4000 --backend gpu -o "$W/d.png"
run "space, 4000x4000, cpu" "$G" render Fixtures/shadow.png --insets 16 --mode space --pixels 4000x4000 --backend cpu -o "$W/e.png"
run "stretch, 100000000x1, cpu" "$G" render Fixtures/panel.png --insets 8 --pixels 100000000x1 --backend cpu -o "$W/f.png"
run "render - < /dev/zero" sh -c "\"$G\" render - --pixels 10x10 -o \"$W/g.png\" < /dev/zero"
run "PNG + 3 GB junk, from a file" "$G" render "$W/junk.png" --insets 8 --pixels 40x40 --backend cpu -o "$W/h.png"
run "PNG + 3 GB junk, on stdin" sh -c "\"$G\" render - --insets 8 --pixels 40x40 --backend cpu -o \"$W/i.png\" < \"$W/junk.png\""
