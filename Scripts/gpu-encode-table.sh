#!/usr/bin/env bash
# GPU encoding on a GPU node (issue 43): .gpu/table.sh's batch rows with every job `default`
# (glslice's own deflate since renderer 7, which the GPU encodes; `fast` is the same for PNG), cpu | gpu | hybrid | auto, and gpu with GPU encoding
# off (GLSLICE_GPU_ENCODE=0, the GPU only draws), in one run on one machine. Medians of 3
# alternated runs; outputs go to tmpfs. From the project root on the device machine:
#   source .gpu/prelude.sh; bash Scripts/gpu-encode-table.sh 2>&1 | tee $OUT/encode.md
# ENCODE_ROWS="hd uhd" picks rows (default: m2400 m20k hd uhd; " " runs only the own-work table). On llvmpipe GPU encoding is off
# unless GLSLICE_GPU_ENCODE=1 (it is slower than the CPU's encoder there).
set -u
: "${G:?source .gpu/prelude.sh first (G: glslice, B: glslice-bench, FX: fixtures)}"
T=${TABLE_TMP:-/dev/shm/encode-table}; [ -d /dev/shm ] || T=/tmp/encode-table; rm -rf "$T"; mkdir -p "$T"
rows=${ENCODE_ROWS:-m2400 m20k hd uhd}
"$G" doctor 2>&1 | grep -E 'GL_RENDERER|GPU encoding' | head -2

# Manifests: the bench manifests and the HD and 4K sets, every job `default`.
"$B" manifest "$T/m2400.jsonl" --jobs 2400 --seed 42 --fixtures "$FX" >/dev/null
"$B" manifest "$T/m20k.jsonl" --jobs 20000 --seed 43 --fixtures "$FX" >/dev/null
python3 - "$FX" "$T" <<'PY'
import json, random, sys
fx, t = sys.argv[1], sys.argv[2]
src = [("panel.png", "8,8,8,8"), ("shadow.png", "16,16,16,16"), ("texture.png", "6,6,6,6"), ("button@2x.png", "14,12,14,12"), ("bar.png", "0")]
modes = ["stretch", "tile", "round", "space", "repeat", "auto"]
for name, n, w, h, seed in (("hd", 400, 1920, 1080, 5), ("uhd", 100, 3840, 2160, 6)):
    r = random.Random(seed)
    with open(f"{t}/{name}.jsonl", "w") as f:
        for i in range(n):
            s, ins = src[i % len(src)]
            f.write(json.dumps({"input": f"{fx}/{s}", "output": f"{i}.png", "pixels": f"{r.randint(w * 3 // 4, w)}x{r.randint(h * 3 // 4, h)}",
                                "insets": ins, "mode": r.choice(modes), "filter": r.choice(["linear", "linear", "nearest"])}) + "\n")
for name in ("m2400", "m20k", "hd", "uhd"):
    jobs = [json.loads(line) for line in open(f"{t}/{name}.jsonl") if line.strip()]
    with open(f"{t}/{name}.jsonl", "w") as f:
        for job in jobs:
            job["compression"] = "default"
            f.write(json.dumps(job) + "\n")
PY

# Wall seconds of one batch: $1 = label (cpu, gpu, hybrid, auto, or gpu-draw-only), $2 = manifest.
wall() {
  local backend=$1 encode=() t0 t1
  [ "$1" = gpu-draw-only ] && { backend=gpu; encode=(GLSLICE_GPU_ENCODE=0); }
  rm -rf "$T/o"; t0=$(date +%s.%N)
  env "${encode[@]}" "$G" batch "$2" --backend "$backend" --out-dir "$T/o" >/dev/null 2>"$T/err" || echo "  ($1: $(tail -n 1 "$T/err"))" >&2
  t1=$(date +%s.%N); python3 -c "print(f'{$t1 - $t0:.3f}')"
}
declare -A N=([m2400]=2400 [m20k]=20000 [hd]=400 [uhd]=100)
declare -A LABEL=([m2400]="bench manifest, 2,400 jobs" [m20k]="20,000 jobs" [hd]="400 x ~1920x1080" [uhd]="100 x ~3840x2160")
echo; echo "## batch, every job default (glslice deflate) (renders/s, median of 3 alternated runs; x = CPU time / this time)"
echo "| workload | cpu | gpu, GPU draws only | gpu | hybrid | auto | gpu x | hybrid x | auto x |"; echo "|---|---|---|---|---|---|---|---|---|"
for m in $rows; do
  declare -A S=()
  for r in 1 2 3; do for b in cpu gpu-draw-only gpu hybrid auto; do S[$b]+="$(wall $b "$T/$m.jsonl") "; done; done
  python3 - "${LABEL[$m]}" "${N[$m]}" "${S[cpu]}" "${S[gpu-draw-only]}" "${S[gpu]}" "${S[hybrid]}" "${S[auto]}" <<'PY'
import sys, statistics as st
name, n = sys.argv[1], int(sys.argv[2])
c, d, g, h, a = (st.median(map(float, x.split())) for x in sys.argv[3:8])
print(f"| {name} | {n / c:,.0f}/s | {n / d:,.0f}/s | {n / g:,.0f}/s | {n / h:,.0f}/s | {n / a:,.0f}/s | {c / g:.2f} | {c / h:.2f} | {c / a:.2f} |", flush=True)
PY
  unset S
done
# Issue 52's bound on this node, from the same binary: the GL thread's own work (`gpu-own`) per
# GPU-encoded output against the CPU backend's draw + encode per output, on the bench manifest's
# first 600 jobs and the HD set's first 40 (as `make bench-gpu-own` measures it; one run each).
echo; echo "## the GL thread's own work (issue 52): gpu-own per GPU-encoded output against cpu draw + encode per output"
echo "| set | cpu draw + encode per output | gpu-own per output | ratio | goal | GPU-encoded | dispatches a call | waits a call |"
echo "|---|---|---|---|---|---|---|---|"
head -n 600 "$T/m2400.jsonl" > "$T/own-small.jsonl"; head -n 40 "$T/hd.jsonl" > "$T/own-hd.jsonl"
for set in small hd; do
  for b in cpu gpu; do rm -rf "$T/o"; "$G" batch "$T/own-$set.jsonl" --backend $b --stats --json --out-dir "$T/o" > "$T/own-$b.json" 2>/dev/null; done
  python3 - "$set" "$T/own-cpu.json" "$T/own-gpu.json" <<'PY'
import json, sys
name, cpu, gpu = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
c = {s["stage"]: s for s in cpu["stages"]}
g = {s["stage"]: s for s in gpu["stages"]}
per_cpu = (c["draw"]["seconds"] + c["encode"]["seconds"]) / max(1, cpu["rendered"])
items = g.get("gpu-own", {}).get("items", 0)
per_own = g["gpu-own"]["seconds"] / items if items else float("nan")
calls = max(1, gpu.get("gpuEncodeCalls") or 0)
gl = gpu.get("gpuEncodeGL") or {"dispatches": 0, "waits": 0}
goal = {"small": "1/4.2", "hd": "1/17"}[name]
ratio = f"1/{per_cpu / per_own:.1f}" if items and per_own > 0 else "n/a (nothing GPU-encoded)"
print(f"| {name} | {per_cpu * 1000:.3f} ms | {per_own * 1000:.3f} ms | {ratio} | {goal} | {items} of {gpu['rendered']} "
      f"| {gl['dispatches'] / calls:.1f} | {gl['waits'] / calls:.1f} |", flush=True)
PY
done

[ -n "${rows// }" ] || { rm -rf "$T"; exit 0; }
# Same bytes, and each side's share: the last row's files, cpu against gpu; the stages of gpu and hybrid.
last=${rows##* }
rm -rf "$T/c" "$T/g"; "$G" batch "$T/$last.jsonl" --backend cpu --out-dir "$T/c" 2>/dev/null; "$G" batch "$T/$last.jsonl" --backend gpu --out-dir "$T/g" 2>/dev/null
d=0; n=0; for f in "$T"/c/*.png; do n=$((n + 1)); cmp -s "$f" "$T/g/${f##*/}" || d=$((d + 1)); done
echo; echo "$last outputs whose bytes differ between cpu and gpu: $d of $n"
for b in gpu hybrid; do echo; echo "stages, $last on $b:"; rm -rf "$T/o"; "$G" batch "$T/$last.jsonl" --backend $b --stats --out-dir "$T/o" 2>&1 | tail -9; done
rm -rf "$T"
