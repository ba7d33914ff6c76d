"""Replays one Gavel `.trace` in Gavel's simulator and in schedlab and compares them round by round.

Usage:
  VENV/bin/python scripts/gavel/compare_rounds.py GAVEL_CHECKOUT SCHEDLAB_BINARY TRACE GAVEL_POLICY SCHEDLAB_POLICY [OUT_DIR] [SHOWN]

e.g. `... gavel target/release/schedlab multi.trace max_min_fairness_perf "gavel-las[mode=gavel]"`.
Same set-up as `replay.py` (36 V100, 36 P100, 36 K80, one GPU per server, seed 0, 360-s rounds).
Gavel's side: its driver runs unchanged in a child process, with `Scheduler._schedule_jobs_on_workers`
wrapped from outside to log every round's start time and the jobs it runs, their GPU type and GPU
count, a pair sharing GPUs as both its jobs (`OUT_DIR/gavel_rounds.txt`). schedlab's side: the run
traces every job's allocation (one `job_timeline` plot per job; each sample has the GPU types held). For each of Gavel's rounds the
script takes schedlab's allocations 1 s after the round's start and prints the first SHOWN (default
5) rounds where the two differ, then how many rounds agree. A first difference with the same jobs on
other types points at the allocation (the LP); other jobs, at the round mechanism.
Gavel's code is imported from the checkout given; none of it is in this repository.
"""
import bisect
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replay import replay_spec  # noqa: E402  (the same spec as replay.py's)

GAVEL_LOGGER = r'''
import os, runpy, sys
scheduler_dir, log_path, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.path.insert(0, scheduler_dir)
os.chdir(scheduler_dir)
import scheduler
original = scheduler.Scheduler._schedule_jobs_on_workers
log = open(log_path, "w")
def logged(self):
    assignments = original(self)
    entries = []
    for job_id, workers in assignments.items():
        worker_type = self._worker_id_to_worker_type_mapping[workers[0]]
        entries.append("%s:%s:%d" % (str(job_id).replace(" ", ""), worker_type, len(workers)))
    log.write("%.6f %s\n" % (self.get_current_timestamp(), " ".join(entries)))
    return assignments
scheduler.Scheduler._schedule_jobs_on_workers = logged
sys.argv = ["simulate_scheduler_with_trace.py"] + argv
runpy.run_path("scripts/drivers/simulate_scheduler_with_trace.py", run_name="__main__")
log.close()
'''


def gavel_rounds(gavel, trace, policy, out):
    """Runs Gavel's simulator and returns [(round start, {(job, type, gpus)})]."""
    log_path = os.path.join(out, "gavel_rounds.txt")
    arguments = ["-t", os.path.abspath(trace), "-p", policy, "--seed", "0", "-c", "36:36:36",
                 "--throughputs_file", "simulation_throughputs.json"]
    subprocess.run([sys.executable, "-c", GAVEL_LOGGER, os.path.join(gavel, "scheduler"), log_path] + arguments,
                   capture_output=True, text=True, check=True)
    rounds = []
    with open(log_path) as f:
        for line in f:
            fields = line.split()
            entries = set()
            for entry in fields[1:]:
                # A pair sharing GPUs (space sharing) logs as "(a,b)": each of its jobs holds them.
                jobs, gpu_type, gpus = entry.rsplit(":", 2)
                for job in jobs.strip("()").split(","):
                    entries.add((job, gpu_type, int(gpus)))
            rounds.append((float(fields[0]), entries))
    return rounds


def schedlab_timelines(binary, data, trace, policy, out):
    """Runs schedlab with every job traced; returns ({job: samples}, GPU type names)."""
    with open(trace) as f:
        jobs = sum(1 for line in f if line.strip())
    plots = "\n".join("  - {job_timeline: {job: %d}}" % job for job in range(jobs))
    spec = os.path.join(out, "rounds.yaml")
    with open(spec, "w") as f:
        f.write(replay_spec("rounds", trace, policy, f"plots:\n{plots}\n"))
    results = os.path.join(out, "results")
    env = dict(os.environ, SCHEDLAB_DATA=data)
    subprocess.run([binary, "run", spec, "--quiet", "--force", "--results", results], check=True, env=env)
    (run,) = glob.glob(os.path.join(results, "rounds", "runs", "*.json"))
    with open(run) as f:
        timelines = {timeline["job"]: timeline["samples"] for timeline in json.load(f)["allocations"]}
    with open(os.path.join(results, "rounds", "manifest.json")) as f:
        types = json.load(f)["gpu_types"]
    return timelines, types


def held_at(timelines, types, time):
    """The set of (job, type, gpus) schedlab runs at `time`."""
    held = set()
    for job, samples in timelines.items():
        at = bisect.bisect_right([sample["time"] for sample in samples], time) - 1
        if at < 0 or samples[at]["gpus"] == 0:
            continue
        mask = samples[at].get("type_mask", 0)
        names = [name for index, name in enumerate(types) if mask >> index & 1]
        held.add((str(job), "+".join(names), samples[at]["gpus"]))
    return held


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    gavel, binary, trace, gavel_policy, schedlab_policy = sys.argv[1:6]
    out = sys.argv[6] if len(sys.argv) > 6 else "/tmp/schedlab-gavel-rounds"
    shown = int(sys.argv[7]) if len(sys.argv) > 7 else 5
    os.makedirs(out, exist_ok=True)
    data = os.environ.get("SCHEDLAB_DATA", os.path.abspath("../shared/data"))
    rounds = gavel_rounds(gavel, trace, gavel_policy, out)
    timelines, types = schedlab_timelines(binary, data, trace, schedlab_policy, out)
    differing = 0
    first = None
    for start, theirs in rounds:
        ours = held_at(timelines, types, start + 1.0)
        if ours == theirs:
            continue
        differing += 1
        first = start if first is None else first
        if differing <= shown:
            print(f"round at {start:.2f} s: Gavel only {sorted(theirs - ours)}; schedlab only {sorted(ours - theirs)}")
    print(f"{len(rounds)} Gavel rounds, {len(rounds) - differing} the same in schedlab (jobs, types, GPUs)"
          + (f"; the first difference at {first:.2f} s" if first is not None else ""))


if __name__ == "__main__":
    main()
