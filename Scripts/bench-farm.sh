#!/usr/bin/env bash
# `make bench`: times `glslice batch` on both backends over the manifest in $1,
# with peak RSS from /usr/bin/time -v, then the floor of the CPU outputs
# (encoding them plus writing their bytes into as many files: the time no
# renderer of these PNGs can beat). Each is run $RUNS times
# (default 3) into fresh folders and the median is reported: this 2-core VM's
# timings vary by ±20% from run to run. Prints figures, not verdicts.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1
runs=${RUNS:-3}
bin=.build/release
jobs=$(grep -c . "$dir/manifest.jsonl")
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
for backend in cpu gpu; do
  times=()
  for run in $(seq "$runs"); do
    out="$dir/$backend-$run"
    rm -rf "$out"
    log=$(mktemp)
    if ! /usr/bin/time -v "$bin/glslice" batch "$dir/manifest.jsonl" --backend "$backend" --out-dir "$out" 2>"$log"; then
      echo "batch --backend $backend failed:"; grep -v '^\s' "$log" | tail -3; rm -f "$log"; continue 2
    fi
    times+=("$(sed -n 's/^glslice: batch: .* in \([0-9.]*\) s .*/\1/p' "$log")")
    rss=$(( $(awk -F': ' '/Maximum resident/ {print $2}' "$log") / 1024 ))
    summary=$(grep '^glslice: batch' "$log" | sed 's/^glslice: //')
    rm -f "$log"
  done
  t=$(printf '%s\n' "${times[@]}" | median)
  printf '%s: median %.2f s of %s (%s), %.0f renders/s, peak RSS %d MiB, %s bytes\n' "$backend" "$t" "$runs" \
    "${times[*]}" "$(awk -v j="$jobs" -v t="$t" 'BEGIN {print j / t}')" "$rss" "$(cat "$dir/$backend-1"/*.png | wc -c)"
  echo "  last run: $summary"
done
floors=()
for run in $(seq "$runs"); do
  floors+=("$("$bin/glslice-bench" floor "$dir/cpu-1" | sed -n 's/.* sum \([0-9.]*\) s .*/\1/p')")
done
f=$(printf '%s\n' "${floors[@]}" | median)
printf 'floor (encode + write the files): median %.2f s of %s (%s), %.0f/s\n' "$f" "$runs" "${floors[*]}" \
  "$(awk -v j="$jobs" -v t="$f" 'BEGIN {print j / t}')"
echo "($jobs jobs)"
