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
