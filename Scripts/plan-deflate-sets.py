#!/usr/bin/env python3
"""`make bench-plan-deflate`'s other two sets, in the folder given: 400 outputs of about
1920x1080 (the device kit's mix, seed 5) and slices of the three giants of
docs/BENCHMARKS.md (a tenth of their rows: the prototype holds a whole image)."""
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
with open(os.path.join(out, "giants.jsonl"), "w") as f:
    f.write(json.dumps({"input": f"{fixtures}/texture.png", "output": "g1.png", "pixels": "20000x2000", "insets": "6,6,6,6", "mode": "tile"}) + "\n")
    f.write(json.dumps({"input": f"{fixtures}/panel.png", "output": "g2.png", "pixels": "20000x2000", "insets": "8,8,8,8", "mode": "stretch"}) + "\n")
    f.write(json.dumps({"input": f"{fixtures}/bar.png", "output": "g3.png", "pixels": "4000x6000"}) + "\n")
