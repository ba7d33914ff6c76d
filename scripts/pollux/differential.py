"""Differential test: the Pollux artifact's simulator and schedlab on the same small workload.

Usage: python differential.py ARTIFACT_SIMULATOR_DIR SCHEDLAB_BINARY DATA_DIR [JOBS] [POLICIES...]

Runs the first JOBS jobs (default 40) of the artifact's workload-1 at 1.0x load under each
policy (default: tiresias optimus; pollux is random in the artifact, so compare it over
workloads with experiments/pollux.yaml instead) in the artifact's own simulator (imported
from ARTIFACT_SIMULATOR_DIR, never copied) and in schedlab, and prints per-job JCTs side by side
with the mean and largest differences. Needs the artifact's Python dependencies (numpy<1.24,
pandas<2, scipy, autograd, pymoo==0.4.2.2; see README.md beside this script).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")
artifact, binary, data = sys.argv[1], sys.argv[2], sys.argv[3]
jobs = int(sys.argv[4]) if len(sys.argv) > 4 else 40
policies = sys.argv[5:] or ["tiresias", "optimus"]
ours = {"tiresias": "pollux-tiresias", "optimus": "optimus-oracle", "pollux": "pollux"}

sys.path.insert(0, artifact)
os.chdir(artifact)  # the artifact loads its traces relative to its folder
import pandas  # noqa: E402
import simulator  # noqa: E402  (the artifact's module)

work = tempfile.mkdtemp(prefix="pollux-differential-")
source = os.path.join(data, "pollux", "workloads", "workload-1.csv")
table = pandas.read_csv(source).sort_values("time", kind="stable").head(jobs)
trace = os.path.join(work, "workload.csv")
table.to_csv(trace, index=False)

spec = f"""name: differential
workload:
  trace: {{format: pollux, path: {trace}}}
  model: applications
  origin: trace_start
cluster:
  compact: {{gpus: {{gpu: 64}}, gpus_per_node: 4}}
perf: {{pollux: {{}}}}
sim: {{restart_overhead: 30, overhead_on_first_start: true}}
policies: [{", ".join(ours[p] for p in policies)}]
seeds: [0]
"""
with open(os.path.join(work, "spec.yaml"), "w") as f:
    f.write(spec)
env = dict(os.environ, SCHEDLAB_DATA=data)
subprocess.run([binary, "run", os.path.join(work, "spec.yaml"), "--results", work, "--quiet"], check=True, env=env)
runs = {}
for name in os.listdir(os.path.join(work, "differential", "runs")):
    with open(os.path.join(work, "differential", "runs", name)) as f:
        outcome = json.load(f)
    runs[outcome["policy"]] = dict(outcome["jct_by_job"])

for policy in policies:
    args = argparse.Namespace(workload=trace, policy=policy, min_nodes=16, max_nodes=None, interval=60,
                              interference=0.0, num_gpus=4, low_util=None, high_util=None, output=None)
    with open(os.devnull, "w") as quiet:
        stdout, sys.stdout = sys.stdout, quiet
        try:
            _, theirs = simulator.simulate(args)
        finally:
            sys.stdout = stdout
    mine = runs[ours[policy]]
    names = list(table["name"])
    rows = [(name, theirs[name], mine[index]) for index, name in enumerate(names)]
    print(f"== {policy}: {len(rows)} jobs")
    print(f"{'job':>16} {'artifact':>10} {'schedlab':>10} {'diff':>8}")
    for name, a, b in rows:
        print(f"{name:>16} {a:10.0f} {b:10.0f} {b - a:8.0f}")
    mean_a = sum(a for _, a, _ in rows) / len(rows)
    mean_b = sum(b for _, _, b in rows) / len(rows)
    worst = max(abs(b - a) for _, a, b in rows)
    print(f"average JCT: artifact {mean_a:.0f} s, schedlab {mean_b:.0f} s ({(mean_b / mean_a - 1) * 100:+.2f}%); "
          f"largest per-job difference {worst:.0f} s")
