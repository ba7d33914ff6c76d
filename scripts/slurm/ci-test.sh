#!/usr/bin/env bash
# The scale-out test on a real single-node Slurm (called by .ci/run; needs root, slurm-wlm and
# munge). It runs experiments/quickstart.yaml once locally, then as a 4-task job array written by
# `schedlab slurm`, one of whose tasks fails (a folder stands where one of its runs must be
# stored). The report job is cancelled, `schedlab report` names the failed shard, that shard
# alone is submitted again (the store resumes), the report job runs, and every output file must
# equal the local run's byte for byte (the wall and solver times in manifest.json and index.html
# aside: they are each run's own timings).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
work="$(mktemp -d)"
slurm_dir="$work/slurm"
cleanup() {
    "$root/scripts/slurm/single-node.sh" stop "$slurm_dir" || true
    rm -rf "$work"
}
[ -n "${KEEP:-}" ] || trap cleanup EXIT

cargo build --locked --quiet -p schedlab-cli
schedlab="$root/target/debug/schedlab"
spec="experiments/quickstart.yaml"
shards=4

echo "-- a local run"
"$schedlab" run "$spec" --results "$work/local" --quiet

echo "-- a single-node Slurm"
"$root/scripts/slurm/single-node.sh" start "$slurm_dir"
export SLURM_CONF="$slurm_dir/slurm.conf"
sinfo

echo "-- the job array, one task of which fails"
"$schedlab" slurm "$spec" --array "$shards" --cpus-per-task 1 --time 20:00 --results "$work/cluster"
out="$work/cluster/quickstart"
# The first stored run of the local run, in file-name order: its file in the cluster's store is
# a non-empty folder, so saving it fails in whichever shard runs it (and that shard stops
# starting runs, as it would on a full disk).
obstacle="$(find "$work/local/quickstart/runs" -name '*.json' | sort | head -n 1)"
obstacle="$out/runs/$(basename "$obstacle")"
mkdir -p "$obstacle/in-the-way"
if timeout 600 sh "$out/slurm/submit.sh" --wait; then
    echo "FAIL: the report job ran although an array task failed" >&2
    exit 1
fi
test ! -f "$out/runs.csv" || { echo "FAIL: a report was written from an incomplete store" >&2; exit 1; }
grep -l "error" "$out"/slurm/shard-*.out

echo "-- the report names the failed shard"
if "$schedlab" report "$spec" --results "$work/cluster" 2>"$work/report.err"; then
    echo "FAIL: report succeeded on an incomplete store" >&2
    exit 1
fi
cat "$work/report.err"
failed="$(grep -o 'shard [0-9]*/'"$shards"' is missing [0-9]* runs' "$work/report.err" | sed 's/^shard \([0-9]*\)\/.*/\1/')"
test "$(echo "$failed" | wc -l)" = 1 || { echo "FAIL: expected one failed shard, got '$failed'" >&2; exit 1; }
grep -q "it did not finish" "$work/report.err"
for index in $(seq 0 $((shards - 1))); do
    if [ "$index" != "$failed" ]; then
        test -f "$out/shards/$index-of-$shards.json"
    fi
done

echo "-- shard $failed again, alone, then the report job"
rm -rf "$obstacle"
timeout 600 sbatch --wait --array="$failed" "$out/slurm/shards.sbatch"
cat "$out/slurm/shard-$failed.out"
test -f "$out/shards/$failed-of-$shards.json"
timeout 600 sbatch --wait "$out/slurm/report.sbatch"
cat "$out/slurm/report.out"

echo "-- merged output against the local run, byte for byte"
python3 - "$work/local/quickstart" "$out" <<'PY'
import json, os, re, sys
local, merged = sys.argv[1], sys.argv[2]
def outputs(folder):
    files = {}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if os.path.isdir(path):
            continue
        data = open(path, "rb").read()
        if name == "manifest.json":
            manifest = json.loads(data)
            del manifest["wall_time_s"], manifest["solver"]
            data = json.dumps(manifest, sort_keys=True).encode()
        if name == "index.html":
            data = re.sub(rb'<span class="wall-time">.*?</span>', b"", data)
        files[name] = data
    return files
a, b = outputs(local), outputs(merged)
assert sorted(a) == sorted(b), (sorted(a), sorted(b))
differ = [name for name in a if a[name] != b[name]]
assert not differ, f"files differ: {differ}"
runs = lambda folder: sorted(name for name in os.listdir(os.path.join(folder, "runs")) if name.endswith(".json"))
assert runs(local) == runs(merged), "stored runs differ"
print(f"{len(a)} files identical, {len(runs(local))} stored runs")
PY
echo "-- ok"
