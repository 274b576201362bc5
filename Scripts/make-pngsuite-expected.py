#!/usr/bin/env python3
"""Writes Fixtures/pngsuite-expected.tsv: the straight RGBA8 each valid
PngSuite image must decode to under docs/RENDERING.md §4, computed with pypng (an
independent pure-Python decoder), so the Swift tests never compare libpng
with itself.

Per docs/RENDERING.md §4: palette expanded (tRNS gives alpha), gray replicated to RGB,
sub-byte gray scaled by bit replication, 16-bit samples scaled by
round(v * 255 / 65535), tRNS on gray/RGB gives alpha 0, colour-space chunks
and sBIT ignored. Each line: name, width, height, FNV-1a 64 of the RGBA bytes.

Run: python3 -m pip install --target /tmp/pypng pypng==0.20220715.0
     PYTHONPATH=/tmp/pypng python3 Scripts/make-pngsuite-expected.py
"""
import glob
import os

import png  # pypng

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures")


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def to8(v, depth):
    if depth == 16:
        return (v * 255 + 32767) // 65535
    return v * 255 // ((1 << depth) - 1)


def decode(path):
    reader = png.Reader(filename=path)
    width, height, rows, info = reader.read()
    rows = [list(r) for r in rows]
    depth = info["bitdepth"]
    out = bytearray()
    if reader.color_type == 3:
        palette = reader.palette(alpha="force")
        for r in rows:
            for i in r:
                out += bytes(palette[i])
        return width, height, bytes(out)
    planes = info["planes"]
    greyscale = info["greyscale"]
    alpha = info["alpha"]
    transparent = info.get("transparent")
    if transparent is not None and not isinstance(transparent, tuple):
        transparent = (transparent,)
    for r in rows:
        for x in range(width):
            px = r[x * planes:(x + 1) * planes]
            colour = px[:-1] if alpha else px
            if alpha:
                a = to8(px[-1], depth)
            elif transparent is not None and tuple(colour) == tuple(transparent):
                a = 0
            else:
                a = 255
            c = [to8(v, depth) for v in colour]
            if greyscale:
                c = c * 3
            out += bytes(c + [a])
    return width, height, bytes(out)


def main():
    lines = []
    for path in sorted(glob.glob(os.path.join(ROOT, "pngsuite", "*.png"))):
        name = os.path.basename(path)
        if name.startswith("x"):
            continue
        w, h, rgba = decode(path)
        assert len(rgba) == w * h * 4, name
        lines.append("%s\t%d\t%d\t%016x" % (name, w, h, fnv1a64(rgba)))
    with open(os.path.join(ROOT, "pngsuite-expected.tsv"), "w") as f:
        f.write("# name\twidth\theight\tfnv1a64(straight RGBA8), from Scripts/make-pngsuite-expected.py\n")
        f.write("\n".join(lines) + "\n")
    print("wrote %d expectations" % len(lines))


if __name__ == "__main__":
    main()
