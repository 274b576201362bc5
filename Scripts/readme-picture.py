#!/usr/bin/env python3
"""The README's picture: a source magnified with its caps marked, then two renders of it.

Usage: Scripts/readme-picture.py GLSLICE OUT.png (stdlib only; `make readme-picture`).
The renders come from `glslice render`; this script only reads PNGs and lays them out.
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

GLSLICE, OUT = sys.argv[1], sys.argv[2]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "Fixtures", "button@2x.png")
CAPS = (28, 24, 28, 24)  # --insets 14,12,14,12 pt at @2x, in pixels: top, left, bottom, right
ZOOM = 3


def read_png(path):
    """8-bit RGBA, RGB or palette PNGs (what glslice and the fixtures hold) as rows of RGBA tuples."""
    data = open(path, "rb").read()
    i, idat, plte, trns = 8, b"", b"", b""
    while i < len(data):
        n = struct.unpack(">I", data[i:i + 4])[0]
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        i += 12 + n
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8, "8-bit only"
        elif kind == b"IDAT":
            idat += body
        elif kind == b"PLTE":
            plte = body
        elif kind == b"tRNS":
            trns = body
    bpp = {6: 4, 2: 3, 3: 1}[colour]
    raw, stride, prev, rows, k = zlib.decompress(idat), w * bpp, bytearray(w * bpp), [], 0
    for _ in range(h):
        f, line = raw[k], bytearray(raw[k + 1:k + 1 + stride])
        k += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if colour == 6: rows.append([tuple(line[4 * x:4 * x + 4]) for x in range(w)])
        elif colour == 2: rows.append([tuple(line[3 * x:3 * x + 3]) + (255,) for x in range(w)])
        else: rows.append([tuple(plte[3 * v:3 * v + 3]) + ((trns[v] if v < len(trns) else 255),) for v in line])
    return rows


def write_png(path, rows):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    raw = b"".join(b"\0" + bytes(c for p in row for c in p[:3]) for row in rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", len(rows[0]), len(rows), 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def checker(x, y):
    return (255, 255, 255) if (x // 8 + y // 8) % 2 == 0 else (228, 231, 236)


def paste(canvas, image, left, top, zoom=1):
    for y in range(len(image) * zoom):
        for x in range(len(image[0]) * zoom):
            r, g, b, a = image[y // zoom][x // zoom]
            under = canvas[top + y][left + x]
            canvas[top + y][left + x] = tuple((v * a + u * (255 - a) + 127) // 255 for v, u in zip((r, g, b), under))


def main():
    with tempfile.TemporaryDirectory() as scratch:
        renders = []
        for size in ("200x44", "90x80"):
            out = os.path.join(scratch, size + ".png")
            subprocess.run([GLSLICE, "render", SOURCE, "--insets", "14,12,14,12", "--size", size, "-o", out], check=True)
            renders.append(read_png(out))
        source = read_png(SOURCE)
        sw, sh = len(source[0]) * ZOOM, len(source) * ZOOM
        gap = 32
        width = 16 + sw + gap + sum(len(r[0]) for r in renders) + gap * (len(renders) - 1) + 16
        height = 16 + max([sh] + [len(r) for r in renders]) + 16
        canvas = [[checker(x, y) for x in range(width)] for y in range(height)]
        paste(canvas, source, 16, 16, ZOOM)
        top, left, bottom, right = CAPS
        magenta = (214, 36, 159)
        for x in (left * ZOOM, sw - right * ZOOM):
            for y in range(sh): canvas[16 + y][16 + x] = magenta
        for y in (top * ZOOM, sh - bottom * ZOOM):
            for x in range(sw): canvas[16 + y][16 + x] = magenta
        x = 16 + sw + gap
        for render in renders:
            paste(canvas, render, x, 16)
            x += len(render[0]) + gap
        write_png(OUT, canvas)


main()
