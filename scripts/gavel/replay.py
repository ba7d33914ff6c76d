"""Replays one Gavel `.trace` in Gavel's simulator and in schedlab and compares per-job JCTs.

Usage:
  VENV/bin/python scripts/gavel/replay.py GAVEL_CHECKOUT SCHEDLAB_BINARY TRACE GAVEL_POLICY SCHEDLAB_POLICY [OUT_DIR]

e.g. `... gavel target/release/schedlab trace.trace max_min_fairness_perf "gavel-las[mode=gavel]"`.
Both run on 36 V100, 36 P100 and 36 K80 (one GPU per server, Gavel's default), seed 0, 360-s
rounds. Gavel's per-job JCTs are read from its `get_average_jct` printout; schedlab's from the
run's stored outcome (`jct_by_job`). Prints a summary and writes `OUT_DIR/jobs.csv`.
Gavel's code is imported from the checkout given; none of it is in this repository.
"""
import csv
import glob
import json
import os
import re
import subprocess
import sys


def gavel_jcts(gavel, trace, policy):
    scheduler_dir = os.path.join(gavel, "scheduler")
    command = [
        sys.executable, "scripts/drivers/simulate_scheduler_with_trace.py",
        "-t", os.path.abspath(trace), "-p", policy, "--seed", "0",
        "-c", "36:36:36", "--throughputs_file", "simulation_throughputs.json",
    ]
    result = subprocess.run(command, cwd=scheduler_dir, capture_output=True, text=True, check=True)
    jcts = {}
    for line in result.stdout.splitlines():
        match = re.match(r"Job (\d+)(?: \(high priority\))?: ([0-9.]+)$", line.strip())
        if match:
            jcts[int(match.group(1))] = float(match.group(2))
    if not jcts:
        sys.exit("no per-job JCTs in Gavel's output:\n" + result.stdout[-2000:] + result.stderr[-2000:])
    return jcts


def replay_spec(name, trace, policy, extra=""):
    """The schedlab spec that replays `trace` with `policy` on Gavel's simulated cluster."""
    return f"""name: {name}
workload:
  trace: {{format: gavel, path: {os.path.abspath(trace)}}}
  model: from-trace
cluster:
  compact: {{gpus: {{v100: 36, p100: 36, k80: 36}}, gpus_per_node: 1}}
perf:
  throughputs: {{path: gavel/simulation_throughputs.json, reference: v100}}
policies: ["{policy}"]
seeds: [0]
{extra}"""


def schedlab_jcts(binary, data, trace, policy, out):
    spec = os.path.join(out, "replay.yaml")
    with open(spec, "w") as f:
        f.write(replay_spec("replay", trace, policy))
    results = os.path.join(out, "results")
    env = dict(os.environ, SCHEDLAB_DATA=data)
    subprocess.run([binary, "run", spec, "--quiet", "--results", results], check=True, env=env)
    (run,) = glob.glob(os.path.join(results, "replay", "runs", "*.json"))
    with open(run) as f:
        return {job: jct for job, jct in json.load(f)["jct_by_job"]}


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    gavel, binary, trace, gavel_policy, schedlab_policy = sys.argv[1:6]
    out = sys.argv[6] if len(sys.argv) > 6 else "/tmp/schedlab-gavel-replay"
    os.makedirs(out, exist_ok=True)
    data = os.environ.get("SCHEDLAB_DATA", os.path.abspath("../shared/data"))
    theirs = gavel_jcts(gavel, trace, gavel_policy)
    ours = schedlab_jcts(binary, data, trace, schedlab_policy, out)
    common = sorted(set(theirs) & set(ours))
    rows = [(job, theirs[job], ours[job], ours[job] - theirs[job]) for job in common]
    with open(os.path.join(out, "jobs.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["job", "gavel_jct_s", "schedlab_jct_s", "difference_s"])
        writer.writerows(rows)
    mean_theirs = sum(theirs[job] for job in common) / len(common)
    mean_ours = sum(ours[job] for job in common) / len(common)
    earlier = sum(1 for row in rows if row[3] < -1)
    later = sum(1 for row in rows if row[3] > 1)
    rounds = {}
    for row in rows:
        key = round(row[3] / 360.0)
        rounds[key] = rounds.get(key, 0) + 1
    print(f"{len(common)} jobs (Gavel {len(theirs)}, schedlab {len(ours)})")
    print(f"average JCT: Gavel {mean_theirs:.1f} s, schedlab {mean_ours:.1f} s ({100 * (mean_ours / mean_theirs - 1):+.2f}%)")
    print(f"earlier in schedlab: {earlier}, later: {later}, within 1 s: {len(rows) - earlier - later}")
    print("difference in whole 360-s rounds (schedlab - Gavel): " +
          ", ".join(f"{key:+d}: {count}" for key, count in sorted(rounds.items())))


if __name__ == "__main__":
    main()
