#!/usr/bin/env python3
"""The small-output farm of issue 51 (`make bench-peers-small`): JOBS (2,400) seeded jobs
from the five fixtures (button, panel, bar, texture, shadow, with the insets the bench
manifest gives them), outputs 40-640 x 30-240 px, each `stretch` or `tile` on both axes, a
quarter `nearest`. Where a job's fixed costs weigh most, so where a Skia peer written for
speed comes nearest.

Usage: small-farm.py OUT.jsonl [SEED]"""
import json
import os
import random
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
fixtures = {"button.png": "14,12,14,12", "panel.png": "8,8,8,8", "bar.png": "0,0,0,0",
            "texture.png": "6,6,6,6", "shadow.png": "16,16,16,16"}
out, seed = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 51
jobs = int(os.environ.get("JOBS", "2400"))
rng = random.Random(seed)
with open(out, "w") as f:
    for i in range(jobs):
        name = rng.choice(sorted(fixtures))
        f.write(json.dumps({"input": os.path.join(root, "Fixtures", name), "output": f"{i}.png",
                            "pixels": f"{rng.randint(40, 640)}x{rng.randint(30, 240)}", "insets": fixtures[name],
                            "mode": rng.choice(["stretch", "tile"]),
                            "filter": "nearest" if rng.random() < 0.25 else "linear"}) + "\n")
print(f"small-farm: {jobs} jobs (seed {seed}) in {out}")
