#!/usr/bin/env bash
# Runs Gavel's generated-jobs driver (simulate_scheduler_with_generated_jobs.py: Gavel's endless
# job stream, measured over jobs 4000-4999) and the same workload in schedlab (a spec with
# `rng: python` and `stop_after_window`), and prints both average JCTs over the window.
# Usage: generated_jobs.sh GAVEL_CHECKOUT VENV SCHEDLAB_BINARY GAVEL_POLICY SCHEDLAB_POLICY SEED
#            RATE_PER_HOUR single|multi [OUT_DIR]
set -euo pipefail
usage="usage: generated_jobs.sh GAVEL_CHECKOUT VENV SCHEDLAB_BINARY GAVEL_POLICY SCHEDLAB_POLICY SEED RATE_PER_HOUR single|multi [OUT_DIR]"
gavel="$(cd "${1:?$usage}" && pwd)"
python="${2:?$usage}/bin/python"
schedlab="$(realpath "${3:?$usage}")"
gavel_policy="${4:?$usage}"
schedlab_policy="${5:?$usage}"
seed="${6:?$usage}"
rate="${7:?$usage}"
jobs="${8:?$usage}"
out="$(mkdir -p "${9:-/tmp/schedlab-gavel-generated}" && cd "${9:-/tmp/schedlab-gavel-generated}" && pwd)"
case "$jobs" in
  single) flags=""; multi=false ;;
  multi) flags="-m --num_gpus_per_server 4:4:4"; multi=true ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
lam="$(python3 -c "print(repr(3600.0 / float('$rate')))")"
tag="$(echo "$gavel_policy-$jobs-$rate-seed$seed" | tr -c 'A-Za-z0-9.\n-' '_')"

# Gavel prints its results only with -v, beside a log of every event (hundreds of MB): keep
# the result line. The run takes 5-30 minutes on one core.
started=$(date +%s)
# shellcheck disable=SC2086
(cd "$gavel/scheduler" && "$python" scripts/drivers/simulate_scheduler_with_generated_jobs.py -v \
    -c 36:36:36 $flags -p "$gavel_policy" --seed "$seed" -l "$lam" -s 4000 -e 5000 \
    --throughputs_file simulation_throughputs.json 2>&1 | grep -E "Results: average JCT" > "$out/$tag.gavel.txt")
gavel_seconds=$(( $(date +%s) - started ))
gavel_jct="$(sed -E 's/.*average JCT=([0-9.]+).*/\1/' "$out/$tag.gavel.txt")"

# The cluster of gavel.yaml and gavel-multi.yaml (4-GPU nodes; one-GPU jobs do not see them).
# 32,000 jobs keep arriving past the window's end at every load of the shipped specs; a run
# whose arrivals run out first is an error, never a silent cut.
cat > "$out/$tag.yaml" <<SPEC
name: $tag
workload:
  generator:
    gavel-continuous: {jobs: 32000, rate_per_hour: $rate, multi_gpu: $multi, rng: python}
  model: {gavel-zoo: {reference: v100}}
cluster:
  compact: {gpus: {v100: 36, p100: 36, k80: 36}, gpus_per_node: 4}
perf:
  throughputs: {path: gavel/simulation_throughputs.json, reference: v100}
policies: ["$schedlab_policy"]
seeds: [$seed]
sim:
  window: {jobs: {first: 4000, last: 5000}}
  stop_after_window: true
tables:
  - {name: summary, metrics: [avg_jct_hours], rows: policy}
SPEC
started=$(date +%s)
"$schedlab" run "$out/$tag.yaml" --results "$out/results" --threads 1 --force --quiet
schedlab_seconds=$(( $(date +%s) - started ))
schedlab_jct="$(python3 -c "
import csv, sys
rows = list(csv.DictReader(open('$out/results/$tag/runs.csv')))
print(rows[0]['avg_jct_hours'])")"
python3 - "$gavel_jct" "$schedlab_jct" "$gavel_seconds" "$schedlab_seconds" <<'PY'
import sys
gavel_hours, ours_hours = float(sys.argv[1]) / 3600, float(sys.argv[2])
print(f"average JCT, jobs 4000-4999: Gavel {gavel_hours:.2f} h, schedlab {ours_hours:.2f} h "
      f"({100 * (ours_hours / gavel_hours - 1):+.2f}%); wall time {sys.argv[3]} s and {sys.argv[4]} s")
PY
