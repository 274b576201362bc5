#!/usr/bin/env bash
# `make same-bytes`: writes every output of the sets a refactor must keep byte-identical
# with the binary in $1 into folder $2: the 2,400-job bench manifest (a quarter WebP),
# the HD set (1920x1080, every fixture in every mode, a fifth WebP, half `nearest`), the
# 20,000^2 tiled giant, and the README's render/batch/optimize/preview examples, each on
# the cpu, gpu and hybrid backends where it takes --backend. Compare two such folders
# with `diff -r` (or `cmp` per file): a refactor passes when nothing differs.
# Not a test (it takes minutes): run it before and after, e.g.
#   Scripts/same-bytes.sh /tmp/glslice-before /tmp/before
#   Scripts/same-bytes.sh .build/release/glslice /tmp/after && diff -r /tmp/before /tmp/after
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "$1")
out=$2
rm -rf "$out"; mkdir -p "$out"
fixtures=$(realpath Fixtures)
# The bench manifest: its generator makes one job in four a WebP.
.build/release/glslice-bench manifest "$out/bench.jsonl" --jobs 2400 --seed 42 >/dev/null
sed -i 's/"output": "\([0-9]*[05]\)\.png"/"output": "\1.webp"/' "$out/bench.jsonl"
# The HD set: every fixture in every mode at 1920x1080.
python3 - "$fixtures" "$out/hd.jsonl" <<'PY'
import json, sys
fixtures, path = sys.argv[1], sys.argv[2]
sources = [("button.png", "14,12,14,12"), ("button@2x.png", "14,12,14,12"), ("button@3x.png", "14,12,14,12"),
           ("panel.png", "8,8,8,8"), ("bar.png", "0,0,0,0"), ("texture.png", "6,6,6,6"), ("shadow.png", "16,16,16,16"),
           ("bubble.9.png", None), ("button.imageset", None)]
modes = ["stretch", "tile", "round", "space", "repeat"]
n = 0
with open(path, "w") as f:
    for name, insets in sources:
        for mx in modes:
            for my in (mx, "stretch"):
                job = {"input": f"{fixtures}/{name}", "output": f"hd{n}." + ("webp" if n % 5 == 0 else "png"),
                       "pixels": "1920x1080", "mode-x": mx, "mode-y": my, "filter": "nearest" if n % 2 else "linear"}
                if insets: job["insets"] = insets
                if name.endswith(".9.png"): job.pop("mode-x"); job.pop("mode-y")
                if name.endswith(".imageset"): job.pop("pixels"); job["size"] = "640x360"; job["scale"] = 3
                f.write(json.dumps(job) + "\n"); n += 1
PY
for backend in cpu gpu hybrid; do
  "$bin" batch "$out/bench.jsonl" --backend "$backend" --out-dir "$out/bench-$backend" 2>/dev/null
  "$bin" batch "$out/hd.jsonl" --backend "$backend" --out-dir "$out/hd-$backend" 2>/dev/null
  "$bin" batch Fixtures/jobs.jsonl --backend "$backend" --out-dir "$out/farm-$backend" 2>/dev/null
  "$bin" render Fixtures/texture.png --insets 6,6,6,6 --mode tile --pixels 20000x20000 --backend "$backend" \
    -o "$out/giant-$backend.png"
  mkdir -p "$out/readme-$backend"; r="$out/readme-$backend"
  "$bin" render Fixtures/button@2x.png --insets 14,12,14,12 --size 120x44 --backend "$backend" -o "$r/button@2x.png"
  "$bin" render Fixtures/button@2x.png --insets 14,12,14,12 --size 120x44 --scale 3 --backend "$backend" -o "$r/button@3x.png"
  "$bin" render Fixtures/texture.png --insets 6 --mode tile --pixels 300x200 --backend "$backend" -o "$r/tile.png"
  "$bin" render Fixtures/texture.png --insets 6 --mode round --pixels 300x200 --backend "$backend" -o "$r/round.png"
  "$bin" render Fixtures/texture.png --insets 6 --mode tile --pixels 300x200 --backend "$backend" -o "$r/tile.webp"
  "$bin" render Fixtures/bubble.9.png --pixels 160x60 --backend "$backend" -o "$r/bubble.png"
  "$bin" render Fixtures/bubble.9.png --lattice "x=4-10,16-18;y=8-10" --pixels 160x60 --backend "$backend" -o "$r/bubble-edited.png"
  "$bin" render Fixtures/button.imageset --size 120x44 --scale 3 --backend "$backend" -o "$r/button-set@3x.png"
done
"$bin" optimize Fixtures/texture.png --insets 6 --keep-period -o "$out/texture-small.png" >/dev/null
"$bin" optimize Fixtures/bubble.9.png -o "$out/bubble-small.9.png" >/dev/null
"$bin" preview Fixtures/bubble.9.png Fixtures/button.imageset -o "$out/sheet.png" >/dev/null
"$bin" compare "$out/readme-cpu/tile.png" "$out/readme-cpu/round.png" --diff "$out/heat.png" >/dev/null || true
rm -f "$out"/*/results.jsonl
echo "same-bytes: $(find "$out" -type f | wc -l) files, $(du -sh "$out" | cut -f1) in $out"
