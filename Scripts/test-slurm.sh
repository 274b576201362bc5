#!/usr/bin/env bash
# `make test-slurm`: a single-node Slurm cluster on this machine (munged, slurmctld,
# slurmd, started here as root with a config under a temporary folder: its own ports,
# spool, state and socket, on loopback), then one manifest submitted as three arrays
# (--array=1-4, --array=0-6:2, --array=0-2) through deploy/glslice-array.sbatch.
# Checks that each array renders every job exactly once, byte-identical to a
# single-machine run, merges the per-task results, and stops what it started.
set -euo pipefail
GLSLICE=$(realpath "${1:?usage: test-slurm.sh GLSLICE GLSLICE_BENCH}")
BENCH=$(realpath "${2:?usage: test-slurm.sh GLSLICE GLSLICE_BENCH}")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${SLURM_TEST_JOBS:-30}
T=$(mktemp -d /tmp/glslice-slurm.XXXXXX)
chmod 755 "$T"
PIDS=()

say() { echo "test-slurm: $*"; }
fail() { echo "test-slurm: FAILED: $*" >&2; for f in "$T"/*.log; do [ -f "$f" ] && { echo "--- $f" >&2; tail -n 15 "$f" >&2; }; done; exit 1; }
cleanup() {
    local status=$?
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    rm -rf "$T"
    exit $status
}
trap cleanup EXIT INT TERM

# Polls `$@` every 0.2 s for up to $1 seconds.
wait_for() {
    local seconds=$1; shift
    for _ in $(seq $((seconds * 5))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
    return 1
}

for tool in munged slurmctld slurmd sbatch sinfo; do
    command -v $tool >/dev/null || fail "$tool is missing (make test-slurm installs slurmctld slurmd slurm-client munge)"
done
[ "$(id -u)" = 0 ] || fail "a test cluster starts its daemons as root; run as root"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
HOST=$(hostname -s)
CTLD_PORT=$(free_port); SLURMD_PORT=$(free_port)
mkdir -p "$T/state" "$T/spool" "$T/out" "$T/logs"

# munge: a fresh key and a private socket.
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 status=none
chmod 400 "$T/munge.key"
munged --force --foreground --key-file="$T/munge.key" --socket="$T/munge.sock" --pid-file="$T/munged.pid" \
    --log-file="$T/munged.log" --seed-file="$T/munge.seed" >>"$T/munged.log" 2>&1 &
PIDS+=($!)
wait_for 10 test -S "$T/munge.sock" || fail "munged did not come up in 10 s"

cat > "$T/slurm.conf" <<CONF
ClusterName=glslice-test
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
AuthInfo=socket=$T/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$T/slurm.conf"

slurmctld -D -i -f "$SLURM_CONF" >>"$T/slurmctld.log" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" >>"$T/slurmd.log" 2>&1 &
PIDS+=($!)
wait_for 30 sh -c 'sinfo -h -o %T | grep -qx idle' || fail "the node did not become idle in 30 s ($(sinfo -h -o %T 2>&1))"
say "cluster up: $HOST, slurmctld :$CTLD_PORT, slurmd :$SLURMD_PORT"

"$BENCH" manifest "$T/jobs.jsonl" --jobs "$JOBS" --seed 7 --fixtures "$ROOT/Fixtures" >/dev/null
"$GLSLICE" batch "$T/jobs.jsonl" --backend cpu --out-dir "$T/reference" 2>/dev/null || fail "the single-machine batch failed"

for array in 1-4 0-6:2 0-2; do
    name=$(echo "$array" | tr ':' 's')
    out="$T/out/$name"; results="$T/results-$name"
    mkdir -p "$out"
    MANIFEST="$T/jobs.jsonl" OUT_DIR="$out" RESULTS_DIR="$results" GLSLICE="$GLSLICE" BACKEND=cpu \
        timeout 300 sbatch --wait --quiet --array="$array" --output="$T/logs/$name-%a.out" \
        "$ROOT/deploy/glslice-array.sbatch" || fail "array $array did not finish cleanly (see $T/logs)"
    cat "$results"/task-*.jsonl > "$T/merged-$name.jsonl"
    python3 - "$T/merged-$name.jsonl" "$JOBS" "$array" <<'PY' || fail "array $array: results do not cover every job once"
import json, sys
path, jobs, array = sys.argv[1], int(sys.argv[2]), sys.argv[3]
seen = {}
for text in open(path):
    r = json.loads(text)
    seen[r["line"]] = seen.get(r["line"], 0) + 1
    assert r["status"] == "ok", r
missing = [n for n in range(1, jobs + 1) if n not in seen]
twice = [n for n, c in seen.items() if c != 1]
assert not missing and not twice, f"missing {missing}, more than once {twice}"
print(f"test-slurm: --array={array}: {jobs} jobs, each rendered once")
PY
    diff <(cd "$T/reference" && ls) <(cd "$out" && ls) >/dev/null || fail "array $array: the set of outputs differs"
    for f in "$T/reference"/*.png; do cmp -s "$f" "$out/$(basename "$f")" || fail "array $array: $(basename "$f") differs"; done
    # Each task kept its own resume index in the shared folder, and together they say every output is done.
    index=$(ls "$out/.glslice-resume" 2>/dev/null | wc -l)
    [ "$index" -ge 2 ] || fail "array $array: $index resume index files in the shared folder (one per task expected)"
    "$GLSLICE" batch "$T/jobs.jsonl" --out-dir "$out" --backend cpu --resume 2>"$T/resume-$name.err" \
        || fail "array $array: --resume over the tasks' folder failed: $(tail -1 "$T/resume-$name.err")"
    grep -q "batch: 0 rendered, $JOBS skipped, 0 failed" "$T/resume-$name.err" \
        || fail "array $array: --resume over the tasks' folder rendered again: $(tail -1 "$T/resume-$name.err")"
    say "--array=$array: $(ls "$out" | wc -l) outputs byte-identical to the single-machine run; $(ls "$results" | wc -l) results files merged; $index resume index files, --resume skips all"
done
# A list that is not a range cannot be numbered 0..COUNT-1: every task refuses, saying how.
if MANIFEST="$T/jobs.jsonl" OUT_DIR="$T/out/irregular" RESULTS_DIR="$T/results-irregular" GLSLICE="$GLSLICE" BACKEND=cpu \
    timeout 120 sbatch --wait --quiet --array=3,7,9 --output="$T/logs/irregular-%a.out" "$ROOT/deploy/glslice-array.sbatch"; then
    fail "--array=3,7,9 was accepted"
fi
grep -q "not a regular range" "$T/logs/irregular-7.out" || fail "--array=3,7,9: no clear refusal ($(cat "$T/logs/irregular-7.out"))"
[ ! -e "$T/out/irregular" ] || [ -z "$(ls "$T/out/irregular")" ] || fail "--array=3,7,9 rendered something"
say "--array=3,7,9: refused by every task ($(grep -o 'not a regular range.*' "$T/logs/irregular-7.out" | cut -c1-90)...)"
say "passed"
