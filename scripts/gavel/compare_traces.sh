#!/usr/bin/env bash
# Writes job sequences with Gavel's own driver (--output_trace_file_name) and with
# `schedlab trace export` from `rng: python` specs, and compares them line by line.
# Usage: compare_traces.sh GAVEL_CHECKOUT VENV SCHEDLAB_BINARY [OUT_DIR]
set -euo pipefail
gavel="$(cd "${1:?usage: compare_traces.sh GAVEL_CHECKOUT VENV SCHEDLAB_BINARY [OUT_DIR]}" && pwd)"
python="${2:?venv}/bin/python"
schedlab="$(realpath "${3:?schedlab binary}")"
out="$(mkdir -p "${4:-/tmp/schedlab-gavel-traces}" && cd "${4:-/tmp/schedlab-gavel-traces}" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"

# name, seed, lam (s), window end, extra driver flags, jobs to compare, generator line
cases=(
  "single-2perh-seed0|0|1800|100||300|gavel-continuous: {jobs: 300, rate_per_hour: 2.0, rng: python}"
  "multi-priority-5.2perh-seed1|1|$(python3 -c 'print(repr(3600.0/5.2))')|100|-m --generate-multi-priority-jobs|1000|gavel-continuous: {jobs: 1000, rate_per_hour: 5.2, multi_gpu: true, multi_priority: true, rng: python}"
  "static-multi-seed2|2|0|60|-m|60|gavel-static: {jobs: 60, multi_gpu: true, rng: python}"
)
status=0
for case in "${cases[@]}"; do
  IFS='|' read -r name seed lam end flags count generator <<<"$case"
  # shellcheck disable=SC2086
  (cd "$gavel/scheduler" && "$python" scripts/drivers/simulate_scheduler_with_generated_jobs.py \
      -c 36:36:36 -p fifo --seed "$seed" -l "$lam" -s 0 -e "$end" $flags \
      --throughputs_file simulation_throughputs.json --output_trace_file_name "$out/$name.gavel.trace" 2>/dev/null)
  cat > "$out/$name.yaml" <<SPEC
name: $name
workload:
  generator:
    $generator
  model: {gavel-zoo: {reference: v100}}
cluster:
  compact: {gpus: {v100: 36, p100: 36, k80: 36}, gpus_per_node: 4}
perf:
  throughputs: {path: gavel/simulation_throughputs.json, reference: v100}
policies: [gavel-fifo]
seeds: [$seed]
SPEC
  "$schedlab" trace export "$out/$name.yaml" --seed "$seed" --out "$out/$name.schedlab.trace" 2>/dev/null
  # Gavel writes the window's first job twice: once among the jobs running at the window's
  # start (arrival "0"), once as it arrives; compare from the second line.
  if sed -n "2,$((count + 1))p" "$out/$name.gavel.trace" | cmp -s - "$out/$name.schedlab.trace"; then
    echo "$name: $count jobs identical"
  else
    echo "$name: DIFFERENT (see $out)"; status=1
  fi
done
echo "(fixtures for crates/cli/tests: $here/../../crates/cli/tests/fixtures/gavel-driver/)"
exit $status
