#!/usr/bin/env python3
"""How much of the gap between FCFS and the best oracle ordering each RLTune agent closes.

For every RLTune experiment in the results folder (default `results/`), every load, and each
objective of the authors' `--score_type`, prints the mean of FCFS, of the best oracle ordering
(SJF, F1, WFP, UNI: they know true run times), of the agent trained for that objective, and the
share of the gap it closes: (FCFS - agent) / (FCFS - best oracle), with the sign turned for
utilisation, where higher is better. Means are over every episode and run seed, as the tables'.

    python3 scripts/rltune/gap.py [RESULTS]
"""

import csv
import sys
from collections import defaultdict
from pathlib import Path

# (objective, metric column, lower is better)
OBJECTIVES = [
    ("bsld", "avg_bounded_slowdown", True),
    ("wait", "avg_queueing_delay_hours", True),
    ("turnaround", "avg_jct_hours", True),
    ("utilization", "utilization", False),
]
# (experiment, trace of its built-in weights, the policies' environment suffix)
EXPERIMENTS = [
    ("philly-rltune", "philly", ""),
    ("rltune-philly-random", "philly", ""),
    ("rltune-helios", "helios", "env=helios"),
    ("rltune-helios-random", "helios", "env=helios"),
]
ORACLES = ["rltune-sjf", "rltune-f1", "rltune-wfp", "rltune-uni"]


def name(policy, env):
    return f"{policy}[{env}]" if env else policy


def agent(trace, objective, env):
    params = ",".join(part for part in [env, f"weights={trace}-{objective}"] if part)
    return f"rltune[{params}]"


def main():
    results = Path(sys.argv[1] if len(sys.argv) > 1 else "results")
    print("| experiment | load | objective | FCFS | best oracle | agent | gap closed |")
    print("|---|---|---|---|---|---|---|")
    for experiment, trace, env in EXPERIMENTS:
        path = results / experiment / "runs.csv"
        if not path.exists():
            print(f"| {experiment} | not run | | | | | |")
            continue
        values = defaultdict(list)
        with open(path, newline="") as file:
            for row in csv.DictReader(file):
                load = row.get("scale_rate") or "1"
                for _, metric, _ in OBJECTIVES:
                    if row[metric]:
                        values[(row["policy"], load, metric)].append(float(row[metric]))
        loads = sorted({load for (_, load, _) in values}, key=float)
        for load in loads:
            for objective, metric, lower in OBJECTIVES:
                def mean(policy):
                    samples = values.get((policy, load, metric))
                    return sum(samples) / len(samples) if samples else None

                fcfs = mean(name("rltune-fcfs", env))
                oracles = [(mean(name(oracle, env)), oracle) for oracle in ORACLES]
                oracles = [(value, oracle) for value, oracle in oracles if value is not None]
                trained = mean(agent(trace, objective, env))
                if fcfs is None or trained is None or not oracles:
                    continue
                best, which = (min if lower else max)(oracles)
                gap = fcfs - best if lower else best - fcfs
                gained = fcfs - trained if lower else trained - fcfs
                closed = f"{gained / gap:.0%}" if gap > 0 else "no gap (no oracle beats FCFS)"
                print(
                    f"| {experiment} | {load}x | {objective} | {fcfs:.4g} | {best:.4g} ({which}) | {trained:.4g} | {closed} |"
                )


if __name__ == "__main__":
    main()
