#!/usr/bin/env python3
"""Where a suite's time goes, from the stored runs: each run records its own wall time
(`wall_time_s`, one thread per run, so about its CPU time on an otherwise idle core) and its
solver time (`solver.solve_seconds`, where the policy solves LPs).

    scripts/perf/run_times.py [RESULTS] [--experiments gavel,gavel-multi] [--top 15]

Prints, per experiment and policy, the runs, their summed and largest wall time and the summed
solver time, heaviest first, and each experiment's total. Runs measured on a busy machine are
slower: compare ratios within one listing, not absolute times across machines.
"""

import argparse
import collections
import json
from pathlib import Path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="?", default="results")
    parser.add_argument("--experiments", default="", help="comma-separated experiment names (default: all)")
    parser.add_argument("--top", type=int, default=15, help="rows to print (default 15)")
    args = parser.parse_args()
    wanted = {name for name in args.experiments.split(",") if name}
    rows = collections.defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    totals = collections.Counter()
    for store in sorted(Path(args.results).glob("*/runs")):
        experiment = store.parent.name
        if wanted and experiment not in wanted:
            continue
        # A store keeps runs of earlier inputs too: the newest file of each run key is the current one.
        newest = {}
        for path in store.glob("*.json"):
            run = json.loads(path.read_text())
            mtime = path.stat().st_mtime
            if run["key"] not in newest or mtime > newest[run["key"]][0]:
                newest[run["key"]] = (mtime, run)
        for _, run in newest.values():
            wall = float(run.get("wall_time_s") or 0.0)
            solver = run.get("solver") or {}
            row = rows[(experiment, run["policy"])]
            row[0] += 1
            row[1] += wall
            row[2] = max(row[2], wall)
            row[3] += float(solver.get("solve_seconds") or 0.0)
            totals[experiment] += wall
    print(f"{'experiment':<24} {'policy':<44} {'runs':>5} {'wall s':>9} {'largest':>8} {'solver s':>9}")
    for (experiment, policy), (runs, wall, largest, solver) in sorted(rows.items(), key=lambda item: -item[1][1])[: args.top]:
        print(f"{experiment:<24} {policy[:44]:<44} {runs:>5} {wall:>9.1f} {largest:>8.1f} {solver:>9.1f}")
    print()
    for experiment, wall in totals.most_common():
        print(f"{experiment:<24} {wall:>9.1f} s in all")


if __name__ == "__main__":
    main()
