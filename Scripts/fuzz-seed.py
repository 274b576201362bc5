#!/usr/bin/env python3
"""Seeds Fuzz/corpus/<target>/ from the fixtures (run once; `make fuzz` grows them).

Each seed is named after its content's SHA-1, as libFuzzer names what it adds."""
import glob, hashlib, json, os, struct

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
CORPUS = os.path.join(ROOT, "Fuzz", "corpus")


def add(target, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def chunks(data):
    at = 8
    while at + 12 <= len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        yield data[at + 4:at + 8], data[at + 8:at + 8 + length]
        at += 12 + length


fixtures = os.path.join(ROOT, "Fixtures")
pngs = sorted(glob.glob(os.path.join(fixtures, "**", "*.png"), recursive=True))
for path in pngs:
    if os.path.getsize(path) > 64 << 10:
        continue
    data = open(path, "rb").read()
    add("png", data)
    if path.endswith(".9.png"):
        add("ninepatch", data)
    for kind, body in chunks(data):
        if kind == b"npTc":
            (width, height) = struct.unpack(">II", data[16:24])
            add("nptc", bytes([min(max(width, 1), 256) - 1, min(max(height, 1), 256) - 1]) + body)
for path in sorted(glob.glob(os.path.join(fixtures, "**", "Contents.json"), recursive=True)):
    add("contents", open(path, "rb").read())
    add("contentsdisk", open(path, "rb").read())


def contents(images):
    return json.dumps({"images": images}).encode()


# contentsdisk's folder holds a.png, a@2x.png, a@3x.png, b.9.png, c.png, a link out (out.png),
# a link up (up.png) and a FIFO (fifo.png): entries that name each.
add("contentsdisk", contents([{"filename": "a.png", "scale": "1x"}, {"filename": "a@2x.png", "scale": "2x"},
                              {"filename": "a@3x.png", "scale": "3x"}]))
add("contentsdisk", contents([{"filename": "out.png", "scale": "1x"}, {"filename": "up.png", "scale": "2x"},
                              {"filename": "fifo.png", "scale": "3x"}]))
add("contentsdisk", contents([{"filename": "b.9.png", "scale": "2x", "resizing": {
    "mode": "9-part", "center": {"mode": "tile", "width": 1, "height": 1},
    "cap-insets": {"top": 1, "left": 2, "bottom": 1, "right": 2}}}]))
add("contentsdisk", contents([{"filename": "../set.imageset/a.png", "scale": "1x"}, {"filename": "/etc/passwd", "scale": "2x"}]))
# query: request targets against a root holding a.png, a@2x.png, b.9.png and ui/c.png.
for target in ["/render/a.png?size=20x10&insets=1,2,1,2", "/render/b.9.png?pixels=30x30", "/render/a@2x.png?size=9x9&mode=tile&scale=3",
               "/render/ui/c.png?pixels=12x40&insets=2&mode=round", "/render/a.png?size=1e400x5", "/render/..%2fa.png?size=5x5",
               "/preview/sources", "/preview/info/b.9.png", "/preview/info/a.png?scale=2", "/healthz", "/metrics", "/",
               "/render/a.png?size=10x10&sig=00&expires=1", "/render/a.png?%73ig=1&size=3x3",
               "/render/%61.png?pixels=8x6&modes=stretch,tile"]:
    add("query", target.encode())
lines = []
for path in sorted(glob.glob(os.path.join(fixtures, "bad", "*.jsonl"))):
    lines += open(path, "rb").read().splitlines()
lines += [
    b'{"input": "b@2x.png", "output": "o.png", "size": "120x44", "scale": 3, "insets": "14,12,14,12", "mode": "tile"}',
    b'{"input": "t.png", "output": "d/o.png", "pixels": [300, 200], "insets": [6, 6, 6, 6], "mode-x": "round", "mode-y": "space", "filter": "nearest"}',
    b'{"input": "p.png", "output": "o.png", "pixels": "64x64", "insets": 2, "mode": "repeat", "center": false, "compression": "small", "source-scale": 2}',
]
for line in lines:
    add("manifest", line)
    add("options", line)
print("seeded:", {t: len(os.listdir(os.path.join(CORPUS, t))) for t in sorted(os.listdir(CORPUS))})
