#!/usr/bin/env python3
"""The default encoder's bound (issue 69) image by image: renders a manifest twice with
`glslice batch --backend cpu`, once as it is (the default) and once with every line's
compression `zlib` (zlib 6), and prints how many outputs are over 1.10x zlib 6's bytes, the
worst, and the totals. The corpus (`glslice-bench bound`) holds made-up images; this holds the
bound to the outputs a farm writes.

Usage: bound-per-image.py GLSLICE MANIFEST [WORST]   (WORST: how many of the worst to list, 10)"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

glslice, manifest = sys.argv[1], sys.argv[2]
worst = int(sys.argv[3]) if len(sys.argv) > 3 else 10
scratch = tempfile.mkdtemp(prefix="glslice-bound-", dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
try:
    lines = [json.loads(line) for line in open(manifest) if line.strip()]
    zlib_manifest = os.path.join(scratch, "zlib.jsonl")
    with open(zlib_manifest, "w") as out:
        out.writelines(json.dumps(dict(job, compression="zlib")) + "\n" for job in lines)
    for name, path in (("default", manifest), ("zlib", zlib_manifest)):
        subprocess.run([glslice, "batch", path, "--backend", "cpu", "--out-dir", os.path.join(scratch, name)],
                       check=True, capture_output=True)
    rows = []
    for job in lines:
        ours = os.path.getsize(os.path.join(scratch, "default", job["output"]))
        theirs = os.path.getsize(os.path.join(scratch, "zlib", job["output"]))
        rows.append((ours / theirs, ours, theirs, job))
    over = [r for r in rows if r[0] > 1.10]
    print(f"{manifest}: {len(rows)} outputs, {len(over)} over 1.10x zlib 6's bytes "
          f"({sum(r[1] - r[2] for r in over):,} bytes over zlib's there); "
          f"in all {sum(r[1] for r in rows):,} against {sum(r[2] for r in rows):,} ({sum(r[1] for r in rows) / sum(r[2] for r in rows):.3f}x)")
    for ratio, ours, theirs, job in sorted(rows, key=lambda r: -r[0])[:worst]:
        source = os.path.basename(job["input"])
        rest = {k: v for k, v in job.items() if k not in ("input", "output")}
        print(f"  {ratio:.3f}x  {ours:>9,} against {theirs:>9,}  {job['output']}  {source} {json.dumps(rest)}")
finally:
    shutil.rmtree(scratch, ignore_errors=True)
