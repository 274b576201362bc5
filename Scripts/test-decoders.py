#!/usr/bin/env python3
"""`make test-decoders` GLSLICE: files of glslice's own deflate (`default`) read by decoders
that are not glslice's (issues 42 and 51). One manifest of seeded random jobs over the
fixtures (every mode on each axis, both filters, scales, hollow centres) plus shapes at the
limits (widths up to 16,383, heights up to 20,000) is rendered twice by `glslice batch`, once
`default` and once `zlib` (zlib 6, the encoder the earlier tests hold to libpng); Pillow and
pypng must read every `default` file to the same RGBA pixels as its `zlib` twin
(Scripts/same-pixels.py). Exits 1 on a difference."""
import json
import os
import random
import shutil
import subprocess
import sys

glslice = sys.argv[1]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
work = os.path.join(root, "out", "test-decoders")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)

fixtures = {
    "button.png": "14,12,14,12", "button@2x.png": "14,12,14,12", "panel.png": "8,8,8,8",
    "bar.png": None, "texture.png": "6,6,6,6", "shadow.png": "16,16,16,16", "bubble.9.png": None,
}
modes = ["stretch", "tile", "round", "space", "repeat", "auto"]
seed = int(os.environ.get("GLSLICE_DECODER_SEED", "4207"))
rng = random.Random(seed)
jobs = []
for i in range(300):
    name = rng.choice(sorted(fixtures))
    job = {"input": os.path.join(root, "Fixtures", name), "output": f"{i}.png",
           "pixels": f"{rng.randint(1, 700)}x{rng.randint(1, 400)}",
           "mode-x": rng.choice(modes), "mode-y": rng.choice(modes),
           "filter": rng.choice(["linear", "nearest"]), "center": rng.random() < 0.8,
           "scale": rng.choice([1, 2, 3])}
    if fixtures[name]:
        job["insets"] = fixtures[name]
    jobs.append(job)
for i, (size, name, mode) in enumerate([("16383x4", "texture.png", "tile"), ("16383x2", "shadow.png", "stretch"),
                                        ("3x20000", "texture.png", "round"), ("1x20000", "bar.png", "stretch"),
                                        ("2000x1500", "texture.png", "space"), ("1500x900", "shadow.png", "repeat")]):
    job = {"input": os.path.join(root, "Fixtures", name), "output": f"edge-{i}.png", "pixels": size, "mode": mode}
    if fixtures[name]:
        job["insets"] = fixtures[name]
    jobs.append(job)

folders = {}
for compression in ("default", "zlib"):
    manifest = os.path.join(work, f"{compression}.jsonl")
    with open(manifest, "w") as f:
        for job in jobs:
            f.write(json.dumps(dict(job, compression=compression)) + "\n")
    folders[compression] = os.path.join(work, compression)
    subprocess.run([glslice, "batch", manifest, "--backend", "cpu", "--out-dir", folders[compression]], check=True)


# Pillow and pypng read every `default` file against its `zlib` twin (Scripts/same-pixels.py).
same = subprocess.run([sys.executable, os.path.join(root, "Scripts", "same-pixels.py"), folders["default"], folders["zlib"]])
names = [job["output"] for job in jobs]
size = {c: sum(os.path.getsize(os.path.join(folders[c], n)) for n in names) for c in folders}
print(f"test-decoders: seed {seed}; default {size['default']} bytes, zlib {size['zlib']} bytes")
sys.exit(same.returncode)
