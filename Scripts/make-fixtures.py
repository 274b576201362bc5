#!/usr/bin/env python3
"""Regenerates glslice's sample sources in Fixtures/ (stdlib only).

Each follows the HIG advice: the smallest image that gives the look.
  button@1x/@2x/@3x.png  rounded button, 25x29 pt, insets 14,12,14,12 pt (1-pt centre)
  panel.png              solid panel, 17x17 px, insets 8,8,8,8 (1x1 centre)
  bar.png                vertical gradient bar, 1x24 px, no insets
  texture.png            16x16 brick period inside 6-px caps, 28x28 px, insets 6,6,6,6
  shadow.png             translucent drop shadow, 33x33 px, insets 16,16,16,16
  bubble.9.png           Android nine-patch chat bubble: 26x22 artwork in a 1-px marker
                         border, two stretch runs along x (either side of the tail), one along y
  bubble.compiled.9.png  the same bubble as Android's resource compiler writes it: border
                         removed, markers in an npTc chunk
  bubble.png             the bubble's artwork alone, a plain PNG for --lattice "x=8-10,16-18;y=8-10"
  button.imageset/       the button as an Xcode asset catalog image set: 1x/2x/3x, 9-part,
                         cap-insets and a 1-pt stretched centre in each variant's pixels
  android/               small nine-patches made to test aapt2's reading rules, one rule
                         each (see android() below); the expected values are in the tests
Run: python3 Scripts/make-fixtures.py
"""
import math
import os
import struct
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures")


def write_png(path, width, height, pixels, extra_chunks=(), depth=8):
    """pixels: list of rows of (r, g, b, a) straight tuples (0-255, or 0-65535 at depth 16);
    extra_chunks go before IDAT."""
    fmt = ">%dH" if depth == 16 else "%dB"
    raw = b"".join(b"\x00" + struct.pack(fmt % (4 * len(row)), *(c for px in row for c in px)) for row in pixels)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, 6, 0, 0, 0))
    for kind, body in extra_chunks:
        data += chunk(kind, body)
    data += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)


def clamp8(v):
    return max(0, min(255, int(round(v))))


def rounded_rect_coverage(x, y, w, h, r, samples=4):
    """Fraction of pixel (x, y) inside a w x h rounded rectangle of radius r."""
    inside = 0
    for sy in range(samples):
        for sx in range(samples):
            px = x + (sx + 0.5) / samples
            py = y + (sy + 0.5) / samples
            cx = min(max(px, r), w - r)
            cy = min(max(py, r), h - r)
            if (px - cx) ** 2 + (py - cy) ** 2 <= r * r:
                inside += 1
    return inside / (samples * samples)


def button(scale):
    w, h = 25 * scale, 29 * scale
    r, border = 10 * scale, 1 * scale
    rows = []
    for y in range(h):
        row = []
        for x in range(w):
            outer = rounded_rect_coverage(x, y, w, h, r)
            inner = rounded_rect_coverage(x - border, y - border, w - 2 * border, h - 2 * border, r - border)
            t = y / (h - 1)
            fill = (clamp8(70 + 40 * (1 - t)), clamp8(130 + 60 * (1 - t)), clamp8(230 + 20 * (1 - t)))
            edge = (30, 80, 170)
            c = tuple(clamp8(edge[i] * (1 - inner) + fill[i] * inner) if outer > 0 else 0 for i in range(3))
            row.append(c + (clamp8(255 * outer),))
        rows.append(row)
    write_png(os.path.join(OUT, "button@%dx.png" % scale if scale > 1 else "button.png"), w, h, rows)


def panel():
    n = 17
    rows = []
    for y in range(n):
        row = []
        for x in range(n):
            outer = rounded_rect_coverage(x, y, n, n, 6)
            inner = rounded_rect_coverage(x - 1, y - 1, n - 2, n - 2, 5)
            c = tuple(clamp8(90 * (1 - inner) + 245 * inner) for _ in range(3))
            row.append(c + (clamp8(255 * outer),))
        rows.append(row)
    write_png(os.path.join(OUT, "panel.png"), n, n, rows)


def bar():
    h = 24
    rows = [[(clamp8(40 + 160 * y / (h - 1)), clamp8(200 - 100 * y / (h - 1)), 90, 255)] for y in range(h)]
    write_png(os.path.join(OUT, "bar.png"), 1, h, rows)


def texture():
    cap, period = 6, 16
    n = cap * 2 + period
    rows = []
    for y in range(n):
        row = []
        for x in range(n):
            if cap <= x < n - cap and cap <= y < n - cap:
                tx, ty = x - cap, y - cap
                brick_row = ty // 8
                offset = 4 if brick_row % 2 else 0
                mortar = ty % 8 == 7 or (tx + offset) % 8 == 7
                c = (200, 195, 185) if mortar else (160 + 10 * brick_row, 70, 50)
                row.append(c + (255,))
            else:
                d = min(x, y, n - 1 - x, n - 1 - y)
                shade = 60 + 25 * d
                row.append((shade, shade, clamp8(shade * 1.1), 255))
        rows.append(row)
    write_png(os.path.join(OUT, "texture.png"), n, n, rows)


def shadow():
    n, box, blur = 33, 8, 6.0
    rows = []
    for y in range(n):
        row = []
        for x in range(n):
            # Distance from a central box, softened into a Gaussian-like falloff.
            dx = max(abs(x + 0.5 - n / 2) - box, 0)
            dy = max(abs(y + 0.5 - n / 2) - box, 0)
            d = math.hypot(dx, dy)
            a = 0.45 * math.exp(-(d * d) / (2 * blur * blur))
            row.append((0, 0, 0, clamp8(255 * a)))
        rows.append(row)
    write_png(os.path.join(OUT, "shadow.png"), n, n, rows)


def bubble():
    """A raw Android nine-patch: artwork inside a 1-px border of black markers."""
    w, h = 26, 22
    art = []
    for y in range(h):
        row = []
        for x in range(w):
            body = rounded_rect_coverage(x, y, w, h - 4, 7)
            # A tail under the middle of the bubble, 6 px wide at the top.
            tail = 1.0 if (y >= h - 4 and abs(x + 0.5 - w / 2) < (h - y) * 0.75) else 0.0
            a = max(body, tail)
            row.append((80, 200, 120, clamp8(255 * a)))
        art.append(row)
    clear, black = (0, 0, 0, 0), (0, 0, 0, 255)
    stretch_x = set(range(8, 10)) | set(range(16, 18))   # either side of the tail
    stretch_y = set(range(8, 10))
    pad_x, pad_y = range(4, 22), range(4, 14)
    rows = [[clear] + [black if x in stretch_x else clear for x in range(w)] + [clear]]
    for y in range(h):
        rows.append([black if y in stretch_y else clear] + art[y] + [black if y in pad_y else clear])
    rows.append([clear] + [black if x in pad_x else clear for x in range(w)] + [clear])
    write_png(os.path.join(OUT, "bubble.9.png"), w + 2, h + 2, rows)
    # Compiled: the artwork alone, the markers as Android's npTc chunk (big-endian).
    x_divs, y_divs = [8, 10, 16, 18], [8, 10]
    colours = [1] * (5 * 3)  # one per region; 1 = "no single colour"
    np_tc = struct.pack(">4B", 1, len(x_divs), len(y_divs), len(colours)) + struct.pack(">II", 0, 0)
    np_tc += struct.pack(">4i", pad_x.start, w - pad_x.stop, pad_y.start, h - pad_y.stop) + struct.pack(">I", 0)
    np_tc += struct.pack(">%di" % len(x_divs), *x_divs) + struct.pack(">%di" % len(y_divs), *y_divs)
    np_tc += struct.pack(">%dI" % len(colours), *colours)
    write_png(os.path.join(OUT, "bubble.compiled.9.png"), w, h, art, extra_chunks=[(b"npTc", np_tc)])
    # Plain: the artwork alone; --lattice "x=8-10,16-18;y=8-10" says what the markers say.
    write_png(os.path.join(OUT, "bubble.png"), w, h, art)


def imageset():
    import json
    import shutil
    folder = os.path.join(OUT, "button.imageset")
    os.makedirs(folder, exist_ok=True)
    images = []
    for scale in (1, 2, 3):
        name = "button@%dx.png" % scale if scale > 1 else "button.png"
        shutil.copyfile(os.path.join(OUT, name), os.path.join(folder, name))
        images.append({
            "filename": name, "idiom": "universal", "scale": "%dx" % scale,
            "resizing": {
                "mode": "9-part",
                "center": {"mode": "stretch", "width": scale, "height": scale},
                "cap-insets": {"top": 14 * scale, "left": 12 * scale, "bottom": 14 * scale, "right": 12 * scale},
            },
        })
    with open(os.path.join(folder, "Contents.json"), "w") as f:
        json.dump({"images": images, "info": {"author": "xcode", "version": 1}}, f, indent=2)
        f.write("\n")


def nine_patch(name, art, top="", left="", bottom="", right="", corners=None, neutral=(0, 0, 0, 0), depth=8,
               marker=None):
    """Writes android/NAME: `art` rows inside a border whose edges are strings over the
    artwork (k black, r red, g grey, anything else neutral); corners: (top-left, top-right,
    bottom-left, bottom-right) pixels."""
    h, w = len(art), len(art[0])
    black = marker or (0, 0, 0, 255)
    red = (65535, 0, 0, 65535) if depth == 16 else (255, 0, 0, 255)
    if depth == 16 and neutral == (0, 0, 0, 0):
        neutral = (0, 0, 0, 0)
    def edge(text, n):
        text = text.ljust(n)
        grey = (128, 128, 128, 255)
        return [black if c == "k" else red if c == "r" else grey if c == "g" else neutral for c in text[:n]]
    tl, tr, bl, br = corners or (neutral,) * 4
    t, l, b, r = edge(top, w), edge(left, h), edge(bottom, w), edge(right, h)
    rows = [[tl] + t + [tr]] + [[l[y]] + list(art[y]) + [r[y]] for y in range(h)] + [[bl] + b + [br]]
    os.makedirs(os.path.join(OUT, "android"), exist_ok=True)
    write_png(os.path.join(OUT, "android", name), w + 2, h + 2, rows, depth=depth)


def android():
    """One fixture per aapt2 reading rule (docs/RENDERING.md §7)."""
    grey = lambda v: (v, v, v, 255)
    # A 4-px stretch run that is a gradient between two 2-px caps: Android stretches it.
    nine_patch("gradient.9.png", [[grey(v) for v in (40, 40, 60, 100, 140, 180, 220, 220)]], top="  kkkk", left="k")
    # Black corner pixels other than (0,0): aapt2 never reads them.
    k = (0, 0, 0, 255)
    nine_patch("corners.9.png", [[grey(50)] * 3] * 3, top=" k ", left=" k ", corners=((0, 0, 0, 0), k, k, k))
    # No top markers: the whole x axis scales.
    nine_patch("whole-axis.9.png", [[grey(v) for v in (0, 40, 80, 120)]] * 3, left=" k ")
    # 16-bit: markers of 0x00FF are black by their high byte; the artwork keeps accurate scaling.
    g16 = (0x12FF, 0x12FF, 0x12FF, 0xFFFF)
    nine_patch("sixteen.9.png", [[g16] * 4] * 3, top=" kk ", left=" k ", depth=16, marker=(0x00FF, 0x00FF, 0x00FF, 0xFFFF))
    # Refused as aapt2 refuses them.
    art = [[grey(90)] * 6] * 6
    nine_patch("red-middle.9.png", art, top="  kk", left="  kk", bottom="  rr")
    nine_patch("red-three.9.png", art, top="  kk", left="  kk", right="r r  r")
    nine_patch("red-top.9.png", art, top="  kr", left="  kk")
    nine_patch("regions.9.png", [[grey(90)] * 17] * 9, top=" k k k k k k k k", left=" k k k k")
    nine_patch("invalid-colour.9.png", art, top="  kgk", left="  kk")
    # Padding (black) and optical bounds (red, one run from each end) on the bottom and right.
    optical_art = [[grey(70)] * 9] * 6
    nine_patch("optical.9.png", optical_art, top="   kk", left="  kk", bottom="rr kkkk r", right=" kkk r")
    # The same, compiled: npTc (big-endian) and npLb (little-endian, as aapt2 copies the ints).
    x_divs, y_divs = [3, 5], [2, 4]
    np_tc = struct.pack(">4B", 1, 2, 2, 9) + struct.pack(">II", 0, 0)
    np_tc += struct.pack(">4i", 3, 2, 1, 2) + struct.pack(">I", 0)  # padding left, right, top, bottom
    np_tc += struct.pack(">4i", *(x_divs + y_divs)) + struct.pack(">9I", *([1] * 9))
    np_lb = struct.pack("<4i", 2, 0, 1, 1)  # optical left, top, right, bottom
    write_png(os.path.join(OUT, "android", "optical.compiled.png"), 9, 6, optical_art,
              extra_chunks=[(b"npTc", np_tc), (b"npLb", np_lb)])


if __name__ == "__main__":
    for s in (1, 2, 3):
        button(s)
    panel()
    bar()
    texture()
    shadow()
    bubble()
    imageset()
    android()
    print("wrote fixtures to", os.path.normpath(OUT))
