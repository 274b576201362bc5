#!/usr/bin/env python3
"""same-pixels.py DIR_A DIR_B: every PNG in DIR_A decodes to the same RGBA pixels as the
PNG of the same name in DIR_B, read with Pillow and with pypng (neither is glslice's code).
Prints a count per decoder and each file that differs; exits 1 if one does."""
import os
import sys

import png
from PIL import Image


def pillow(path):
    with Image.open(path) as im:
        im.load()
        return im.size, im.convert("RGBA").tobytes()


def pypng(path):
    w, h, rows, _ = png.Reader(filename=path).asRGBA8()
    return (w, h), b"".join(bytes(r) for r in rows)


a, b = sys.argv[1], sys.argv[2]
names = sorted(n for n in os.listdir(a) if n.endswith(".png"))
bad = 0
for decoder in (pillow, pypng):
    differ = 0
    for n in names:
        if decoder(os.path.join(a, n)) != decoder(os.path.join(b, n)):
            print(f"same-pixels: {n} differs ({decoder.__name__})")
            differ += 1
    print(f"same-pixels: {decoder.__name__}: {len(names) - differ} of {len(names)} the same")
    bad += differ
sys.exit(1 if bad else 0)
