#!/usr/bin/env bash
# `make bench-giant`: a 20,000 x 20,000 px tile render on each backend, with its
# peak resident memory from /usr/bin/time -v. Memory is bounded by one band of
# rows (32 MiB by default), not by the 1.6 GB image. Not a test: it prints figures.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/glslice
mkdir -p out
for backend in cpu gpu; do
  out=out/giant-$backend.png
  log=$(mktemp)
  if /usr/bin/time -v "$bin" render Fixtures/texture.png --insets 6,6,6,6 --mode tile \
       --pixels 20000x20000 --backend "$backend" -o "$out" 2>"$log"; then
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$log")
    printf 'giant %s: 20000x20000 px tile, wall %s, peak RSS %d MiB, %d bytes\n' \
      "$backend" "$wall" $((rss / 1024)) "$(stat -c %s "$out")"
  else
    echo "giant $backend: failed:"; grep -v '^\s' "$log" | head -3
  fi
  rm -f "$log" "$out"
done
