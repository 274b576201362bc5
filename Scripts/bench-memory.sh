#!/usr/bin/env bash
# `make bench-memory`: a 200,000-job manifest through `glslice batch` (CPU; BACKEND=gpu for the GPU),
# peak RSS from /usr/bin/time -v. The manifest is streamed and every queue is
# bounded, so memory must not grow with the manifest's length.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=out/bench-memory-${BACKEND:-cpu}
jobs=${JOBS:-200000}
rm -rf "$dir" && mkdir -p "$dir"
fixtures=$(pwd)/Fixtures
awk -v n="$jobs" -v f="$fixtures" 'BEGIN {
  split("panel.png button@2x.png texture.png shadow.png bar.png", src, " ")
  split("8 14,12,14,12 6 16 0", ins, " ")
  split("auto stretch tile repeat round space", mode, " ")
  for (i = 0; i < n; i++) {
    s = i % 5 + 1
    printf "{\"input\": \"%s/%s\", \"output\": \"o/%d/%d.png\", \"insets\": \"%s\", \"pixels\": \"%dx%d\", \"mode\": \"%s\"}\n", \
      f, src[s], i % 100, i, ins[s], 40 + i % 61, 30 + i % 37, mode[i % 6 + 1]
  }
}' > "$dir/manifest.jsonl"
log=$(mktemp)
/usr/bin/time -v .build/release/glslice batch "$dir/manifest.jsonl" --backend "${BACKEND:-cpu}" --results "$dir/results.jsonl" 2>"$log" || true
grep '^glslice: batch' "$log" | sed 's/^glslice: //'
printf 'jobs %d, peak RSS %d MiB, results lines %d\n' "$jobs" $(( $(awk -F': ' '/Maximum resident/ {print $2}' "$log") / 1024 )) \
  "$(wc -l < "$dir/results.jsonl")"
rm -f "$log"
rm -rf "$dir/o"
