#!/usr/bin/env python3
"""hd400.jsonl in the folder given: 400 outputs of about 1920x1080, the device kit's mix
(seed 5), for `make bench-compression`."""
import json
import os
import random
import sys

out = sys.argv[1]
fixtures = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "Fixtures"))
sources = [("panel.png", "8,8,8,8"), ("shadow.png", "16,16,16,16"), ("texture.png", "6,6,6,6"),
           ("button@2x.png", "14,12,14,12"), ("bar.png", "0")]
modes = ["stretch", "tile", "round", "space", "repeat", "auto"]
rng = random.Random(5)
with open(os.path.join(out, "hd400.jsonl"), "w") as f:
    for i in range(400):
        name, insets = sources[i % len(sources)]
        f.write(json.dumps({"input": f"{fixtures}/{name}", "output": f"{i}.png",
                            "pixels": f"{rng.randint(1440, 1920)}x{rng.randint(810, 1080)}", "insets": insets,
                            "mode": rng.choice(modes), "filter": rng.choice(["linear", "linear", "nearest"])}) + "\n")
